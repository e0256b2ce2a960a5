/** A bisect's range of releases from the registry's list (a fixed list here, no network). */
import { describe, expect, it } from 'vitest';
import { binaryInPackage, onEveryPlatform, semverReleases } from '@rtbench/runtime-kit';
import type { ReleaseIndex } from '@rtbench/host';
import { releasesBetween, versionsOfSets } from '../src/release-listing.ts';

const index: ReleaseIndex = { versions: async () => ['0.1.0', '1.0.0', '1.9.0', '1.9.1', '1.10.0', '2.0.0'] };

const releases = semverReleases({
  spec: 'fake',
  dependency: 'fake',
  package: 'fake-rt',
  version: '1.9.1',
  fromUrl: import.meta.url,
  platforms: onEveryPlatform({ package: 'fake-rt', binary: 'bin/tool' }),
  binaryIn: binaryInPackage,
});

describe('a range of releases', () => {
  it('is listed oldest first, both ends included, and refused backwards', async () => {
    expect(await releasesBetween(releases, 'fake', '1.0.0', '1.10.0', index)).toEqual(['1.0.0', '1.9.0', '1.9.1', '1.10.0']);
    await expect(releasesBetween(releases, 'fake', '2.0.0', '1.0.0', index)).rejects.toThrow(/must be older/);
  });

  it('refuses an end that is not published, naming the nearest', async () => {
    await expect(releasesBetween(releases, 'fake', '1.0.0', '1.9.5', index)).rejects.toThrow(/fake@1\.9\.5: fake-rt on npm has no such release/);
  });
});

describe("a package's range over a version set", () => {
  // react, react-dom and react-server-dom-webpack released together, but not every time.
  const registry: Record<string, string[]> = {
    react: ['19.0.0', '19.1.0', '19.1.1', '19.1.2', '19.2.0'],
    'react-dom': ['19.0.0', '19.1.0', '19.1.1', '19.1.2', '19.2.0'],
    'react-server-dom-webpack': ['19.0.0', '19.1.0', '19.2.0'],
  };
  const index: ReleaseIndex = { versions: async (name) => registry[name] ?? [] };

  it('keeps the versions every package that moves with it has, and says why each other is left out', async () => {
    expect(await versionsOfSets('react', registry.react!, ['react-dom', 'react-server-dom-webpack'], index)).toEqual({
      tags: ['19.0.0', '19.1.0', '19.2.0'],
      skipped: [
        { tag: '19.1.1', reason: 'react-server-dom-webpack, which moves with react, has no release 19.1.1 on npm' },
        { tag: '19.1.2', reason: 'react-server-dom-webpack, which moves with react, has no release 19.1.2 on npm' },
      ],
    });
  });

  it('says a version is missing from what this machine holds, not from npm, when the list is the cache alone', async () => {
    const held: ReleaseIndex = { ...index, offline: 'RTBENCH_NO_INSTALL is set' };
    expect((await versionsOfSets('react', ['19.1.1'], ['react-server-dom-webpack'], held)).skipped).toEqual([
      { tag: '19.1.1', reason: 'react-server-dom-webpack, which moves with react, has no release 19.1.1 among the versions this machine holds (RTBENCH_NO_INSTALL is set, so npm was not asked)' },
    ]);
  });

  it('names every package a version lacks, and keeps the whole range when they have it all', async () => {
    const sparse: ReleaseIndex = { versions: async (name) => (name === 'react' ? registry.react! : ['19.0.0']) };
    expect((await versionsOfSets('react', ['19.0.0', '19.1.0'], ['react-dom', 'react-server-dom-webpack'], sparse)).skipped).toEqual([
      { tag: '19.1.0', reason: 'react-dom and react-server-dom-webpack, which move with react, have no release 19.1.0 on npm' },
    ]);
    expect(await versionsOfSets('react', registry.react!, ['react-dom'], index)).toEqual({ tags: registry.react, skipped: [] });
    expect(await versionsOfSets('react', registry.react!, [], index)).toEqual({ tags: registry.react, skipped: [] });
  });

  it('leaves nothing when no version is had by all (the range is then refused)', async () => {
    expect((await versionsOfSets('react', ['19.1.1', '19.1.2'], ['react-server-dom-webpack'], index)).tags).toEqual([]);
  });
});

