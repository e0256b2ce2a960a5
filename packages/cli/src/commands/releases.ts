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
import { parseDuration, parsePositiveInt } from '../args/options.ts';
import { claimsSuiteNames, loadClaimsRuns, releaseOfVariant } from '@rtbench/claims';
import { campaignListener } from '../emit/campaign.ts';
import { MATRIX_WORDS } from '../emit/campaign-lines.ts';
import { UsageError } from '../errors.ts';
import { listingFormat, type ListingFlags } from '../listing.ts';
import { emitMatrix } from '../emit/release-matrix.ts';
import { resultsDir } from '../paths.ts';
import { DEFAULT_MEASURER, parsePercent } from '../plan.ts';
import { planPort } from '../run/plan-port.ts';
import { parseShard } from '../shards/shard.ts';

export interface ReleasesFlags extends ListingFlags {
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
 * What a range opens with: a runtime's or a package's name, scoped or not, and `@` (`node@25.8.0..node@26.1.0`,
 * `@scope/pkg@1.0.0..@scope/pkg@2.0.0`, `react@latest~3`), flags and environment after it. A suite's name or a
 * file's path has no `@` straight after a name; what follows the `@` is the range parser's to accept or refuse.
 */
const RANGE_HEAD = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*@\S/;

/** The arguments of `releases`: its ranges and its suites, each in the order typed. */
export function rangesAndSuites(args: readonly string[]): { ranges: string[]; suites: string[] } {
  return { ranges: args.filter((a) => RANGE_HEAD.test(a)), suites: args.filter((a) => !RANGE_HEAD.test(a)) };
}

export async function releasesCommand(args: readonly string[], flags: ReleasesFlags): Promise<number> {
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
