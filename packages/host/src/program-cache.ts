/**
 * The one cache of programs rtbench hands a runtime (suite bundles, start-up
 * programs, servers, brought-over files' entries): every such file is stored
 * here and nowhere else, so one set of rules keeps what runs honest. Folders
 * are the user's own (created 0700; one owned by another user or writable by
 * others is refused: whoever could write there would decide what is measured);
 * a file is named by the sha256 of its bytes and reused only if they still
 * hash to it; writes go to a temporary file renamed over the target, so a
 * concurrent run never starts a half-written program.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UnsafeCacheError } from '@rtbench/core/usage-error';
import { writeFileAtomically } from './atomic-file.ts';

/** Hex digits of the sha256 in a cached file's name: 64 bits, plenty to tell versions of one program apart. */
const NAME_HASH_DIGITS = 16;

/**
 * Another version of a program (same folder, stem and extension) unused for
 * this long is removed when a new one is stored: each change to rtbench's or
 * a suite's sources makes new bundles, and the old ones would pile up. A week
 * is far longer than any run, so no run loses a program it started with.
 */
export const UNUSED_PROGRAM_MS = 7 * 24 * 3600 * 1000;


export function contentHash(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, NAME_HASH_DIGITS);
}

/** Makes `dir` (and its missing parents) owner-only, or refuses a folder another user could write into. */
export function ownerOnlyDir(dir: string): void {
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) throw new UnsafeCacheError(`${dir} is not a folder: rtbench keeps the programs it runs there`, dir);
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) {
    throw new UnsafeCacheError(`${dir} belongs to another user (uid ${stat.uid}): rtbench will not run programs from a folder someone else controls`, dir);
  }
  // Ours: tighten it (an older rtbench, or a umask, may have left it group- or world-writable).
  if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

export interface CachedProgram {
  path: string;
  /** NAME_HASH_DIGITS hex digits of the sha256 of its bytes. */
  hash: string;
}

/**
 * Stores `bytes` as `<dir>/<stem>-<hash><ext>` and returns its path. A file
 * already under that name is kept only if it still holds these bytes.
 */
export function storeProgram(dir: string, stem: string, ext: string, bytes: Uint8Array | string): CachedProgram {
  ownerOnlyDir(dir);
  const hash = contentHash(bytes);
  const safeStem = stem.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
  const path = join(dir, `${safeStem}-${hash}${ext}`);
  if (!existsSync(path)) {
    writeAtomically(path, bytes);
    removeUnusedVersions(dir, safeStem, ext, Date.now());
  } else if (contentHash(readFileSync(path)) !== hash) writeAtomically(path, bytes);
  // Its time says when it was last used, which is what removeUnusedVersions reads.
  else touch(path);
  return { path, hash };
}

/** Removes `<stem>-<hash><ext>` files of `dir` last used (stored or reused) more than UNUSED_PROGRAM_MS before `now`. */
function removeUnusedVersions(dir: string, stem: string, ext: string, now: number): void {
  const version = new RegExp(`^${stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-[0-9a-f]{${NAME_HASH_DIGITS}}${ext.replace(/[.]/g, '\\.')}$`);
  for (const name of readdirSync(dir)) {
    if (!version.test(name)) continue;
    const file = join(dir, name);
    try {
      if (now - statSync(file).mtimeMs > UNUSED_PROGRAM_MS) rmSync(file, { force: true });
    } catch {
      // Removed meanwhile by another run: nothing to do.
    }
  }
}

function touch(path: string): void {
  const now = new Date();
  try {
    utimesSync(path, now, now);
  } catch {
    // A file we may read but not touch keeps its time: it is only removed sooner.
  }
}

/** The program cache's folder of generated modules: sources a suite writes in the run, which the bundler then reads. */
const GENERATED = 'generated';

/**
 * Stores a generated module's `source` in the program cache's folder of them,
 * named by its hash, and returns its path: the same source has the same path
 * in every run, so the bundle that names it is named by its hash too. The
 * folder is taken only as it is found, ours and owner-only (never tightened,
 * unlike the others): a module there is bundled and run, and a folder someone
 * else could write into may already hold a link of theirs.
 */
export function storeGeneratedModule(programDir: string, stem: string, source: string): string {
  ownerOnlyDir(programDir);
  const dir = join(programDir, GENERATED);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = lstatSync(dir);
  const uid = process.getuid?.() ?? stat.uid;
  if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) {
    const found = stat.isDirectory() ? `owner uid ${stat.uid}, mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}` : 'not a folder';
    throw new UnsafeCacheError(`${dir} is not this user's own owner-only folder (${found}): rtbench bundles and runs the modules it generates there; remove it and rtbench makes it again`, dir);
  }
  return storeProgram(dir, stem, '.mjs', source).path;
}

/** Stores `text` under a fixed name (an entry whose content is decided by its inputs): rewritten whenever it differs. */
export function storeNamedFile(path: string, text: string): string {
  ownerOnlyDir(dirname(path));
  if (!existsSync(path) || readFileSync(path, 'utf8') !== text) writeAtomically(path, text);
  return path;
}

/** Owner-only, written beside and renamed over (atomic-file.ts). */
function writeAtomically(path: string, bytes: Uint8Array | string): void {
  writeFileAtomically(path, bytes, { mode: 0o600 });
}
