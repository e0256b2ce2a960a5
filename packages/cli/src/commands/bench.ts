/**
 * `rtbench bench <suite>` and `rtbench bench <suite> --compare a b …`:
 * plan -> execute -> save -> view -> emit. The two differ only in the plan's
 * defaults and schedule and in the view (a table, or verdicts per arm).
 */
import { writeFileSync } from 'node:fs';
import pc from 'picocolors';
import { benchView, pairedComparisonView, reporterFor, type View } from '@rtbench/report';
import type { RunRecord } from '@rtbench/core/schema';
import { emit, outputReporter, regressionGate, type OutputFlags } from '../emit.ts';
import { COMPARE_DEFAULTS, INSTRUCTION_DEFAULTS, makePlan, parsePercent, type Plan, type PlanFlags } from '../plan.ts';
import { progressPrinter } from '../progress.ts';
import { assertWritableOutput, defaultResultsPath, writeRunAtomically } from '../results-file.ts';
import { executeRun } from '../run.ts';
import { isResolved } from '../variants.ts';

export interface VerdictFlags {
  threshold?: string | number;
  failOnRegression?: string | number;
}

export interface BenchFlags extends PlanFlags, OutputFlags, VerdictFlags {
  out?: string;
  /** Also write the HTML report: to this file, or (true) beside the saved run. */
  html?: string | boolean | number;
  quiet?: boolean;
}

/** Where --html writes: the file named, or the saved run's path with .html. */
function htmlPath(flag: BenchFlags['html'], runPath: string): string | undefined {
  if (flag === undefined || flag === false) return undefined;
  return flag === true ? runPath.replace(/\.json$/, '') + '.html' : String(flag);
}

/** The verdicts' threshold and confidence; instruction counts get their own default threshold (plan.ts INSTRUCTION_DEFAULTS). */
export function ratioOptions(flags: VerdictFlags, runs: readonly Pick<RunRecord, 'options'>[] = []): { threshold: number; confidence: number } {
  const counting = runs.length > 0 && runs.every((r) => r.options.measurer === 'instructions');
  const threshold = flags.threshold !== undefined ? parsePercent(flags.threshold, '--threshold') : counting ? INSTRUCTION_DEFAULTS.threshold : COMPARE_DEFAULTS.threshold;
  return { threshold, confidence: COMPARE_DEFAULTS.confidence };
}

export function failLimit(flags: VerdictFlags): number | undefined {
  return flags.failOnRegression !== undefined ? parsePercent(flags.failOnRegression, '--fail-on-regression') : undefined;
}

/** Runs the plan with progress, Ctrl-C handling and a save after every job. */
async function execute(plan: Plan, path: string, quiet: boolean): Promise<RunRecord> {
  const abort = new AbortController();
  let interrupts = 0;
  const onSigint = (): void => {
    interrupts++;
    if (interrupts === 1) {
      process.stderr.write(pc.yellow('\ninterrupted: stopping the current job and saving what was measured (Ctrl-C again to quit now)\n'));
      abort.abort();
    } else process.exit(130);
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  const { schedule } = plan.options;
  const progress = progressPrinter(process.stderr, schedule.adaptive?.budgetMs !== undefined ? { budgetMs: schedule.adaptive.budgetMs } : {});
  if (!quiet) {
    const names = plan.variants.map((v) => (isResolved(v) ? `${v.spec.id} (${v.target.version})` : `${v.spec.id} (unavailable)`));
    const rounds = schedule.adaptive ? `${schedule.rounds}–${schedule.adaptive.maxRounds} rounds (until ±${+(schedule.adaptive.target * 100).toFixed(2)}%)` : `${schedule.rounds} rounds`;
    const n = plan.suite.cases.length;
    process.stderr.write(`${pc.bold(plan.suite.name)}: ${n} case${n === 1 ? '' : 's'} × ${names.join(', ')} × ${rounds}\n`);
  }
  try {
    return await executeRun(plan.suite, plan.variants, { ...plan.options, command: process.argv.slice(2) }, {
      signal: abort.signal,
      save: (r) => writeRunAtomically(path, r),
      ...(quiet ? {} : { onProgress: (e) => progress.update(e) }),
    });
  } finally {
    progress.finish();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
}

export async function benchCommand(suiteName: string, flags: BenchFlags, compareArms?: string[]): Promise<number> {
  // Everything the user typed is checked before the first process starts.
  const reporter = outputReporter(flags);
  // Checked before the run: a bad --threshold is a usage error, not a lost run.
  ratioOptions(flags);
  const limit = failLimit(flags);
  if (flags.out !== undefined) assertWritableOutput(flags.out);
  const plan = await makePlan(suiteName, flags, compareArms);

  const path = flags.out ?? defaultResultsPath({ startedAt: new Date().toISOString(), suite: plan.suite.name, mode: plan.options.mode });
  const html = htmlPath(flags.html, path);
  if (html !== undefined) assertWritableOutput(html, '--html');
  const run = await execute(plan, path, flags.quiet === true);

  const resolved = { ...ratioOptions(flags, [run]), file: path };
  const view: View = compareArms ? pairedComparisonView(run, resolved) : benchView(run, resolved);
  emit(view, reporter, flags);
  // Another format on stdout (json, csv, …): the table still goes to the terminal.
  if (reporter.format !== 'terminal' && !flags.quiet) emit(view, reporterFor('terminal')!, flags, process.stderr);
  process.stderr.write(pc.dim(`saved ${path}\n`));
  if (html !== undefined) {
    writeFileSync(html, reporterFor('html')!.render(view, { color: false, columns: 100, plot: false }));
    process.stderr.write(pc.dim(`html report ${html}\n`));
  }
  const gate = regressionGate(view, limit);
  const exitCode = run.status === 'interrupted' ? 130 : run.status === 'failed' ? 1 : 0;
  return exitCode !== 0 ? exitCode : gate;
}
