/**
 * How a store under rtbench's cache installs (runtimes, libraries, a suite's
 * own toolchain): on demand unless RTBENCH_NO_INSTALL forbids it, each
 * install said on stderr in one line. Here, beside the cache's place, so the
 * run and a suite that installs its own packages share one policy.
 */
import { join } from 'node:path';
import { cacheDir } from './places.ts';

/** RTBENCH_NO_INSTALL set to anything but "" or "0". */
function installForbidden(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.RTBENCH_NO_INSTALL;
  return v !== undefined && v !== '' && v !== '0';
}

/**
 * Where the library store installs: RTBENCH_LIBRARY_CACHE when set (several
 * checkouts, or a CI's kept folder, sharing one store: each entry is proven
 * on every use and made whole before it appears), else <cache>/libraries.
 */
function libraryCache(env: NodeJS.ProcessEnv = process.env): string {
  return env.RTBENCH_LIBRARY_CACHE || join(cacheDir, 'libraries');
}

/**
 * Where framework apps' builds (and their copies with an arm's versions) are kept:
 * RTBENCH_APP_BUILD_CACHE when set (several checkouts, or a CI's kept folder, sharing
 * them: a build is keyed by what it is made from, proven on every use and built once
 * under a lock), else <cache>/apps.
 */
export function appBuildCache(env: NodeJS.ProcessEnv = process.env): string {
  return env.RTBENCH_APP_BUILD_CACHE || join(cacheDir, 'apps');
}

/** The store's folder (<cache>/`folder`; the libraries' may be moved), whether it may install, why not, and where it says what it installs. */
export function storePolicy(folder: string): { dir: string; install: boolean; forbiddenBy: string; log: (line: string) => void } {
  return { dir: folder === 'libraries' ? libraryCache() : join(cacheDir, folder), install: !installForbidden(), forbiddenBy: 'RTBENCH_NO_INSTALL is set', log: (line) => process.stderr.write(`${line}\n`) };
}
