/**
 * `rtbench releases node@25.8.0..node@26.1.0 [bun@latest~3 …] <suite>…`:
 * every release of each range on every case of the suites. parse -> the
 * matrix's planner (@rtbench/releases releasesCampaign: its folder, each
 * range's releases listed on each suite, the claims runs --claims names
 * matched to the tracks' releases) held by the campaign loop (@rtbench/run
 * runCampaign: what is still to measure said up front, the windows measured
 * within the budget, each planned here as `bench --compare` of its
 * releases) -> the verdicts of every step, the page and the report.
 */
import { MATRIX_DEFAULTS, releasesCampaign } from '@rtbench/releases';
import { runCampaign } from '@rtbench/campaign';
import { locateSuite } from '@rtbench/suite-loader';
import { parseDuration, parsePercent, parsePositiveInt } from '../args/options.ts';
import { claimsSuiteNames, loadClaimsRuns, releaseOfVariant } from '@rtbench/claims';
import { campaignListener } from '../emit/campaign.ts';
import { MATRIX_WORDS } from '../emit/campaign-lines.ts';
import { UsageError } from '../errors.ts';
import { emitMatrix, listingFormat, type ListingFlags } from '../listing.ts';
import { resultsDir } from '../paths.ts';
import { DEFAULT_MEASURER } from '../plan.ts';
import { planPort } from '../run/plan-port.ts';
import { parseShard } from '../shards/shard.ts';
import type { OptionSpec } from '../args/args.ts';
import { command } from '../options/command.ts';
import { FIXED_WARMUP_OPTION, GLOBAL_OPTIONS, pct, PRINTING_OPTIONS, TIMING_THRESHOLD } from '../options/shared.ts';
import { COMPARE_DEFAULTS } from '../options/timing.ts';

interface ReleasesFlags extends ListingFlags {
  filter?: readonly string[];
  every?: string | number;
  sets?: string | number;
  time?: string;
  warmup?: string;
  fixedWarmup?: boolean;
  threshold?: string | number;
  window?: string | number;
  budget?: string;
  shard?: string | number;
  dir?: string;
  plan?: boolean;
  timeout?: string;
  claims?: readonly string[];
}

/**
 * What a range opens with: a runtime's or a package's name, scoped or not, and
 * `@` (`node@25.8.0..node@26.1.0`, `@scope/pkg@1.0.0..@scope/pkg@2.0.0`,
 * `react@latest~3`), flags and environment after it. A suite's name or a file's
 * path has no `@` straight after a name; what follows the `@` is the range
 * parser's to accept or refuse.
 */
const RANGE_HEAD = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*@\S/;

/** The arguments of `releases`: its ranges and its suites, each in the order typed. */
export function rangesAndSuites(args: readonly string[]): { ranges: string[]; suites: string[] } {
  return { ranges: args.filter((a) => RANGE_HEAD.test(a)), suites: args.filter((a) => !RANGE_HEAD.test(a)) };
}

async function releasesCommand(args: readonly string[], flags: ReleasesFlags): Promise<number> {
  // Everything typed is checked before the registry is asked or anything installs.
  listingFormat(flags);
  const { ranges, suites } = rangesAndSuites(args);
  if (!ranges.length) throw new UsageError('releases: name a range of releases (node@25.8.0..node@26.1.0, or node@latest~3), then the suites');
  if (!suites.length) throw new UsageError('releases: name one or more suites (or benchmark files) after the ranges');
  const budgetMs = flags.budget !== undefined ? parseDuration(flags.budget, '--budget') : MATRIX_DEFAULTS.budgetMs;
  const planner = await releasesCampaign(
    {
      ranges,
      suites,
      ...(flags.filter ? { filter: flags.filter } : {}),
      ...(flags.every !== undefined ? { every: parsePositiveInt(flags.every, '--every') } : {}),
      ...(flags.sets !== undefined ? { sets: parsePositiveInt(flags.sets, '--sets') } : {}),
      ...(flags.window !== undefined ? { windowSize: parsePositiveInt(flags.window, '--window') } : {}),
      ...(flags.threshold !== undefined ? { threshold: parsePercent(flags.threshold, '--threshold') } : {}),
      ...(flags.time !== undefined ? { timePerSetMs: parseDuration(flags.time, '--time') } : {}),
      warmupMs: parseDuration(flags.warmup ?? DEFAULT_MEASURER.defaults.compare.warmup, '--warmup'),
      ...(flags.fixedWarmup === true ? { fixedWarmup: true } : {}),
      timing: DEFAULT_MEASURER,
      ...(flags.timeout ? { timeout: flags.timeout } : {}),
      ...(flags.shard !== undefined ? { shard: parseShard(flags.shard) } : {}),
      ...(flags.dir !== undefined ? { dir: flags.dir } : {}),
      resultsDir,
      planOnly: flags.plan === true,
      claims: loadClaimsRuns(flags.claims ?? []),
    },
    { plan: planPort(), suiteName: (suite) => locateSuite(suite).name, releaseOf: releaseOfVariant, claimsSuiteNames },
  );
  return runCampaign(planner, { budgetMs }, campaignListener(flags, MATRIX_WORDS, { answer: (view) => emitMatrix(view, flags) }));
}

