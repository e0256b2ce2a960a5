/**
 * Comparisons with a verdict:
 *   pnpm bench <suite> --compare <baseline> <candidate> [...]   run the arms interleaved, paired by round
 *   rtbench compare <run.json> [<run.json>]                       one saved compare run (paired) or two saved runs (unpaired)
 * Both print a table (or --markdown / --format json) and, with
 * --fail-on-regression <percent>, exit 1 when a case is significantly slower
 * by more than that.
 */
import { existsSync } from 'node:fs';
import pc from 'picocolors';
import { lookupInRun, renderComparisonMarkdown, renderComparisonTable, renderMetricsChanges, type ComparisonReport, type ResultLookup } from '@rtbench/report';
import { parseMetricsView } from '../metrics-view.ts';
import { DEFAULT_THRESHOLD } from '@rtbench/stats';
import { analyzePairedRun, analyzeSavedRuns, regressions, type AnalyzeOptions } from '../compare/analyze.ts';
import { COMPARE_USAGE, parseCompareArms } from '../compare/arms.ts';
import { loadSavedRun } from '../compare/load.ts';
import { UsageError } from '../errors.ts';
import { parsePositiveInt } from '../options.ts';
import { benchCommand, type BenchFlags } from './bench.ts';
import { isResolved, resolveVariant } from '../variants.ts';

/**
 * Defaults for `bench --compare`. The process is the unit of replication, so a
 * comparison wants many short processes rather than a few long ones: 20
 * rounds give the signed-rank CI 20 pairs (it needs 6 to reach 95% at all,
 * and its width shrinks like 1/sqrt(pairs)); 100 ms of sampling per process
 * is enough for a stable per-process median of anything under ~10 ms/op.
 * A one-case comparison of two arms is 40 processes: ~15-25 s here.
 * The 1% threshold: below it, differences between fresh processes of the
 * same binary (code placement, heap layout, CPU frequency) are real but not
 * caused by the change under test; see scripts/calibrate.ts for the figures.
 */
export const COMPARE_DEFAULTS = { rounds: 20, time: '2s', warmup: '150ms', threshold: DEFAULT_THRESHOLD, confidence: 0.95 };

export interface CompareFlags {
  threshold?: string | number;
  failOnRegression?: string | number;
  markdown?: boolean;
  format?: string;
  json?: boolean;
  /** "gc": the change in GC counts and allocation under each comparison. */
  metrics?: string;
}

/** "1", "1%", "0.5%" -> 0.01, 0.01, 0.005. */
export function parsePercent(text: string | number, option: string): number {
  const m = /^(\d+(?:\.\d+)?)%?$/.exec(String(text).trim());
  const value = m ? Number(m[1]) / 100 : NaN;
  if (!(value >= 0 && value < 1)) throw new UsageError(`${option} ${String(text)}: expected a percentage from 0 to 99, e.g. 1 or 2.5%`);
  return value;
}

type Format = 'table' | 'markdown' | 'json';

function outputFormat(flags: CompareFlags): Format {
  const asked = [flags.markdown ? 'markdown' : undefined, flags.json ? 'json' : undefined, flags.format].filter((f): f is string => f !== undefined);
  const formats = new Set(asked.map((f) => (f === 'md' ? 'markdown' : f)));
  if (formats.size > 1) throw new UsageError(`choose one output format (got ${[...formats].join(' and ')})`);
  const format = [...formats][0] ?? 'table';
  if (format !== 'table' && format !== 'markdown' && format !== 'json') throw new UsageError(`--format ${format}: expected table, markdown or json`);
  return format;
}

function analyzeOptions(flags: CompareFlags): AnalyzeOptions {
  const threshold = flags.threshold !== undefined ? parsePercent(flags.threshold, '--threshold') : COMPARE_DEFAULTS.threshold;
  return { threshold, confidence: COMPARE_DEFAULTS.confidence };
}

function failLimit(flags: CompareFlags): number | undefined {
  return flags.failOnRegression !== undefined ? parsePercent(flags.failOnRegression, '--fail-on-regression') : undefined;
}

