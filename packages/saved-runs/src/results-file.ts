/**
 * Run files as files: where a run is saved (a name no other run holds,
 * claimed at once), whether an output can be written, and a file's text read
 * strictly (regular, bounded, unpacked when gzip's). What a run holds is
 * checked by validate-run.ts.
 */
import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { refuseLinkOrInput } from './output-place.ts';
import { basename, dirname, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { RunRecord } from '@rtbench/core/schema';
import { UsageError } from '@rtbench/core/usage-error';
import { formatByteSize } from '@rtbench/core/byte-size';
import { fileStamp } from '@rtbench/host/files';

/** `<dir>/<stamp>-<suite>[-compare].json`; a suite named by its path ("test/fixtures/tiny/index.ts") gives one file name, not folders. */
export function defaultResultsPath(run: Pick<RunRecord, 'startedAt' | 'suite' | 'mode'>, resultsDir: string): string {
  const stamp = fileStamp(run.startedAt);
  const name = run.suite.replace(/[^A-Za-z0-9._@-]+/g, '_').replace(/^[._]+/, '') || 'suite';
  return join(resultsDir, `${stamp}-${name}${run.mode === 'compare' ? '-compare' : ''}.json`);
}

/**
 * A results path no other run holds: `path`, or `<name>-2.json`, `-3`, …,
 * claimed at once by creating the file empty (O_EXCL), so two runs started in
 * the same second never save over each other. The caller removes the claim
 * if it ends before the first save (releaseUnsaved).
 */
export function claimResultsPath(path: string): string {
  mkdirSync(dirname(path), { recursive: true });
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? path : path.replace(/\.json$/, `-${n}.json`);
    try {
      closeSync(openSync(candidate, 'wx'));
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 1000) throw error;
    }
  }
}

/** Removes a claimed path that never received a run (still empty). */
export function releaseUnsaved(path: string): void {
  try {
    if (statSync(path).size === 0) rmSync(path, { force: true });
  } catch {
    /* gone already */
  }
}

/**
 * Checks, before anything runs, that a run can be saved at `path` (--save):
 * not a directory, in a directory that exists, writable. A UsageError
 * otherwise, so a mistake costs nothing measured.
 */
export function assertWritableOutput(path: string, option = '--save', inputs: readonly string[] = []): void {
  // `-o -` is stdout, which the caller handles; any other option names a file.
  if (path === '-') throw new UsageError(`${option} -: name a file (only -o - means stdout)`);
  const full = resolve(path);
  refuseLinkOrInput(path, option, inputs);
  const kind = (p: string): 'file' | 'dir' | 'other' | undefined => {
    try {
      const s = statSync(p);
      return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : 'other';
    } catch {
      return undefined;
    }
  };
  const here = kind(full);
  if (here === 'file' && option === '--save' && !holdsRunOrNothing(full)) {
    throw new UsageError(`--save ${path} already holds something that is not an rtbench run; refusing to overwrite it (name another file, or remove it)`);
  }
  if (here === 'dir') throw new UsageError(`${option} ${path} is a directory; name a file, e.g. ${join(path, 'run.json')}`);
  if (here === 'other') throw new UsageError(`${option} ${path} is not a regular file`);
  // NAME_MAX on Linux and macOS: a longer name fails only when the run is saved.
  if (Buffer.byteLength(basename(full)) > 255) throw new UsageError(`${option}: the file name is longer than 255 bytes, which the file system refuses`);
  const parent = dirname(full);
  const parentKind = kind(parent);
  if (parentKind !== 'dir') {
    // The nearest part of the path that exists says what is wrong: a file where a directory is needed, or nothing there.
    let existing = parent;
    while (kind(existing) === undefined && dirname(existing) !== existing) existing = dirname(existing);
    if (kind(existing) !== 'dir') throw new UsageError(`${option} ${path}: ${existing} is a file, not a directory`);
    throw new UsageError(`${option} ${path}: the directory ${parent} does not exist`);
  }
  // Tried, not read from permission bits (root passes those, and a read-only file system has none to read): the
  // output is written to a temporary file beside it and renamed, so a file must be creatable there; an existing
  // file is opened for writing without truncating it.
  tryCreatingIn(parent, `${option} ${path}`);
  if (here === 'file') {
    try {
      closeSync(openSync(full, constants.O_WRONLY));
    } catch (error) {
      throw new UsageError(`${option} ${path}: the file cannot be written (${whyNotWritable(error, parent)})`);
    }
  }
}

