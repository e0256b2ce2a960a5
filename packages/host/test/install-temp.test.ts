/**
 * The folder an install is made in (install-temp.ts): runs that died
 * mid-install leave nothing for long, one that exits mid-install removes
 * its own, and a silent npm is said to be waited for.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installTemp, sayingWhatItWaitsFor } from '../src/install-temp.ts';

describe('an install folder', () => {
  it('is made after removing those of runs that died, never a live run\'s, and is removed when released', () => {
    const cache = mkdtempSync(join(tmpdir(), 'rtbench-install-temp-'));
    // Above Linux's largest pid (2^22): no process has it.
    const dead = 2 ** 22 + 1;
    mkdirSync(join(cache, `.installing-${dead}-abc`));
    const live = `.installing-${process.ppid}-def`;
    mkdirSync(join(cache, live));
    const temp = installTemp(cache);
    expect(temp.path.startsWith(join(cache, `.installing-${process.pid}-`))).toBe(true);
    expect(readdirSync(cache).sort()).toEqual([live, temp.path.slice(cache.length + 1)].sort());
    temp.release();
    expect(readdirSync(cache)).toEqual([live]);
  });

  it('is removed as the process exits before the install ends, and no longer once released', () => {
    const cache = mkdtempSync(join(tmpdir(), 'rtbench-install-exit-'));
    const before = process.listeners('exit');
    const temp = installTemp(cache);
    const added = process.listeners('exit').filter((l) => !before.includes(l));
    expect(added).toHaveLength(1);
    // What the exit runs: the folder goes.
    (added[0] as () => void)();
    expect(existsSync(temp.path)).toBe(false);
    temp.release();
    expect(process.listeners('exit')).toEqual(before);
  });
});

describe('an install npm is silent in', () => {
  it('says where from before it starts, and what it still waits for while it runs', async () => {
    const lines: string[] = [];
    let heard: () => void = () => {};
    const waited = new Promise<void>((resolve) => (heard = resolve));
    const log = (line: string): void => {
      lines.push(line);
      if (line.includes('still installing')) heard();
    };
    // The install ends only once a waiting line was said: nothing here depends on how long anything takes.
    const done = await sayingWhatItWaitsFor(log, 'react@19.2.0', '~/.cache/rtbench/libraries', () => waited.then(() => 'installed'), { npm_config_registry: 'http://127.0.0.1:9/' }, 5);
    expect(done).toBe('installed');
    expect(lines[0]).toBe('rtbench: installing react@19.2.0 into ~/.cache/rtbench/libraries … (npm, from http://127.0.0.1:9/)');
    expect(lines[1]).toMatch(/^rtbench: still installing react@19\.2\.0: waiting for npm \(\d+ s; http:\/\/127\.0\.0\.1:9\/\); Ctrl-C stops it and leaves nothing behind$/);
    const count = lines.length;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(lines.length, 'nothing more is said once the install ended').toBe(count);
  });
});
