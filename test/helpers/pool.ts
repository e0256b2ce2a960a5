/**
 * The fixture pool: what several test files need and is costly to make (a
 * profiled run, a built app, an installed set), made once per test run by
 * the first file that asks, in a folder of the run's temporary root, which
 * test/helpers/temp-root.ts removes when the run ends. A file that asks
 * while another makes it waits for it; a failure to make it fails every file
 * that asked, with the maker's message. vitest runs files in worker
 * processes, so the pool is the file system: a lock folder holds the
 * maker's pid, and a maker that died leaves its lock to the next asker.
 *
 *   const dir = await pooled('flame-run', (dir) => makeTheRunIn(dir));
 *
 * What a pooled folder holds is read, never changed: every file that asked
 * shares it.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pidAlive } from '@rtbench/process';
import { poolRoot } from './pool-root.ts';

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/** Made ones, per process: a second ask in one worker reads no file. */
const made = new Map<string, Promise<string>>();

/** The folder `name` names in the pool, made by `make` once per test run. */
export function pooled(name: string, make: (dir: string) => Promise<void> | void, root = poolRoot()): Promise<string> {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) throw new Error(`pool: "${name}" is not a name of lower-case letters, digits and dashes`);
  const key = join(root, name);
  const known = made.get(key);
  if (known) return known;
  const p = take(root, name, make);
  made.set(key, p);
  return p;
}

async function take(root: string, name: string, make: (dir: string) => Promise<void> | void): Promise<string> {
  const dir = join(root, name);
  const lock = `${dir}.making`;
  const done = `${dir}.made`;
  const failed = `${dir}.failed`;
  mkdirSync(root, { recursive: true });
  for (;;) {
    if (existsSync(done)) return dir;
    const why = read(failed);
    if (why !== undefined) throw new Error(`pool: ${name} could not be made: ${why}`);
    let mine = false;
    try {
      mkdirSync(lock);
      mine = true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (mine) {
      writeFileSync(join(lock, 'pid'), String(process.pid));
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir);
      try {
        await make(dir);
      } catch (e) {
        writeFileSync(failed, e instanceof Error ? e.message : String(e));
        rmSync(lock, { recursive: true, force: true });
        throw e;
      }
      writeFileSync(done, '');
      rmSync(lock, { recursive: true, force: true });
      return dir;
    }
    // Another process makes it: wait, unless it died (its pid gone) before saying so.
    const pid = Number(read(join(lock, 'pid')));
    if (pid > 0 && !pidAlive(pid) && !existsSync(done) && !existsSync(failed)) rmSync(lock, { recursive: true, force: true });
    else await new Promise((r) => setTimeout(r, 100));
  }
}
