/**
 * `rtbench bench <suite>` and `rtbench bench <suite> --compare a b …`:
 * plan -> execute -> save -> view -> emit. The two differ only in the plan's
 * defaults and round plan and in the view (a table, or verdicts per arm).
 */
import { takeLock, executeRun, loadProfileManifest, MEASURERS, profiler, runSaver, type Profiler, type RunRequest, assertWritableOutput, claimResultsPath, defaultResultsPath, releaseUnsaved } from '@rtbench/run';
import { failedRunLine } from '../emit/failed-run.ts';
import { setMaxListeners } from 'node:events';
import { stderrColours as pc } from '../emit/colours.ts';
import { benchView, pairedComparisonView, defaultReporter, pageReporter, printable, type View, counted, withoutWorkLine } from '@rtbench/report';
import type { RunRecord } from '@rtbench/core/schema';
import { writeFileAtomically } from '@rtbench/host';
import { emit, outputReporter, regressionGate, type OutputFlags } from '../emit.ts';
import { DEFAULT_MEASURER, makePlan, parsePercent, type Plan, type PlanFlags } from '../plan.ts';
import { progressPrinter } from '../run/progress.ts';
import { UsageError } from '../errors.ts';
import { resolve as resolvePath } from 'node:path';
import { runEnvironment } from '../run/environment.ts';
import { resultsDir } from '../paths.ts';
import { isResolved } from '@rtbench/runtime-kit';
import { watchLaunchers } from '../run/launchers.ts';
import { parseProfileKinds } from '../args/profiles.ts';
import { info } from '../emit/info.ts';

export interface VerdictFlags {
  threshold?: string | number;
  failOnRegression?: string | number;
}

export interface BenchFlags extends PlanFlags, OutputFlags, VerdictFlags {
  /** The arms of a comparison, as typed (each may hold several, comma-separated): a verdict per case instead of a table. */
  compare?: readonly string[];
  save?: string;
  /** Also write the HTML report: to this file, or (true) beside the saved run. */
  html?: string | true;
  quiet?: boolean;
  /** After the measured rounds, profiles per case × variant in an extra process (@rtbench/run profiles.ts): true (CPU) or the kinds, "cpu,alloc". */
  profile?: string | true;
  /** A case without work (it returns undefined, or takes an empty call's time) makes the command exit 1, after the run is saved. */
  strict?: boolean;
}

/** Where --html writes: the file named, or the saved run's path with .html. */
function htmlPath(flag: BenchFlags['html'], runPath: string): string | undefined {
  if (flag === undefined) return undefined;
  return flag === true ? runPath.replace(/\.json$/, '') + '.html' : flag;
}

/** The verdicts' threshold and confidence: --threshold, else those the runs were measured for (runs of different measurers: the default's). */
export function ratioOptions(flags: VerdictFlags, runs: readonly Pick<RunRecord, 'options' | 'variants'>[] = []): { threshold: number; confidence: number } {
  const timing = DEFAULT_MEASURER.defaults;
  const own = MEASURERS.verdictOfRuns(runs, { threshold: timing.threshold([]), confidence: timing.confidence });
  return { threshold: flags.threshold !== undefined ? parsePercent(flags.threshold, '--threshold') : own.threshold, confidence: own.confidence };
}

export function failLimit(flags: VerdictFlags): number | undefined {
  return flags.failOnRegression !== undefined ? parsePercent(flags.failOnRegression, '--fail-on-regression') : undefined;
}

/** Exit codes after a signal, by the convention 128 + its number. */
export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';
export const SIGNAL_EXIT: Readonly<Record<StopSignal, number>> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };
const SIGNAL_SAID: Readonly<Record<StopSignal, string>> = { SIGHUP: 'hung up (SIGHUP)', SIGINT: 'interrupted', SIGTERM: 'terminated (SIGTERM)' };

