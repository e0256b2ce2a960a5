/**
 * A folder's lock: a live holder on this machine refuses a second rtbench; a
 * holder gone, or a pid given since to a process started later, is taken
 * over; a lock this machine cannot check (another machine's, restored from a
 * cache, or an older rtbench's pid alone) is refused with the way to clear it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCampaignFolder } from '../src/index.ts';

const folder = (): string => mkdtempSync(join(tmpdir(), 'rtbench-lock-'));
/** What `f` refuses with, checked to be one line. */
function refusal(f: () => unknown): string {
  try {
    f();
  } catch (error) {
    expect((error as Error).message).not.toContain('\n');
    return (error as Error).message;
  }
  throw new Error('nothing was refused');
}
/** This process's start in clock ticks since boot (field 22 of /proc/self/stat). */
const ourStart = (): string => {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
};

describe("a campaign folder's lock", () => {
  it('refuses a second holder while the first works, and is free once released', () => {
    const dir = folder();
    const release = openCampaignFolder(dir, 'releases.lock', 'release matrix');
    expect(readFileSync(join(dir, 'releases.lock'), 'utf8').split('\n').slice(0, 2)).toEqual([String(process.pid), hostname()]);
    expect(refusal(() => openCampaignFolder(dir, 'releases.lock', 'release matrix'))).toMatch(new RegExp(`another release matrix \\(pid ${process.pid}\\) is working in ${dir}`));
    release();
    openCampaignFolder(dir, 'releases.lock', 'release matrix')();
  });

  it('names the option that picks another folder: --dir, or the one the campaign takes (claims: --save)', () => {
    const dir = folder();
    const release = openCampaignFolder(dir, 'claims.lock', 'claims run', '--save');
    expect(refusal(() => openCampaignFolder(dir, 'claims.lock', 'claims run', '--save'))).toMatch(/another claims run \(pid \d+\) is working in .*: wait for it, or name another --save$/);
    release();
    const other = folder();
    const held = openCampaignFolder(other, 'releases.lock', 'release matrix');
    expect(refusal(() => openCampaignFolder(other, 'releases.lock', 'release matrix'))).toMatch(/or name another --dir$/);
    held();
  });

  it('takes over a lock whose pid now names a process started later', () => {
    const dir = folder();
    writeFileSync(join(dir, 'releases.lock'), `${process.pid}\n${hostname()}\n${Number(ourStart()) - 1}\n`);
    openCampaignFolder(dir, 'releases.lock', 'release matrix')();
  });

  it("says how to clear a lock it cannot check: another machine's live-looking pid, or a pid alone", () => {
    for (const text of [`${process.pid}\nci-runner-17\n${ourStart()}\n`, `${process.pid}\n`]) {
      const dir = folder();
      writeFileSync(join(dir, 'releases.lock'), text);
      const message = refusal(() => openCampaignFolder(dir, 'releases.lock', 'release matrix'));
      expect(message).toContain('which this machine cannot check');
      expect(message).toContain(`remove ${join(dir, 'releases.lock')}`);
    }
  });
});
