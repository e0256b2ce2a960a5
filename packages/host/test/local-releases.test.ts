/**
 * What a machine holds of a package when installing is not allowed
 * (RTBENCH_NO_INSTALL): the versions in the runtime cache and in the other
 * caches named as it is (the library store's, where an arm's pins and a
 * package's campaigns install its versions), never npm's list. A bisect or a
 * matrix over a package's versions reads its range from there
 * (test/library-releases.test.ts, end to end).
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NpmRuntimeStore } from '../src/runtime-store.ts';

function cacheWith(entries: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-held-'));
  for (const name of entries) mkdirSync(join(dir, name));
  return dir;
}

describe('the releases a machine holds', () => {
  it("lists a package's versions from the runtime cache and the library cache, in order, and says why npm was not asked", async () => {
    const runtimes = cacheWith(['rtbench-held-lib@1.0.0', 'other@9.0.0']);
    const libraries = cacheWith(['rtbench-held-lib@2.0.0', 'rtbench-held-lib@10.0.0', '@scope+rtbench-held-lib@3.0.0', 'app-set@0a1b2c3d4e5f']);
    const store = new NpmRuntimeStore({ dir: runtimes, install: false, forbiddenBy: 'RTBENCH_NO_INSTALL is set', alsoHeldIn: [libraries] });
    expect(await store.releases.versions('rtbench-held-lib')).toEqual(['1.0.0', '2.0.0', '10.0.0']);
    expect(await store.releases.versions('@scope/rtbench-held-lib')).toEqual(['3.0.0']);
    expect(store.releases.offline).toBe('RTBENCH_NO_INSTALL is set');
    // Without the library cache, only the runtime cache's.
    expect(await new NpmRuntimeStore({ dir: runtimes, install: false }).releases.versions('rtbench-held-lib')).toEqual(['1.0.0']);
  });
});
