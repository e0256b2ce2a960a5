/**
 * Which releases `rtbench runtimes <name> --releases` lists (runtime-releases.ts):
 * npm's newest few (or all), every pinned one and every one this machine
 * holds, once each, oldest first, whatever order the lists came in.
 */
import { describe, expect, it } from 'vitest';
import { releaseRows } from '../src/runtime-releases.ts';

const PUBLISHED = Array.from({ length: 30 }, (_, i) => `26.${i}.0`);
const PINNED = new Map([
  ['24.21.0', ['node@24']],
  ['26.10.0', ['node@26', 'node']],
]);

describe('the releases listed for a runtime', () => {
  it('lists the newest few of npm, the pins and the held releases, each once, oldest first', () => {
    expect(releaseRows(PUBLISHED, PINNED, ['26.3.0', '22.1.0', '26.29.0'], 3)).toEqual(['22.1.0', '24.21.0', '26.3.0', '26.10.0', '26.27.0', '26.28.0', '26.29.0']);
  });

  it('lists every release with all, and the pins and held ones alone when npm listed none', () => {
    expect(releaseRows(PUBLISHED, PINNED, [], undefined)).toHaveLength(31);
    expect(releaseRows([], PINNED, ['20.1.0'], 10)).toEqual(['20.1.0', '24.21.0', '26.10.0']);
  });
});
