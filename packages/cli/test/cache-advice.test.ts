/**
 * A cache folder rtbench refuses (host's UnsafeCacheError) is said in
 * one line with advice that works where the cache is: in a checkout,
 * XDG_CACHE_HOME does not move it, so the advice is to remove the folder.
 */
import { mkdirSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownerOnlyDir } from '@rtbench/host/programs';
import { UnsafeCacheError } from '@rtbench/core/usage-error';
import { unsafeCacheLine } from '../src/process/cache-advice.ts';

/** The error ownerOnlyDir throws for a folder under `brought/` that another user owns (as if we were another user). */
function refusal(): UnsafeCacheError {
  const dir = join(mkdtempSync(join(tmpdir(), 'rtbench-cache-advice-')), '.rtbench-cache', 'brought');
  mkdirSync(dir, { recursive: true });
  const getuid = process.getuid;
  process.getuid = () => statSync(dir).uid + 1;
  try {
    ownerOnlyDir(dir);
  } catch (error) {
    return error as UnsafeCacheError;
  } finally {
    process.getuid = getuid;
  }
  throw new Error('not refused');
}

describe('a refused cache folder', () => {
  it('in a checkout: names the folder and says to remove it, not to set XDG_CACHE_HOME (which a checkout ignores)', () => {
    const error = refusal();
    expect(error).toBeInstanceOf(UnsafeCacheError);
    const line = unsafeCacheLine(error, true, '/repo/.rtbench-cache');
    expect(line).toBe(`${error.dir} belongs to another user (uid ${statSync(error.dir).uid}): rtbench will not run programs from a folder someone else controls; remove ${error.dir} (as its owner, or root) and rtbench makes it again; this checkout keeps its cache in /repo/.rtbench-cache`);
    expect(line).not.toContain('XDG_CACHE_HOME');
  });

  it('installed: XDG_CACHE_HOME is advice that works', () => {
    expect(unsafeCacheLine(refusal(), false, '/home/u/.cache/rtbench')).toMatch(/and rtbench makes it again, or set XDG_CACHE_HOME to a folder of yours$/);
  });
});
