/**
 * The fixture pool (test/helpers/pool.ts): a folder made once per test run
 * whoever asks for it and however many ask at once; a maker that failed
 * fails every asker with its message; a maker that died leaves its lock to
 * the next asker. Pure: the files of another worker are planted.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pooled } from './helpers/pool.ts';

const scratch = (): string => mkdtempSync(join(tmpdir(), 'rtbench-pool-test-'));
/** A pid above Linux's largest (pid_max is at most 2^22): no process has it. */
const DEAD = 2 ** 22 + 1;

describe('the fixture pool', () => {
  it('makes a folder once for every asker, at once or later', async () => {
    const root = scratch();
    let makes = 0;
    const make = async (dir: string): Promise<void> => {
      makes++;
      await new Promise((r) => setTimeout(r, 20));
      writeFileSync(join(dir, 'made.txt'), 'once');
    };
    const dirs = await Promise.all([pooled('thing', make, root), pooled('thing', make, root)]);
    const later = await pooled('thing', make, root);
    expect(makes).toBe(1);
    expect(new Set([...dirs, later])).toEqual(new Set([join(root, 'thing')]));
    expect(readFileSync(join(later, 'made.txt'), 'utf8')).toBe('once');
  });

  it("waits for another worker's making, and takes over the lock of one that died", async () => {
    const root = scratch();
    // A live maker (this process stands in for another worker): the asker waits until it says it is done.
    mkdirSync(join(root, 'busy.making'), { recursive: true });
    writeFileSync(join(root, 'busy.making', 'pid'), String(process.pid));
    mkdirSync(join(root, 'busy'));
    let made = false;
    const waiting = pooled('busy', () => void (made = true), root);
    await new Promise((r) => setTimeout(r, 250));
    writeFileSync(join(root, 'busy', 'theirs.txt'), 'theirs');
    writeFileSync(join(root, 'busy.made'), '');
    expect(readFileSync(join(await waiting, 'theirs.txt'), 'utf8')).toBe('theirs');
    expect(made).toBe(false);
    // A dead maker's lock: the asker makes it itself.
    mkdirSync(join(root, 'orphan.making'));
    writeFileSync(join(root, 'orphan.making', 'pid'), String(DEAD));
    const dir = await pooled('orphan', (d) => writeFileSync(join(d, 'mine.txt'), 'mine'), root);
    expect(readFileSync(join(dir, 'mine.txt'), 'utf8')).toBe('mine');
    expect(existsSync(join(root, 'orphan.making'))).toBe(false);
  });

  it("fails every asker with the maker's message, and refuses a name that is not one", async () => {
    const root = scratch();
    await expect(pooled('broken', () => Promise.reject(new Error('no compiler')), root)).rejects.toThrow('no compiler');
    // Another worker asking later reads why.
    writeFileSync(join(root, 'theirs-broken.failed'), 'the build exited 1');
    await expect(pooled('theirs-broken', () => undefined, root)).rejects.toThrow('pool: theirs-broken could not be made: the build exited 1');
    expect(() => pooled('../out', () => undefined, root)).toThrow(/not a name/);
  });
});
