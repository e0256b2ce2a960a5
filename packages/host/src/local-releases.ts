/**
 * The releases a machine already holds, for runs that may not reach the
 * network (RTBENCH_NO_INSTALL): a package's versions in rtbench's caches of
 * installs (`<package>@<version>`, a scope's slash as "+": the runtimes', and
 * the libraries' a pinned package's versions are installed into) and in the pnpm
 * store of the checkout (`node_modules/.pnpm/<package>@<version>`). Nothing
 * is asked of the registry; a release named that is not here is refused by
 * @rtbench/runtime-kit's releaseFor with the reason below.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReleaseIndex } from './plugin-shapes.ts';
import { stableVersionsInOrder } from '@rtbench/core/versions';

/** The nearest node_modules/.pnpm above this file: the checkout's pnpm store (none when installed by npm). */
function pnpmStore(from = dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const store = join(dir, 'node_modules', '.pnpm');
    if (existsSync(store)) return store;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Versions of `pkg` among a folder's entries named `<pkg>@<version>` (another platform's entries, `+<platform>`, are not this machine's). */
function versionsIn(dir: string | undefined, pkg: string): string[] {
  if (!dir || !existsSync(dir)) return [];
  const prefix = `${pkg.replace('/', '+')}@`;
  return readdirSync(dir).flatMap((name) => (name.startsWith(prefix) ? [name.slice(prefix.length)] : []));
}

/** What this machine holds of each package: the caches `dirs` and the checkout's pnpm store; `why` says why only these (for the refusal). */
export function localReleaseIndex(dirs: readonly (string | undefined)[], why: string): ReleaseIndex {
  const places = [...dirs, pnpmStore()];
  return {
    offline: why,
    versions: (pkg) => Promise.resolve(stableVersionsInOrder([...new Set(places.flatMap((dir) => versionsIn(dir, pkg)))])),
  };
}