/** Prints the report; returns 1 when --fail-on-regression trips, else 0. */
function emit(report: ComparisonReport, format: Format, limit: number | undefined, metrics?: ResultLookup): number {
  if (format === 'json') process.stdout.write(`${JSON.stringify(report, null, 1)}\n`);
  else if (format === 'markdown') process.stdout.write(renderComparisonMarkdown(report));
  else process.stdout.write(`${renderComparisonTable(report)}\n`);
  if (metrics && format !== 'json') process.stdout.write(renderMetricsChanges(report, metrics, format));
  if (limit === undefined) return 0;
  const found = regressions(report, limit);
  const pct = `${+(limit * 100).toFixed(2)}%`;
  if (!found.length) {
    process.stderr.write(pc.green(`✓ no case is significantly slower by more than ${pct}\n`));
    return 0;
  }
  for (const { section, row } of found) {
    const c = row.comparison!;
    process.stderr.write(
      pc.red(`✗ regression: "${row.caseId}" ${section.candidate.label} is slower than ${section.baseline.label} by ${((c.ratio - 1) * 100).toFixed(1)}% (ratio ${c.ratio.toFixed(3)}, 95% CI ${c.ci[0].toFixed(3)}–${c.ci[1].toFixed(3)}, q ${c.qValue.toPrecision(2)}), beyond --fail-on-regression ${pct}\n`),
    );
  }
  return 1;
}

/** `pnpm bench <suite> --compare a b [...]`. */
export async function benchCompareCommand(suite: string, armArgs: string[], flags: BenchFlags & CompareFlags): Promise<number> {
  if (flags.runtime !== undefined) throw new UsageError(`use either --runtime (a table) or --compare (a verdict), not both: ${COMPARE_USAGE}`);
  const format = outputFormat(flags);
  const options = analyzeOptions(flags);
  const limit = failLimit(flags);
  const metricsView = parseMetricsView(flags.metrics);
  const arms = parseCompareArms(armArgs);
  const rounds = flags.rounds ?? COMPARE_DEFAULTS.rounds;
  if (parsePositiveInt(rounds, '--rounds') < 6) {
    process.stderr.write(pc.yellow(`! --rounds ${rounds}: fewer than 6 pairs can never reach a 95% signed-rank CI; every verdict will be inconclusive\n`));
  }
  // Refuse before running anything if an arm cannot run: a comparison without it is not the one asked for.
  const resolved = await Promise.all(arms.map(resolveVariant));
  const missing = resolved.filter((v) => !isResolved(v));
  if (missing.length) throw new UsageError(missing.map((v) => `${v.spec.id}: ${'reason' in v ? v.reason : ''}`).join('\n'));

  const { run, exitCode } = await benchCommand(
    suite,
    { ...flags, json: false, rounds, time: flags.time ?? COMPARE_DEFAULTS.time, warmup: flags.warmup ?? COMPARE_DEFAULTS.warmup },
    arms,
    'compare',
  );
  const report = analyzePairedRun(run, options);
  const gate = emit(report, format, limit, metricsView ? lookupInRun(run) : undefined);
  return exitCode !== 0 ? exitCode : gate;
}

/** `rtbench compare <run.json> [<run.json>]`. */
export function compareFilesCommand(files: string[], flags: CompareFlags): number {
  const format = outputFormat(flags);
  const options = analyzeOptions(flags);
  const limit = failLimit(flags);
  const metricsView = parseMetricsView(flags.metrics);
  if (files.length === 0 || files.length > 2) {
    throw new UsageError('rtbench compare takes one saved compare run (paired verdicts) or two saved runs (unpaired): rtbench compare <run.json> [<run.json>]');
  }
  for (const f of files) {
    if (!existsSync(f) && !f.endsWith('.json') && /^(node|deno|bun|workerd)\b/.test(f)) {
      throw new UsageError(`"${f}" looks like a variant, not a results file. To run a comparison: ${COMPARE_USAGE}`);
    }
  }
  const saved = files.map(loadSavedRun);
  let report: ComparisonReport;
  try {
    if (saved.length === 1) {
      const only = saved[0]!;
      if (only.run.variants.length < 2) {
        throw new Error(`${only.file} has one variant ("${only.run.variants[0]?.id}"); give two runs to compare them, or one run made with --compare`);
      }
      report = analyzePairedRun(only.run, options, only.file);
      if (only.note) report.notes.unshift(only.note);
    } else report = analyzeSavedRuns(saved[0]!, saved[1]!, options);
  } catch (error) {
    if (error instanceof RangeError) throw error; // a bug, not bad input
    throw new UsageError((error as Error).message);
  }
  let lookup: ResultLookup | undefined;
  if (metricsView) {
    const [first, second] = saved;
    lookup = second ? (arm, caseId, side) => lookupInRun((side === 'baseline' ? first : second)!.run)(arm, caseId, side) : lookupInRun(first!.run);
  }
  return emit(report, format, limit, lookup);
}
