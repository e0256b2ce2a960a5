/**
 * What a plug-in's `resolve` asks of the host for a pinned npm runtime: its
 * binary, and the list of its package's releases. The store the CLI and the
 * run hand over (node_modules, then the cache, then an install on demand) is
 * @rtbench/host's NpmRuntimeStore; a plug-in called without one (its tests in
 * the checkout) looks in node_modules only (`workspaceRuntimes`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageDir } from './npm.ts';
import { hasPackage, type NpmRuntime } from './npm-runtime.ts';
import { hostPlatform, isPlatform } from '@rtbench/process';
import type { ReleaseIndex } from './releases.ts';
import { RuntimeUnavailableError, type NpmInstallLocation } from './types.ts';

export interface RuntimeStore {
  /** The binary of `npm` on this machine: found, or installed now when the store may; else a RuntimeUnavailableError in one line. */
  get(npm: NpmRuntime): Promise<{ binary: string; location: NpmInstallLocation }>;
  /** The list of each runtime package's releases (releases.ts). */
  readonly releases: ReleaseIndex;
}

/** Whether the package directory holds exactly the pinned package (not a project's own, other version). */
function isPinned(dir: string, pkg: string, version: string): boolean {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
    return manifest.name === pkg && manifest.version === version;
  } catch {
    return false;
  }
}

/** The binary of `npm` in node_modules beside its plug-in (rtbench's checkout after `pnpm install`), for this machine; undefined when it is not there. */
function workspaceBinary(npm: NpmRuntime): string | undefined {
  const platform = hostPlatform();
  const entry = isPlatform(platform) ? npm.platforms[platform] : undefined;
  if (!entry || !hasPackage(entry)) return undefined;
  const dir = packageDir(npm.fromUrl, [npm.dependency]);
  return dir !== undefined && isPinned(dir, entry.package, npm.version) ? npm.binaryIn(dir, entry) : undefined;
}

/**
 * Only node_modules, never the cache or an install, and no list of releases:
 * a plug-in's store when the host hands none. `find` is the same look
 * without the error, for the host's store, which looks here first.
 */
export const workspaceRuntimes: RuntimeStore & { find(npm: NpmRuntime): string | undefined } = {
  find: workspaceBinary,
  async get(npm) {
    const binary = workspaceBinary(npm);
    if (binary === undefined) throw new RuntimeUnavailableError(`${npm.spec} (${npm.package}@${npm.version}) is not installed: run \`npx pnpm install\` in the rtbench checkout`);
    return { binary, location: 'workspace' };
  },
  releases: {
    versions: () => Promise.reject(new Error('releases are listed through the runtime store the CLI hands a plug-in, not without one')),
  },
};
