/**
 * Which releases are measured together. A track's adjacent releases must
 * share sets (a step is paired only inside a set of processes), and a set of
 * more than `size` processes would crowd the machine, so the releases are cut
 * into windows of at most `size` that overlap by one release: every step lies
 * inside one window. A window already in the state keeps its steps; releases
 * that appeared since (at the end, or between two measured ones) make new
 * windows of only the steps no window holds yet, measured in fresh sets.
 */
import type { WindowState } from './types.ts';

/** The adjacent steps of a list of releases, as "older\0newer" keys. */
function stepKeys(releases: readonly string[]): string[] {
  return releases.slice(1).map((newer, i) => `${releases[i]}\u0000${newer}`);
}

/** The steps a window measures: any two of its releases are paired, so every step between releases both of which it holds. */
export function windowHolds(window: Pick<WindowState, 'releases'>, older: string, newer: string): boolean {
  return window.releases.includes(older) && window.releases.includes(newer);
}

/** Every run of `releases` into windows of at most `size` releases, consecutive windows sharing one release. */
export function cutWindows(releases: readonly string[], size: number): string[][] {
  if (!(Number.isInteger(size) && size >= 2)) throw new RangeError(`a window holds at least two releases, got ${size}`);
  if (releases.length < 2) return [];
  const out: string[][] = [];
  for (let start = 0; start < releases.length - 1; start += size - 1) out.push(releases.slice(start, start + size));
  return out;
}

/**
 * The windows to add so that every step of `releases` lies in a window: the
 * steps no existing window holds, grouped where they are consecutive, each
 * group cut into windows of at most `size`.
 */
export function windowsToAdd(releases: readonly string[], existing: readonly Pick<WindowState, 'releases'>[], size: number): string[][] {
  const steps = stepKeys(releases);
  const open = steps.map((key) => {
    const [older, newer] = key.split('\u0000') as [string, string];
    return !existing.some((w) => windowHolds(w, older, newer));
  });
  const out: string[][] = [];
  let i = 0;
  while (i < open.length) {
    if (!open[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j < open.length && open[j]) j++;
    // Steps i … j-1 are open: releases i … j.
    out.push(...cutWindows(releases.slice(i, j + 1), size));
    i = j;
  }
  return out;
}

/** Every --every'th release, both ends kept: a long range measured coarsely (each change point then names a bisect). */
export function thin(releases: readonly string[], every: number): string[] {
  if (!(Number.isInteger(every) && every >= 1)) throw new RangeError(`--every takes a whole number from 1, got ${every}`);
  if (every === 1 || releases.length <= 2) return [...releases];
  const kept = releases.filter((_, i) => i % every === 0);
  if (kept.at(-1) !== releases.at(-1)) kept.push(releases.at(-1)!);
  return kept;
}
