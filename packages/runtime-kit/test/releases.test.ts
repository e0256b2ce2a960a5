/**
 * Any published release as a variant: the registry's list (a fixed list
 * here, no network), how a spec names a release, and what a release asks
 * of the runtime store (a fake one here; the store's installs are
 * packages/host/test/runtime-store.test.ts's).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { binaryInPackage, onEveryPlatform, type NpmRuntime } from '../src/npm-runtime.ts';
import { releaseFor, semverReleases, type ReleaseIndex } from '../src/releases.ts';
import { resolveSingleNpmRuntime, type SingleNpmRuntime } from '../src/spec.ts';
import type { RuntimeStore } from '../src/store.ts';
import { RuntimeUnavailableError, type RuntimeTarget } from '../src/types.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'rtbench-releases-test-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The registry's list as the store gives it: stable versions, oldest first. */
const PUBLISHED = ['0.1.0', '1.0.0', '1.9.0', '1.9.1', '1.10.0', '2.0.0'];
const index = (versions = PUBLISHED): ReleaseIndex & { asked: string[] } => {
  const asked: string[] = [];
  return { asked, versions: async (pkg) => (asked.push(pkg), versions) };
};

function template(): NpmRuntime {
  mkdirSync(join(root, 'plugin', 'src'), { recursive: true });
  return {
    spec: 'fake',
    dependency: 'fake',
    package: 'fake-rt',
    version: '1.9.1',
    fromUrl: pathToFileURL(join(root, 'plugin', 'src', 'plugin.ts')).href,
    platforms: onEveryPlatform({ package: 'fake-rt', binary: 'bin/tool' }),
    binaryIn: binaryInPackage,
  };
}

describe('the registry list', () => {
  it('names a published release, and a missing one in one line with its neighbours', async () => {
    const releases = semverReleases(template());
    const rt = await releaseFor(releases, 'fake', '1.9.0', index());
    expect(rt).toMatchObject({ package: 'fake-rt', version: '1.9.0', spec: 'fake@1.9.0' });
    const missing = releaseFor(releases, 'fake', '1.9.5', index());
    await expect(missing).rejects.toThrow(RuntimeUnavailableError);
    await expect(missing).rejects.toThrow(/fake@1\.9\.5: fake-rt on npm has no such release; nearest: fake@1\.9\.0, fake@1\.9\.1, fake@1\.10\.0/);
  });

  it('says when the registry cannot be asked', async () => {
    const failing: ReleaseIndex = { versions: () => Promise.reject(new Error('FetchError: request failed')) };
    await expect(releaseFor(semverReleases(template()), 'fake', '1.0.0', failing)).rejects.toThrow("fake@1.0.0: could not list fake's releases (FetchError: request failed)");
  });
});

describe('a release as a variant', () => {
  /** A store that records what it was asked for and says where each would be installed. */
  const storeOver = (releases: ReleaseIndex): RuntimeStore & { got: string[] } => {
    const got: string[] = [];
    return { got, releases, get: async (npm) => (got.push(`${npm.package}@${npm.version}`), { binary: join(root, 'cache', `${npm.package}@${npm.version}`, 'node_modules', npm.package, 'bin', 'tool'), location: 'cache' }) };
  };
  const probe = async (spec: string, binary: string, source: RuntimeTarget['source']): Promise<RuntimeTarget> => ({
    runtime: 'deno',
    spec,
    binary,
    source,
    version: /@(\d[^/]*)\/node_modules/.exec(binary)?.[1] ?? '?',
    engine: 'v8',
    engineVersion: 'x',
  });

  it('asks the store for a release that is not the pin, checked against the list first', async () => {
    const npm = template();
    const rt: SingleNpmRuntime = { runtime: 'deno', executable: 'fake', npm, npmVersions: [npm.version], releases: semverReleases(npm), probe };
    const list = index();
    const store = storeOver(list);
    const target = await resolveSingleNpmRuntime(rt, 'deno@1.9.0', store);
    expect(target).toMatchObject({ spec: 'deno@1.9.0', version: '1.9.0', npmLocation: 'cache' });
    expect(store.got).toEqual(['fake-rt@1.9.0']);
    expect(list.asked).toEqual(['fake-rt']);
    // Not published: nothing is asked of the store.
    await expect(resolveSingleNpmRuntime(rt, 'deno@1.9.7', store)).rejects.toThrow(/no such release/);
    expect(store.got).toEqual(['fake-rt@1.9.0']);
    // A line (not written in full) is not a release: the message says how to write one.
    await expect(resolveSingleNpmRuntime(rt, 'deno@1.8', store)).rejects.toThrow(/or any release written in full \(deno@1\.9\.1\)/);
  });
});
