/**
 * The columns of a claims run (one, or with `--across` one per release of a
 * runtime or version of a package) and the view of what they found: with `--across`, claims ×
 * releases, and the bisect command for a claim that flipped between two
 * neighbouring releases.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RunRecord } from '@rtbench/core/schema';
import { claimsView, packagesText, runInfo, versionText, type ClaimsView } from '@rtbench/report/views';
import { parseRuntimeList, pinsAlone } from '@rtbench/arms';
import type { VariantSpec } from '@rtbench/runtime-registry';
import { type SuiteLocation } from '@rtbench/suite-loader';
import { UsageError } from '@rtbench/core/usage-error';
import type { PlannedCheck } from './checks.ts';
import { pinVariants, replaceVariants } from './plan.ts';
import { bisectCommandFor } from './bisect-line.ts';
import { claimsMatrix, type MatrixColumn } from '@rtbench/verdicts';

/** The claims as checked on one set of replacements: `--runtime`'s (label ''), or one release of `--across`. */
export interface ClaimsColumn {
  label: string;
  replacements: VariantSpec[];
  /** `--across react@18.3.1,…`: a version of a package (replacements[0], its runtime not written) pinned in every variant of the claims. */
  pinsAlone?: boolean;
}

/** A run saved by the command, with the column it belongs to. */
export interface ColumnRun {
  run: RunRecord;
  file: string;
  column: string;
}

/** The columns: `--across`'s releases of one runtime (two or more), else one column of `--runtime`'s replacements. */
export function claimsColumns(across: readonly string[] | undefined, runtime: readonly string[] | undefined): ClaimsColumn[] {
  if (!across) return [{ label: '', replacements: runtime ? parseRuntimeList(runtime.join(',')) : [] }];
  const specs = parseRuntimeList(across.join(','));
  if (specs.length < 2) throw new UsageError('--across needs two or more releases of one runtime, e.g. --across node@20,node@22,node@24,node@26, or versions of a package, e.g. --across react@18.3.1,react@19.2.0');
  const alone = specs.filter(pinsAlone);
  if (alone.length && alone.length < specs.length) throw new UsageError(`--across ${across.join(',')}: releases of a runtime or versions of a package, not both`);
  return specs.map((s) => ({ label: s.id, replacements: [s], ...(alone.length ? { pinsAlone: true } : {}) }));
}

/** Whether the suite at `entry` declares every package `spec` pins among its dependencies (the suite's package.json). */
function declares(entry: string, spec: VariantSpec): boolean {
  const manifest = join(dirname(entry), 'package.json');
  if (!existsSync(manifest)) return false;
  const { dependencies = {}, devDependencies = {} } = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, Record<string, string> | undefined>;
  return (spec.packages ?? []).every((p) => p.name in dependencies || p.name in devDependencies);
}

/** A suite's checks as `column` checks them: its replacements put in, or its package version pinned in every check of a suite that depends on it. */
export function columnChecks(suite: SuiteLocation, checks: readonly PlannedCheck[], column: ClaimsColumn): PlannedCheck[] {
  if (!column.pinsAlone) return replaceVariants(checks, column.replacements);
  return declares(suite.entry, column.replacements[0]!) ? pinVariants(checks, column.replacements[0]!) : [];
}

/** How the column ran: the packages it pinned (a package's column) or its runtime (a release's), and the version a bisect starts or ends at. */
function columnVariant(column: ClaimsColumn, runs: readonly RunRecord[]): { versionText?: string; version?: string } {
  const variants = runs.flatMap((r) => r.variants);
  if (!column.pinsAlone) {
    const variant = variants.find((v) => v.spec === column.replacements[0]!.runtimeSpec);
    return variant?.version ? { versionText: versionText(variant), version: variant.version } : {};
  }
  const variant = variants.find((v) => v.packages?.length);
  const lead = variant?.packages?.find((p) => p.name === column.replacements[0]!.packages![0]!.name);
  return lead ? { versionText: packagesText(variant!.packages!), version: lead.version } : {};
}

/** The view of the runs made; with --across, the matrix of the columns (`typed`: a suite as the command line named it, for a bisect command). */
export function columnsView(saved: readonly ColumnRun[], columns: readonly ClaimsColumn[], across: boolean, typed: (suite: string) => string, notes: string[] = []): ClaimsView {
  const view = claimsView(saved, notes);
  if (!across) return view;
  view.runs = saved.map((s) => runInfo(s.run, s.file, s.column));
  // Each column's release as it ran: its version (for the bisect range) and how the report names it.
  const release = new Map(
    columns.map((c) => {
      const runs = saved.filter((s) => s.column === c.label).map((s) => s.run);
      return [c.label, { column: c, runs, ...columnVariant(c, runs) }] as const;
    }),
  );
  const matrixColumns: MatrixColumn[] = [...release.values()].map(({ column, runs, versionText }) => ({
    label: column.label,
    ...(versionText ? { versionText } : {}),
    outcomes: runs.flatMap((r) => r.claims?.outcomes ?? []),
  }));
  view.matrix = claimsMatrix(matrixColumns, (from, to, outcome) => {
    const a = release.get(from.label)!;
    return bisectCommandFor({ ...outcome, suite: typed(outcome.suite) }, a.column.replacements[0]!, a.version, release.get(to.label)!.version);
  });
  return view;
}