const RELEASES_OPTIONS = [
  {
    name: 'filter',
    kind: 'list',
    value: 'pattern',
    help: 'Only cases whose id contains this text (or matches /regex/); commas for several; !text leaves out what it matches',
  },
  {
    name: 'every',
    kind: 'value',
    value: 'n',
    help: 'Measure every n-th release of each range (both ends kept); a change point then names the bisect that finds its step',
  },
  {
    name: 'sets',
    kind: 'value',
    value: 'n',
    help: `Sets of processes per window of releases (default ${MATRIX_DEFAULTS.sets}, ${MATRIX_DEFAULTS.setsPerProcess} per warm process)`,
  },
  {
    name: 'window',
    kind: 'value',
    value: 'n',
    help: `Most releases measured side by side in one set (default ${MATRIX_DEFAULTS.window}); longer ranges are cut into windows that share a release`,
  },
  { name: 'time', kind: 'value', value: 'duration', help: `Sampling time per process, case and set (default ${MATRIX_DEFAULTS.timePerSetMs}ms)` },
  { name: 'warmup', kind: 'value', value: 'duration', help: `Warmup in each process, at least (default ${COMPARE_DEFAULTS.warmup})` },
  FIXED_WARMUP_OPTION,
  { name: 'threshold', kind: 'value', value: 'percent', help: `A change smaller than this is not one (default ${pct(TIMING_THRESHOLD)})` },
  {
    name: 'budget',
    kind: 'value',
    value: 'duration',
    help: `Start no window that would end past this much time (default ${MATRIX_DEFAULTS.budgetMs / 60_000}m); the same command continues later`,
  },
  {
    name: 'shard',
    kind: 'value',
    value: 'i/n',
    help: 'Measure only this share of the tracks (a runtime × suite is never split); rtbench merge <folders> --save <folder> joins the shards',
  },
  {
    name: 'dir',
    kind: 'value',
    value: 'folder',
    help: 'Where the runs, the state, the page and the report are kept (default results/releases/<ranges-suites>); the same command there continues',
  },
  { name: 'plan', kind: 'flag', help: 'Print the plan (releases, cases, processes, estimated time) and stop' },
  {
    name: 'claims',
    kind: 'list',
    value: 'path',
    help: "Saved claims runs (a folder rtbench claims --across saved, or a run file; repeat for several): each " +
      "claim's word on the releases of a track they checked, kept in the folder and drawn as claims × releases",
  },
  { name: 'timeout', kind: 'value', value: 'duration', help: 'Kill a runtime process after this long' },
  {
    name: 'format',
    kind: 'value',
    value: 'format',
    help: 'terminal (default: the last step of each runtime, the change points and their commands) or json (the matrix view)',
    section: 'Output',
  },
  ...PRINTING_OPTIONS,
  ...GLOBAL_OPTIONS,
] as const satisfies readonly OptionSpec[];

export const releases = command({
  name: 'releases',
  positionals: [{ name: 'targets', required: true, variadic: true, missing: 'name ranges of releases (node@25.8.0..node@26.1.0, bun@latest~3), then suites' }],
  summary: 'Every release of one or more runtimes on every case of the suites: each adjacent step\'s paired verdict, change points located, kept up to date',
  details: [
    "Releases come from the npm registry's list. A runtime's adjacent releases are measured side by side as variants of one comparison (windows " +
      "of up to --window releases sharing one release), so each step is paired inside the same sets of processes; every step of every case " +
      "is read together (Benjamini-Hochberg). A change point names both releases, their engines, and the bench --compare that reproduces it.",
    `The folder keeps every run: stopped (Ctrl-C, --budget) the same command continues; run again after a release is ` +
      `published, it measures only the new step, in fresh sets. It writes releases.html (the page) and releases.md ` +
      `(the report) there. Exit 0: drawn; ${75}: budget reached; 130, 143 or 129: stopped by Ctrl-C, SIGTERM or SIGHUP.`,
  ],
  options: RELEASES_OPTIONS,
  run: (targets, flags) => releasesCommand(targets, flags),
});
