/**
 * A suite measured, as `rtbench bench <suite>` and `rtbench bench <suite>
 * --compare a b …` measure it, and `rtbench run <file>` a brought file:
 * plan -> execute -> save -> view -> emit. A table and a comparison differ
 * only in the plan's defaults and round plan and in the view (a table, or
 * verdicts per arm).
 */
import { takeLock, loadProfileManifest, profiler, SIGNAL_EXIT, type ProfileKind } from '@rtbench/run';
import { assertWritableOutput, claimResultsPath, defaultResultsPath, releaseUnsaved } from '@rtbench/saved-runs';
import { failedRunLine } from '../emit/failed-run.ts';
import { stderrColours as pc } from '../emit/colours.ts';
import { benchView, pairedComparisonView, defaultReporter, pageReporter, printable, type Reporter, type View, withoutWorkLine } from '@rtbench/report';
import { writeFileAtomically } from '@rtbench/host/files';
import { emit, emitAfter, outputReporter, regressionGate } from '../emit.ts';
import { kindOf } from '@rtbench/measurers';
import { makePlan, type Plan } from '../plan.ts';
import { execute } from './execute.ts';
import { failLimit, ratioOptions, thresholdFlag } from '../verdict-flags.ts';
import { shownOptions } from '../shown-flags.ts';
import type { BenchFlags } from './bench-flags.ts';
import { UsageError } from '../errors.ts';
import { resolve as resolvePath } from 'node:path';
import { resultsDir } from '../paths.ts';
import { parseProfileKinds } from '../args/profiles.ts';
import { info } from '../emit/info.ts';
import { selfCheckBefore } from './self-check.ts';

export type { BenchFlags } from './bench-flags.ts';

/** Where --html writes: the file named, or the saved run's path with .html. */
function htmlPath(flag: BenchFlags['html'], runPath: string): string | undefined {
  if (flag === undefined) return undefined;
  return flag === true ? runPath.replace(/\.json(\.gz)?$/, '') + '.html' : flag;
}

export async function measureSuite(suiteName: string, flags: BenchFlags): Promise<number> {
  return (await prepareSuite(suiteName, flags))();
}

/**
 * A suite's plan made and everything the user typed checked, nothing started:
 * the run itself, to call. Several suites are all prepared before the first
 * runs (several-suites.ts), so a mistake in the last costs nothing measured.
 */
export async function prepareSuite(suiteName: string, flags: BenchFlags): Promise<() => Promise<number>> {
  const compareArms = flags.compare;
  // Everything the user typed is checked before the first process starts.
  const reporter = outputReporter(flags);
  // Checked before the run: a bad --threshold is a usage error, not a lost run.
  thresholdFlag(flags);
  shownOptions(flags);
  const limit = failLimit(flags);
  if (flags.save !== undefined) assertWritableOutput(flags.save);
  const profileKinds = flags.profile === undefined ? undefined : parseProfileKinds(flags.profile);
  if (flags.selfCheck && compareArms) throw new UsageError('--self-check checks a table\'s cells against their cases alone; a ' +
    'comparison pairs arms that share their company: run it without --compare');
  const plan = await makePlan(suiteName, flags, compareArms);
  if (plan.fewRounds) process.stderr.write(pc.yellow(`! ${plan.fewRounds}\n`));
  const { measurer } = plan.options;
  if (flags.selfCheck && !measurer.timesCalls) throw new UsageError(`--self-check holds a case's time per call against the same case alone and in ` +
    `a long loop; ${plan.suite.name} is ${kindOf(measurer)}, which it cannot check`);
  if (profileKinds && !measurer.warmsInRuntime) {
    // A server rtbench starts (request cases) is profiled by CPU, under the runtime's profiler; allocation and native profiles sample a timed loop.
    const loopOnly = measurer.profilesServers ? profileKinds.filter((k) => k !== 'cpu') : profileKinds;
    if (loopOnly.length > 0) {
      throw new UsageError(
        measurer.profilesServers
          ? `${plan.suite.name} is ${kindOf(measurer)}: its servers take CPU profiles (--profile cpu); --profile ${loopOnly.join(',')} samples cases that ` +
            `run inside the runtime's measured loop: to take one of that code, call it from a bench case (a suite's function: docs/writing-a-suite.md)`
          : `${plan.suite.name} is ${kindOf(measurer)}: --profile profiles cases that run inside the runtime's measured ` +
            `loop, and these are timed by the host from outside it (a server or a process rtbench starts); to profile ` +
            `that code, call it from a bench case (a suite's function: docs/writing-a-suite.md), which --profile samples`,
      );
    }
  }

  const asked = htmlPath(flags.html, flags.save ?? defaultResultsPath({
    startedAt: new Date().toISOString(),
    suite: plan.suite.name,
    mode: plan.options.mode,
  }, resultsDir));
  if (asked !== undefined) {
    if (flags.save !== undefined && resolvePath(asked) === resolvePath(flags.save)) throw new UsageError(`--html ${asked} is the file --save saves ` +
      `the run to; name two different files`);
    assertWritableOutput(asked, '--html');
  }
  return () => runPrepared(suiteName, plan, flags, reporter, limit, profileKinds);
}

