/**
 * Facts read out of a large file (a runtime binary's sha256, the literals
 * found in it), remembered on disk per file identity: otherwise every CLI
 * start that resolves the runtimes reads hundreds of MB of binaries again
 * (what it cost: docs/measurements/runtimes.md). The identity is the
 * path, device, inode, size, mtime and ctime: a binary replaced or
 * rewritten in place gets a new ctime, so a remembered fact is never one of
 * other bytes. A cache that cannot be read or written is skipped; the fact
 * is then computed as before.
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where facts are kept; none (computed every time) until the CLI names its cache (rememberFactsIn). */
let factsDir: string | undefined;

/** Keep facts in `dir` (the CLI: its cache folder's file-facts). */
export function rememberFactsIn(dir: string | undefined): void {
  factsDir = dir;
}

/** The folder, made if missing; none when it is not ours alone (a fact read from it is recorded in saved runs). */
function usableDir(): string | undefined {
  if (!factsDir) return undefined;
  try {
    mkdirSync(factsDir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(factsDir);
    const ours = stat.isDirectory() && (process.getuid === undefined || stat.uid === process.getuid()) && (stat.mode & 0o022) === 0;
    return ours ? factsDir : undefined;
  } catch {
    return undefined;
  }
}

/** The file's identity and the fact's name, as one file name. */
function entryName(path: string, fact: string): string {
  const s = statSync(path, { bigint: true });
  const identity = [path, s.dev, s.ino, s.size, s.mtimeNs, s.ctimeNs, fact].join('\u0000');
  return `${createHash('sha256').update(identity).digest('hex').slice(0, 32)}.json`;
}

/**
 * The fact `fact` of the file at `path`: remembered, or computed and
 * remembered. `isFact` checks what was read back (a cache written by another
 * version of rtbench may hold another shape).
 */
export async function rememberedFact<T>(path: string, fact: string, compute: () => Promise<T>, isFact: (value: unknown) => value is T): Promise<T> {
  const dir = usableDir();
  if (!dir) return compute();
  const name = entryName(path, fact);
  try {
    const value: unknown = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    if (isFact(value)) return value;
  } catch {
    // Not remembered yet, or unreadable: computed below.
  }
  const value = await compute();
  try {
    // Written whole under another name, then renamed: a reader never sees half an entry.
    const partial = join(dir, `${name}.${process.pid}.partial`);
    writeFileSync(partial, JSON.stringify(value), { mode: 0o600 });
    renameSync(partial, join(dir, name));
  } catch {
    // A cache that cannot be written costs the next start the same read.
  }
  return value;
}
