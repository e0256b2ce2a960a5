import { describe, expect, it } from 'vitest';
import { fileStamp, shownPath, slug } from '../src/file-name.ts';

describe('file names and shown paths', () => {
  it('shows a path under the working folder relative to it, and one outside it whole', () => {
    expect(shownPath('/work/repo/.rtbench/apps/x', '/work/repo')).toBe('.rtbench/apps/x');
    // A build cache in the home folder, seen from a project elsewhere: not "../../root/.cache/…".
    expect(shownPath('/root/.cache/rtbench/apps/my-app', '/tmp/project')).toBe('/root/.cache/rtbench/apps/my-app');
    expect(shownPath('/work/repo', '/work/repo')).toBe('/work/repo');
    expect(shownPath('/work', '/work/repo')).toBe('/work');
    // A name that starts with two dots is still inside.
    expect(shownPath('/work/repo/..cache', '/work/repo')).toBe('..cache');
  });

  it('names files from free text and ISO times', () => {
    expect(slug('node@26 --jitless / a b')).toBe('node@26_--jitless_a_b');
    expect(fileStamp('2026-11-24T02:52:50.123Z')).toBe('20261124-025250Z');
  });
});
