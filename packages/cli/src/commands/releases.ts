/**
 * `rtbench releases node@25.8.0..node@26.1.0 [bun@latest~3 …] <suite>…`:
 * every release of each range on every case of the suites. parse -> the
 * tracks (@rtbench/releases listTracks: each range's releases listed, on
 * each suite) -> a sitting of the matrix (MatrixSitting.sit: its folder,
 * what is still to measure said up front, the windows measured within the
 * budget, each planned here as `bench --compare` of its releases; the
 * claims runs --claims names matched to the tracks' releases) -> the
 * verdicts of every step, the page and the report.
 */
import { join } from 'node:path';
import { listTracks, matchClaims, MATRIX_DEFAULTS, MatrixSitting, releaseVariantText, type MatrixIdentity, type WindowPlanner } from '@rtbench/releases';
import { locateSuite } from '@rtbench/suite-loader';
import { parseDuration, parsePositiveInt } from '../args/options.ts';
import { claimsSuiteNames, loadClaimsRuns, releaseOfVariant } from '@rtbench/claims';
import { campaignSay } from '../emit/info.ts';
import { UsageError } from '../errors.ts';
import { listingFormat, type ListingFlags } from '../listing.ts';
import { emitMatrix } from '../emit/release-matrix.ts';
import { resultsDir } from '../paths.ts';
import { DEFAULT_MEASURER, parsePercent } from '../plan.ts';
import { planPort } from '../run/plan-port.ts';
import { parseShard } from '../shards/shard.ts';
import { assertWritableFolder, campaignFolder } from '@rtbench/run';

export interface ReleasesFlags extends ListingFlags {
  filter?: readonly string[];
  every?: string | number;
  sets?: string | number;
  time?: string;
  warmup?: string;
  threshold?: string | number;
  window?: string | number;
  budget?: string;
  shard?: string | number;
  dir?: string;
  plan?: boolean;
  timeout?: string;
  claims?: readonly string[];
}

/** A range of releases: `<runtime>@<a>..<runtime>@<b>` or `<runtime>@latest~N`, flags and environment after it. */
const RANGE_HEAD = /^[a-z]+@(?:latest~\d+|[^\s.][^\s]*\.\.[^\s]+)(?:\s|$)/;

export async function releasesCommand(args: readonly string[], flags: ReleasesFlags): Promise<number> {
  // Everything typed is checked before the registry is asked or anything installs.
  listingFormat(flags);
  const ranges = args.filter((a) => RANGE_HEAD.test(a));
  const suites = args.filter((a) => !RANGE_HEAD.test(a));
  if (!ranges.length) throw new UsageError('releases: name a range of releases (node@25.8.0..node@26.1.0, or node@latest~3), then the suites');
  if (!suites.length) throw new UsageError('releases: name one or more suites (or benchmark files) after the ranges');
  const every = parsePositiveInt(flags.every ?? 1, '--every');
  const shard = flags.shard !== undefined ? parseShard(flags.shard) : undefined;
  // The warmup and the threshold are the default measurer's for a comparison.
  const measurer = DEFAULT_MEASURER.defaults;
  const identity: MatrixIdentity = {
    filter: flags.filter?.join(',') ?? '',
    threshold: flags.threshold !== undefined ? parsePercent(flags.threshold, '--threshold') : measurer.threshold([]),
    timePerSetMs: parseDuration(flags.time ?? MATRIX_DEFAULTS.time, '--time'),
    warmupMs: parseDuration(flags.warmup ?? measurer.compare.warmup, '--warmup'),
    sets: parsePositiveInt(flags.sets ?? MATRIX_DEFAULTS.sets, '--sets'),
    setsPerProcess: MATRIX_DEFAULTS.setsPerProcess,
    windowSize: parsePositiveInt(flags.window ?? MATRIX_DEFAULTS.window, '--window'),
  };
  if (identity.windowSize < 2) throw new UsageError('--window: a window holds two releases at least');
  const budgetMs = parseDuration(flags.budget ?? MATRIX_DEFAULTS.budget, '--budget');
  const claimsRuns = loadClaimsRuns(flags.claims ?? []);

  const dir = campaignFolder(resultsDir, 'releases', [...ranges, ...suites, identity.filter], flags.dir, shard ? `-shard-${shard.index}-of-${shard.count}` : '');
  if (!flags.plan) assertWritableFolder(dir, flags.dir !== undefined ? '--dir' : "the matrix's folder");
  const suiteName = (suite: string): string => locateSuite(suite).name;
  const all = await listTracks(ranges, suites, every, suiteName);
  const plan = planPort();
  const planner: WindowPlanner = {
    planWindow: (track, releases, sets) =>
      plan({
        suite: track.suite,
        arms: releases.map((tag) => releaseVariantText(track, tag)),
        flags: { ...(flags.filter ? { filter: flags.filter } : {}), rounds: sets, time: `${identity.timePerSetMs * sets}ms`, warmup: `${identity.warmupMs}ms`, measurerOptions: { 'sets-per-process': identity.setsPerProcess }, ...(flags.timeout ? { timeout: flags.timeout } : {}) },
      }),
    suiteName,
  };
  // Claims are matched against every track (a shard's own kept), by the suites' own names (suites load only when claims are given).
  const claims = matchClaims(all, claimsRuns, releaseOfVariant, await claimsSuiteNames(claimsRuns.length ? suites : []));
  const sitting = MatrixSitting.open(dir, identity, all, planner, { ...(shard ? { shard } : {}), claims, planOnly: flags.plan === true });
  try {
    return await sitting.sit(budgetMs, campaignSay(flags), (view) => emitMatrix(view, flags));
  } finally {
    sitting.close();
  }
}
