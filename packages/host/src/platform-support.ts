/**
 * Where a measurer or host tool works, declared beside it (host-tools.ts, the
 * measurers): the platforms, and what a user reads elsewhere. A run asks
 * before anything starts (refusedOn); docs/platforms.md holds the table.
 */
import { PLATFORMS, type Platform } from '@rtbench/process';

/**
 * Where a measurer or host tool works, declared beside it: the platforms,
 * and the sentence a user reads elsewhere, which says why and what to do
 * instead ("instruction counts need valgrind, which does not run on macOS;
 * measure time instead").
 */
export interface PlatformSupport {
  readonly platforms: readonly Platform[];
  readonly elsewhere: string;
}

/** Works on every platform rtbench knows. */
export const EVERY_PLATFORM: PlatformSupport = { platforms: PLATFORMS, elsewhere: '' };

/** Linux only (process groups and /proc, cgroups, perf). */
export function linuxOnly(elsewhere: string): PlatformSupport {
  return { platforms: PLATFORMS.filter((p) => p.startsWith('linux-')), elsewhere };
}

/** Why `what` cannot work on `platform`, in one line; undefined when it can. */
export function refusedOn(what: string, support: PlatformSupport, platform: string): string | undefined {
  if ((support.platforms as readonly string[]).includes(platform)) return undefined;
  return `${what} does not work on ${platform}: ${support.elsewhere}`;
}