async function runPrepared(
  /** The suite or file as the user named it: the self-check plans its runs from it (a brought file's name is not a suite's). */
  suiteName: string,
  plan: Plan,
  flags: BenchFlags,
  reporter: Reporter,
  limit: number | undefined,
  profileKinds: ProfileKind[] | undefined,
): Promise<number> {
  const compareArms = flags.compare;
  // The default name is claimed at once: two runs started in the same second get two files.
  const path = flags.save ?? claimResultsPath(defaultResultsPath({
    startedAt: new Date().toISOString(),
    suite: plan.suite.name,
    mode: plan.options.mode,
  }, resultsDir));
  // Beside the run as it is saved: its name is taken when it starts, which for a later suite of several is after this one's plan.
  const html = htmlPath(flags.html, path);
  // --profile: the loop's last phase, after the measured rounds.
  const profiles = profileKinds ? profiler({
    runPath: path,
    kinds: profileKinds,
    compare: compareArms !== undefined,
    smoke: flags.fixedWarmup === true,
  }) : undefined;
  // One run at a time saves to a named file: two would leave one run in it and
  // mix their profiles' folder. Released when this process exits (@rtbench/run
  // pid-lock.ts).
  if (flags.save !== undefined) takeLock(`${resolvePath(path)}.lock`, (pid) => `another rtbench (pid ${pid}) is saving a run to ${path}; two runs in one ` +
    `file would keep one of them and mix their profiles: wait for it, or name another --save`);
  let executed: Awaited<ReturnType<typeof execute>>;
  let check: Awaited<ReturnType<typeof selfCheckBefore>> | undefined;
  try {
    // The self-check's first halves alone come before the table, its second after (self-check.ts).
    if (flags.selfCheck) check = await selfCheckBefore(suiteName, flags, plan, path);
    executed = await execute(plan, path, flags.quiet === true, profiles);
  } finally {
    if (flags.save === undefined) releaseUnsaved(path);
  }
  const { run } = executed;
  // A shard of a matrix wider than the suite: nothing to measure, and an empty run that merge takes.
  const shard = run.options.shard;
  if (shard && run.cases.length === 0 && !executed.unsaved) {
    // Said even with --quiet: exit 0 with nothing measured must not pass unnoticed.
    process.stderr.write(`${pc.yellow('note:')} shard ${shard.index}/${shard.count} holds no case (fewer cases than ` +
      `shards after --filter): nothing was measured; saved ${path}, an empty shard for rtbench merge\n`);
    return 0;
  }

  const resolved = { ...ratioOptions(flags, [run]), ...shownOptions(flags, run), file: path };
  const view: View = compareArms ? pairedComparisonView(run, resolved) : benchView(run, resolved);
  // Profiles were taken unless the run was stopped or could not be saved; an HTML report draws their flame graphs.
  const profiled = profiles !== undefined && run.status !== 'interrupted' && !executed.unsaved;
  const drawn = profiled && (reporter.drawsProfiles || html !== undefined);
  const manifest = drawn ? loadProfileManifest(path, run.id, (line) => process.stderr.write(pc.yellow(`${line}\n`))) : undefined;
  const withProfiles: View = manifest ? { ...view, profiles: manifest } : view;
  emit(withProfiles, reporter, flags);
  // Another format on stdout (json, csv, …): the table still goes to the terminal.
  if (reporter !== defaultReporter() && !flags.quiet) emit(view, defaultReporter(), flags, process.stderr);
  if (executed.unsaved) {
    process.stderr.write(`${pc.red('error:')} the run could not be saved to ${path} (${executed.unsaved}); the file ` +
      `holds the run as it was at its last save that succeeded (if any), the table above all of it\n`);
    return 1;
  }
  info(flags, `saved ${path}`);
  info(flags, executed.took);
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
  if (check && run.results.some((r) => r.stats)) {
    const section = await check.after(run);
    emitAfter((sections, options) => sections.company(section, options), reporter);
  }
  // A run in which not one case × variant has a sample answers nothing: say so, and do not exit 0.
  if (!run.results.some((r) => r.rounds.length > 0)) {
    // With --quiet there is no "above": the first failure is named here.
    process.stderr.write(`${pc.red('nothing was measured:')} every case was unsupported or failed on ` +
      `every variant (${run.status === 'failed' ? failedRunLine(run) : 'see above'})\n`);
    return 1;
  }
  // Said even with --quiet, after the failures' line: exit 1 never comes without its reason.
  const workless = flags.strict ? withoutWorkLine(run) : undefined;
  if (run.status === 'failed') process.stderr.write(`${pc.red('error:')} ${failedRunLine(run)}\n`);
  if (workless) process.stderr.write(`${pc.red('error:')} ${workless}\n`);
  if (run.status === 'failed' || workless) return 1;
  return gate;
}