/** Runs the plan with progress, Ctrl-C handling and a save after every job; then its profiles, when asked for. `settled`: when a case needs no more adaptive rounds (claims). */
export async function execute(plan: Plan, path: string, quiet: boolean, profiles?: Profiler, settled?: RunRequest['settled']): Promise<{ run: RunRecord; signal?: StopSignal; unsaved?: string }> {
  const abort = new AbortController();
  // Every live process listens for the stop; warm processes of their own per case (lockstep-per-case with
  // --sets-per-process) can be dozens at once, past Node's default of 10 listeners before it warns.
  setMaxListeners(0, abort.signal);
  let interrupts = 0;
  let received: StopSignal | undefined;
  const onSignal = (signal: StopSignal): void => {
    interrupts++;
    received ??= signal;
    if (interrupts === 1) {
      process.stderr.write(pc.yellow(`\n${SIGNAL_SAID[signal]}: stopping the current job and saving what was measured${signal === 'SIGINT' ? ' (Ctrl-C again to quit now)' : ''}\n`));
      abort.abort();
    } else process.exit(SIGNAL_EXIT[signal]);
  };
  const onSigint = (): void => onSignal('SIGINT');
  const onSigterm = (): void => onSignal('SIGTERM');
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  // A closed terminal: save and stop, as for SIGTERM.
  const onSighup = (): void => onSignal('SIGHUP');
  process.on('SIGHUP', onSighup);
  // SIGTERM to pnpm or npx alone does not reach this process: their ending is taken as the same request.
  const unwatch = watchLaunchers((ended) => {
    if (received) return;
    process.stderr.write(pc.yellow(`\n${ended.name} (pid ${ended.pid}), which started rtbench, has ended: stopping the current job and saving what was measured\n`));
    received = 'SIGTERM';
    interrupts++;
    abort.abort();
  });
  let profiling = false;
  const saver = runSaver(path, (line) => process.stderr.write(pc.red(`\n${line}\n`)));
  const { roundPlan } = plan.options;
  const progress = progressPrinter(process.stderr, roundPlan.adaptive?.budgetMs !== undefined ? { budgetMs: roundPlan.adaptive.budgetMs } : {});
  if (!quiet) {
    const names = plan.variants.map((v) => (isResolved(v) ? `${v.spec.id} (${v.target.version})` : `${v.spec.id} (unavailable)`));
    const rounds = roundPlan.adaptive ? `${roundPlan.rounds}–${roundPlan.adaptive.maxRounds} rounds (until ±${+(roundPlan.adaptive.target * 100).toFixed(2)}%)` : `${roundPlan.rounds} rounds`;
    const n = plan.suite.cases.length;
    process.stderr.write(`${pc.bold(plan.suite.name)}: ${counted(n, 'case')} × ${names.join(', ')} × ${rounds}\n`);
  }
  try {
    const run = await executeRun(
      {
        suite: plan.suite,
        variants: plan.variants,
        options: { ...plan.options, command: process.argv.slice(2) },
        environment: runEnvironment(),
        ...(settled ? { settled } : {}),
        // No profiles follow a run that could not be saved.
        ...(profiles ? { profiler: { ...profiles, start: (r: RunRecord) => saver.unsaved === undefined && (profiles.start?.(r) ?? true) } } : {}),
      },
      {
        signal: abort.signal,
        save: (r) => saver.save(r),
        ...(quiet ? {} : { onProgress: (e) => progress.update(e) }),
        onProfile: (e) => {
          if (!profiling) progress.finish();
          profiling = true;
          if (!quiet) process.stderr.write(pc.dim(`${e.pass} ${e.variantId} · ${e.caseId}\n`));
        },
      },
    );
    const unsaved = saver.unsaved;
    return { run, ...(received ? { signal: received } : {}), ...(unsaved ? { unsaved } : {}) };
  } finally {
    if (!profiling) progress.finish();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
    process.off('SIGHUP', onSighup);
    unwatch();
  }
}

