/** A bisect's range of releases from the registry's list (a fixed list here, no network). */
import { describe, expect, it } from 'vitest';
import { binaryInPackage, onEveryPlatform, semverReleases } from '@rtbench/runtime-kit';
import type { ReleaseIndex } from '@rtbench/host';
import { releasesBetween } from '../src/release-listing.ts';

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
