/**
 * One measurement of a bisect: two releases compared as `bench --compare`
 * compares two variants (the same plan, the same run loop: lockstep sets
 * holding both releases, or instruction counts), saved as a run in the
 * bisect's folder; here, the releases resolved (what the bisect installed
 * remembered), and the answer read from the run: the per-round log ratio
 * newer/older of the case (stats' pairRounds: a lockstep round's ratio from
 * its turns), or the release that could not run it.
 */
import { existsSync } from 'node:fs';
import type { RunRecord } from '@rtbench/core/schema';
import { releaseFor, RuntimeUnavailableError, type RuntimeTarget } from '@rtbench/runtime-kit';
import { pairRounds, unitMeans } from '@rtbench/stats';
import { pairable } from '@rtbench/measurer-records';
import { resolveVariant, runtimeStore } from '@rtbench/arms';
import { isResolved, type ResolvedVariant, type UnavailableVariant } from '@rtbench/runtime-registry';
import { releaseVariant, type ReleaseRange } from '@rtbench/arms';
import type { BisectFolder } from './state.ts';

/** Where a release of the range is (or would be) installed in the runtime cache; undefined when the tag names no release npm lists. */
async function cacheEntryOf(range: ReleaseRange, tag: string): Promise<string | undefined> {
  // A package's versions go to the library store, which no bisect cleans.
  if (!range.plugin) return undefined;
  const store = runtimeStore();
  // The install the release resolves to, as a resolve finds it; one npm does not list is never installed.
  const release = await releaseFor(range.plugin.releases!, range.runtime, tag, store.releases).catch((error: unknown) => {
    if (error instanceof RuntimeUnavailableError) return undefined;
    throw error;
  });
  return release && store.cacheEntry(release);
}

/**
 * Which of `tags` the runtime cache lacks now; the function returned, called
 * once they were resolved (and so installed), notes in the folder those that
 * were installed since, so that --clean removes them too.
 */
export async function installsOf(
  range: ReleaseRange,
  tags: readonly string[],
  entryOf: (range: ReleaseRange, tag: string) => Promise<string | undefined> = cacheEntryOf,
): Promise<(folder: Pick<BisectFolder, 'noteInstalled'>) => void> {
  const before = await Promise.all(tags.map(async (tag) => {
    const entry = await entryOf(range, tag);
    return { entry, existed: entry !== undefined && existsSync(entry) };
  }));
  return (folder) => {
    for (const { entry, existed } of before) if (entry !== undefined && !existed && existsSync(entry)) folder.noteInstalled(entry);
  };
}

/** Each release resolved once per bisect (and installed then, if need be), remembering what this bisect installed. */
export class Releases {
  private readonly resolved = new Map<string, Promise<ResolvedVariant | UnavailableVariant>>();

  constructor(private readonly ctx: { range: ReleaseRange; folder: BisectFolder }) {}

  get(tag: string): Promise<ResolvedVariant | UnavailableVariant> {
    let pending = this.resolved.get(tag);
    if (!pending) {
      pending = this.resolve(tag);
      this.resolved.set(tag, pending);
    }
    return pending;
  }

  /** The engine and version of a release that ran, for the answer. */
  async target(tag: string): Promise<RuntimeTarget | undefined> {
    const v = await this.get(tag);
    return isResolved(v) ? v.target : undefined;
  }

  private async resolve(tag: string): Promise<ResolvedVariant | UnavailableVariant> {
    const { range, folder } = this.ctx;
    const entry = await cacheEntryOf(range, tag);
    const before = entry !== undefined && existsSync(entry);
    const variant = await resolveVariant(releaseVariant(range, tag));
    if (entry !== undefined && !before && existsSync(entry) && isResolved(variant) && variant.target.npmLocation === 'cache') folder.noteInstalled(entry);
    return variant;
  }
}

/** ln(newer/older) of the case per independent unit (a process pair's sets averaged), or the release whose result has no rounds (and why). */
export function logRatiosOf(run: RunRecord, caseId: string, olderId: string, newerId: string): { logRatios: number[] } | { failed: 'older' | 'newer'; reason: string } {
  const result = (id: string) => run.results.find((r) => r.caseId === caseId && r.variantId === id);
  const older = result(olderId);
  const newer = result(newerId);
  for (const [side, r] of [['older', older], ['newer', newer]] as const) {
    if (!r || !r.rounds.some((x) => x.samples.length)) {
      const why = r?.failures.find((f) => f.kind !== 'warning');
      return { failed: side, reason: why ? `${why.kind}: ${why.message.split('\n')[0]}` : 'no sample was taken' };
    }
  }
  const pairs = pairRounds(older!.rounds.map(pairable), newer!.rounds.map(pairable));
  const logs = pairs.baseline.map((b, i) => Math.log(pairs.candidate[i]! / b));
  const keep = logs.map(Number.isFinite);
  const units = pairs.units?.filter((_, i) => keep[i]);
  return { logRatios: unitMeans(logs.filter((_, i) => keep[i]), units) };
}