export async function benchCommand(suiteName: string, flags: BenchFlags): Promise<number> {
  const compareArms = flags.compare;
  // Everything the user typed is checked before the first process starts.
  const reporter = outputReporter(flags);
  // Checked before the run: a bad --threshold is a usage error, not a lost run.
  ratioOptions(flags);
  const limit = failLimit(flags);
  if (flags.save !== undefined) assertWritableOutput(flags.save);
  const profileKinds = flags.profile === undefined ? undefined : parseProfileKinds(flags.profile);
  const plan = await makePlan(suiteName, flags, compareArms);
  const { measurer } = plan.options;
  if (profileKinds && !measurer.warmsInRuntime) {
    throw new UsageError(`${plan.suite.name} is ${measurer.suiteKind ?? `measured by ${measurer.name}`}: --profile profiles cases that run inside the runtime`);
  }

  const html = htmlPath(flags.html, flags.save ?? defaultResultsPath({ startedAt: new Date().toISOString(), suite: plan.suite.name, mode: plan.options.mode }, resultsDir));
  if (html !== undefined) {
    if (flags.save !== undefined && resolvePath(html) === resolvePath(flags.save)) throw new UsageError(`--html ${html} is the file --save saves the run to; name two different files`);
    assertWritableOutput(html, '--html');
  }
  // The default name is claimed at once: two runs started in the same second get two files.
  const path = flags.save ?? claimResultsPath(defaultResultsPath({ startedAt: new Date().toISOString(), suite: plan.suite.name, mode: plan.options.mode }, resultsDir));
  // --profile: the loop's last phase, after the measured rounds.
  const profiles = profileKinds ? profiler({ runPath: path, kinds: profileKinds, compare: compareArms !== undefined }) : undefined;
  // One run at a time saves to a named file: two would leave one run in it and mix their profiles' folder.
  // Released when this process exits (@rtbench/run pid-lock.ts).
  if (flags.save !== undefined) takeLock(`${resolvePath(path)}.lock`, (pid) => `another rtbench (pid ${pid}) is saving a run to ${path}; two runs in one file would keep one of them and mix their profiles: wait for it, or name another --save`);
  let executed: Awaited<ReturnType<typeof execute>>;
  try {
    executed = await execute(plan, path, flags.quiet === true, profiles);
  } finally {
    if (flags.save === undefined) releaseUnsaved(path);
  }
  const { run } = executed;
  // A shard of a matrix wider than the suite: nothing to measure, and an empty run that merge takes.
  const shard = run.options.shard;
  if (shard && run.cases.length === 0 && !executed.unsaved) {
    // Said even with --quiet: exit 0 with nothing measured must not pass unnoticed.
    process.stderr.write(`${pc.yellow('note:')} shard ${shard.index}/${shard.count} holds no case (fewer cases than shards after --filter): nothing was measured; saved ${path}, an empty shard for rtbench merge\n`);
    return 0;
  }

  const resolved = { ...ratioOptions(flags, [run]), file: path };
  const view: View = compareArms ? pairedComparisonView(run, resolved) : benchView(run, resolved);
  // Profiles were taken unless the run was stopped or could not be saved; an HTML report draws their flame graphs.
  const profiled = profiles !== undefined && run.status !== 'interrupted' && !executed.unsaved;
  const manifest = profiled && (reporter.drawsProfiles || html !== undefined) ? loadProfileManifest(path, run.id, (line) => process.stderr.write(pc.yellow(`${line}\n`))) : undefined;
  const withProfiles: View = manifest ? { ...view, profiles: manifest } : view;
  emit(withProfiles, reporter, flags);
  // Another format on stdout (json, csv, …): the table still goes to the terminal.
  if (reporter !== defaultReporter() && !flags.quiet) emit(view, defaultReporter(), flags, process.stderr);
  if (executed.unsaved) {
    process.stderr.write(`${pc.red('error:')} the run could not be saved to ${path} (${executed.unsaved}); the file holds the run as it was at its last save that succeeded (if any), the table above all of it\n`);
    return 1;
  }
  info(flags, `saved ${path}`);
  const writeHtml = (v: View): void => {
    if (html === undefined) return;
    writeFileAtomically(html, pageReporter().render(v, { color: false, columns: 100, plot: false }));
    info(flags, `html report ${html}`);
  };
  if (profiled) {
    // After the table: on stdout in a format that prints sections, else on stderr in the default one's words.
    const sections = reporter.sections ?? defaultReporter().sections!;
    (reporter.sections ? process.stdout : process.stderr).write(`\n${printable(sections.profiles(profiles.section()))}`);
    info(flags, `profiles in ${profiles.dir}`);
  }
  writeHtml(withProfiles);
  const gate = regressionGate(view, limit).exit;
  if (run.status === 'interrupted') return SIGNAL_EXIT[executed.signal ?? 'SIGINT'];
  // A run in which not one case × variant has a sample answers nothing: say so, and do not exit 0.
  if (!run.results.some((r) => r.rounds.length > 0)) {
    // With --quiet there is no "above": the first failure is named here.
    process.stderr.write(`${pc.red('nothing was measured:')} every case was unsupported or failed on every variant (${run.status === 'failed' ? failedRunLine(run) : 'see above'})\n`);
    return 1;
  }
  // Said even with --quiet, after the failures' line: exit 1 never comes without its reason.
  const workless = flags.strict ? withoutWorkLine(run) : undefined;
  if (run.status === 'failed') process.stderr.write(`${pc.red('error:')} ${failedRunLine(run)}\n`);
  if (workless) process.stderr.write(`${pc.red('error:')} ${workless}\n`);
  if (run.status === 'failed' || workless) return 1;
  return gate;
}