/** Why a file could not be created or opened for writing, in words. */
export function whyNotWritable(error: unknown, dir: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EROFS') return `${dir} is on a read-only file system`;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'the disk is full';
  if (code === 'ENOENT') return 'it takes no new files, as /proc does';
  return code ?? (error as Error).message;
}

/** Creates and removes a probe file in `dir`, or says in one line why it cannot. */
export function tryCreatingIn(dir: string, what: string): void {
  const probe = join(dir, `.rtbench-probe-${process.pid}-${Math.random().toString(36).slice(2)}`);
  try {
    closeSync(openSync(probe, 'wx'));
  } catch (error) {
    throw new UsageError(`${what}: no file can be created in ${dir} (${whyNotWritable(error, dir)})`);
  }
  rmSync(probe, { force: true });
}

/** A text without the byte-order mark an editor may put first (JSON.parse refuses it; it says nothing of the JSON). */
const withoutBom = (text: string): string => (text.startsWith('\uFEFF') ? text.slice(1) : text);

/** Whether a file is empty or an rtbench run (a file --save may replace). */
function holdsRunOrNothing(path: string): boolean {
  try {
    // A run saved compressed (.json.gz) is the run it holds.
    const text = withoutBom(readRegularFile(path));
    if (text.trim() === '') return true;
    return (JSON.parse(text) as { schema?: unknown }).schema === 'rtbench.run';
  } catch {
    return false;
  }
}

/** Reads a JSON file (a leading byte-order mark passed over); a missing, empty or corrupt file is a UsageError with a plain message. */
export function readJsonFile(path: string): unknown {
  const text = withoutBom(readRegularFile(path));
  try {
    return JSON.parse(text);
  } catch (error) {
    const why = text.trim() === '' ? 'the file is empty' : (error as Error).message;
    throw new UsageError(`${path} is not valid JSON (truncated or corrupt?): ${why}`);
  }
}

/**
 * The most bytes of a file rtbench reads: far past any run it saves (a
 * round's answers are bounded to a few MiB), and below the longest string
 * JavaScript holds (about 512 MiB), past which reading would fail anyway
 * after holding the whole file.
 */
const MOST_FILE_BYTES = 256 * 2 ** 20;

/** gzip's magic bytes: a run saved compressed (`gzip results/*.json`) is read as the JSON it holds, whatever its name. */
const isGzip = (bytes: Buffer): boolean => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

/**
 * A file's text (unpacked, when it is gzip's), refused in one line (a UsageError) unless it is a regular
 * file of at most `mostBytes`: it is opened without blocking and checked on
 * the open file, so a FIFO or a device named `*.json` neither blocks rtbench
 * nor feeds it forever, and a file too large is refused by its size, unread
 * (a compressed one also when it unpacks to more).
 */
export function readRegularFile(path: string, mostBytes: number = MOST_FILE_BYTES): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new UsageError(`${path} is a directory, not a run file`);
    if (!stat.isFile()) throw new UsageError(`${path} is not a regular file`);
    const tooLarge = (size: string): UsageError => new UsageError(`${path} is ${size}, more than the ${formatByteSize(mostBytes)} rtbench reads of a file; not read`);
    if (stat.size > mostBytes) throw tooLarge(formatByteSize(stat.size));
    const bytes = readFileSync(fd);
    if (!isGzip(bytes)) return bytes.toString('utf8');
    try {
      return gunzipSync(bytes, { maxOutputLength: mostBytes }).toString('utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge('more when unpacked');
      throw new UsageError(`${path} is not a readable gzip file (truncated or corrupt?): ${(error as Error).message}`);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
