/**
 * The columns of a claims run (one, or with `--across` one per release of a
 * runtime) and the view of what they found: with `--across`, claims ×
 * releases, and the bisect command for a claim that flipped between two
 * neighbouring releases.
 */
import type { RunRecord } from '@rtbench/core/schema';
import { claimsView, runInfo, versionText, type ClaimsView } from '@rtbench/report';
import { parseRuntimeList } from '@rtbench/run';
import type { VariantSpec } from '@rtbench/runtime-kit';
import { UsageError } from '@rtbench/suite-loader';
import { bisectCommandFor } from './bisect-line.ts';
import { claimsMatrix, type MatrixColumn } from '@rtbench/verdicts';

/** The claims as checked on one set of replacements: `--runtime`'s (label ''), or one release of `--across`. */
export interface ClaimsColumn {
  label: string;
  replacements: VariantSpec[];
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
  if (specs.length < 2) throw new UsageError('--across needs two or more releases of one runtime, e.g. --across node@20,node@22,node@24,node@26');
  return specs.map((s) => ({ label: s.id, replacements: [s] }));
}

/** The view of the runs made; with --across, the matrix of the columns (`typed`: a suite as the command line named it, for a bisect command). */
export function columnsView(saved: readonly ColumnRun[], columns: readonly ClaimsColumn[], across: boolean, typed: (suite: string) => string): ClaimsView {
  const view = claimsView(saved);
  if (!across) return view;
  view.runs = saved.map((s) => runInfo(s.run, s.file, s.column));
  // Each column's release as it ran: its version (for the bisect range) and how the report names it.
  const release = new Map(
    columns.map((c) => {
      const runs = saved.filter((s) => s.column === c.label).map((s) => s.run);
      return [c.label, { column: c, runs, variant: runs.flatMap((r) => r.variants).find((v) => v.spec === c.replacements[0]!.runtimeSpec) }] as const;
    }),
  );
  const matrixColumns: MatrixColumn[] = [...release.values()].map(({ column, runs, variant }) => ({
    label: column.label,
    ...(variant?.version ? { versionText: versionText(variant) } : {}),
    outcomes: runs.flatMap((r) => r.claims?.outcomes ?? []),
  }));
  view.matrix = claimsMatrix(matrixColumns, (from, to, outcome) => {
    const a = release.get(from.label)!;
    return bisectCommandFor({ ...outcome, suite: typed(outcome.suite) }, a.column.replacements[0]!, a.variant?.version, release.get(to.label)!.variant?.version);
  });
  return view;
}
