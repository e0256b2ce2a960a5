/**
 * A bisect's folder on resume and at its end: a step the folder saved is
 * replayed from its run file, never from the figures the state stores; and
 * --clean removes the releases the bisect installed, from the runtime cache only.
 */
import { existsSync, realpathSync, rmSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { StepOutcome, StepRequest } from './types.ts';
import { STATE_FILE, type BisectFolder, type SavedStep } from './state.ts';
import { readCampaignRun } from '@rtbench/campaign';
import { isCacheEntryName, releaseVariant, type ReleaseRange } from '@rtbench/arms';
import { isResolved } from '@rtbench/runtime-registry';
import { UsageError } from '@rtbench/core/usage-error';
import { logRatiosOf, type Releases } from './step.ts';

/**
 * What a saved step gave, read again from what the folder holds, never from
 * the figures its state stores (a state is edited, copied, restored): a
 * measured step's log ratios from its run file (inside the folder, read as a
 * saved run), a release that could not run asked again. Undefined: measure
 * the step (its release runs now).
 */
export async function replayStep(
  saved: SavedStep,
  request: StepRequest,
  ctx: { range: ReleaseRange; folder: BisectFolder },
  releases: Pick<Releases, 'get'>,
  caseId: string,
  /** What the saved-run reader said of the step's run file (samples that contradict its statistics): the answer stands on the samples. */
  noted: (file: string, note: string) => void = () => {},
): Promise<StepOutcome | undefined> {
  const { range, folder } = ctx;
  const state = join(folder.dir, STATE_FILE);
  if (saved.run === undefined) {
    // No run: a release that could not be resolved, asked again (cached for the bisect).
    if (saved.outcome.kind !== 'cannot-run') throw new UsageError(`${state} says ${saved.older} vs ${saved.newer} was measured but names no run file; remove it to start the bisect again`);
    const index = saved.outcome.release === request.older ? request.older : request.newer;
    const v = await releases.get(range.tags[index]!);
    return isResolved(v) ? undefined : { kind: 'cannot-run', release: index, reason: v.reason };
  }
  const read = readCampaignRun(folder.dir, saved.run, STATE_FILE, (message) => new UsageError(`${message}; remove it to start the bisect again`));
  if (!read) throw new UsageError(`${state} names ${saved.run} for ${saved.older} vs ${saved.newer}, which is not in ${folder.dir}; remove the state to start the bisect again`);
  const olderId = releaseVariant(range, saved.older).id;
  const newerId = releaseVariant(range, saved.newer).id;
  const ids = new Set(read.run.variants.map((v) => v.id));
  if (!ids.has(olderId) || !ids.has(newerId) || !read.run.cases.some((c) => c.id === caseId)) {
    throw new UsageError(`${state} names ${saved.run} for ${saved.older} vs ${saved.newer}, but that run does not compare them on ${caseId}; remove the state to start the bisect again`);
  }
  for (const note of read.notes ?? []) noted(join(folder.dir, saved.run), note);
  const got = logRatiosOf(read.run, caseId, olderId, newerId);
  return 'failed' in got ? { kind: 'cannot-run', release: got.failed === 'older' ? request.older : request.newer, reason: got.reason } : { kind: 'measured', logRatios: got.logRatios };
}

/** `entry` is a folder directly in the runtime cache `cache`, named as an install is, links resolved. */
function inCache(entry: unknown, cache: string): entry is string {
  if (typeof entry !== 'string' || !isAbsolute(entry) || !isCacheEntryName(basename(entry))) return false;
  const real = (p: string): string => (existsSync(p) ? realpathSync(p) : resolve(p));
  return dirname(real(entry)) === real(cache);
}

/**
 * --clean: removes the releases this bisect installed from the runtime cache
 * `cache`. The state is edited, copied, restored: an entry it lists that is
 * not a release in that cache (a folder elsewhere, a link leading out of it)
 * is left where it is, and returned to be named.
 */
export function removeInstalled(folder: BisectFolder, cache: string): { removed: number; refused: string[] } {
  const listed: unknown[] = folder.state.installed;
  const ours = listed.filter((entry) => inCache(entry, cache));
  // One removed since (by hand, or by another bisect's --clean) is no longer there to count.
  const present = ours.filter((entry) => existsSync(entry));
  for (const entry of present) rmSync(entry, { recursive: true, force: true });
  folder.state.installed = [];
  folder.save();
  return { removed: present.length, refused: listed.filter((entry) => !ours.includes(entry as string)).map((entry) => (typeof entry === 'string' ? entry : JSON.stringify(entry))) };
}
