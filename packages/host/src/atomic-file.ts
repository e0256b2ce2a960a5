/**
 * Every file rtbench writes (runs, reports with -o and --html, profiles and
 * their manifest, merged runs, cached bundles) goes through here: written to
 * a temporary file beside the target, flushed, then renamed over it. A rename
 * within a directory is atomic, so a reader sees the old file or the new one,
 * never half of either, and a write that fails (a full disk, a read-only
 * directory, a crash) leaves the old file whole and no temporary behind.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Refusal } from '@rtbench/core/usage-error';

/** What a file is written from: its text, its bytes, or its text in parts (a report too large to hold as one string). */
export type FileText = string | Uint8Array | Iterable<string>;

/** The bytes of `text`, part by part. */
function* bytesOf(text: FileText): Generator<Uint8Array> {
  if (typeof text === 'string') yield Buffer.from(text);
  else if (text instanceof Uint8Array) yield text;
  else for (const part of text) yield Buffer.from(part);
}

/** Writes all of `bytes` at the file's position: one write may take only part of them. */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
}

/** The file operations a write uses (tests substitute a full disk or a failing rename). */
export interface FileIo {
  /** Creates a directory and its parents, if missing. */
  makeDirectory(path: string): void;
  /** Creates `path` (it must not exist) with permissions `mode`, writes all of `text` and flushes it to the disk. */
  write(path: string, text: FileText, mode: number): void;
  rename(from: string, to: string): void;
  remove(path: string): void;
}

export const diskIo: FileIo = {
  makeDirectory: (path) => void mkdirSync(path, { recursive: true }),
  write(path, text, mode) {
    const fd = openSync(path, 'wx', mode);
    try {
      for (const bytes of bytesOf(text)) writeAll(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  },
  rename: renameSync,
  remove: (path) => rmSync(path, { force: true }),
};

/** A write that failed: the target is as it was. `code` is the system's (ENOSPC, EACCES, …) when it gave one. */
export class FileWriteError extends Refusal {
  override readonly name = 'FileWriteError';
  constructor(
    readonly path: string,
    readonly code: string | undefined,
    readonly reason: string,
  ) {
    super(`could not write ${path} (${reason}); ${basename(path)} is as it was`);
  }
}

let written = 0;

/**
 * The temporary file beside `path`: a short name of its own (a long target
 * name never makes it too long), unique within this process and across
 * processes (two writes of one target at once each rename a whole file).
 */
const tempBeside = (path: string): string => join(dirname(path), `.rtbench-${process.pid}-${++written}.tmp`);

export interface WriteOptions {
  /** Permissions of the new file (before the umask): 0o644 unless said (the program cache's are 0o600). */
  mode?: number;
  io?: FileIo;
}

/** Writes `text` to `path` atomically, creating its directory; a FileWriteError when that cannot be done. */
export function writeFileAtomically(path: string, text: FileText, { mode = 0o644, io = diskIo }: WriteOptions = {}): void {
  const tmp = tempBeside(path);
  try {
    io.makeDirectory(dirname(path));
    io.write(tmp, text, mode);
    io.rename(tmp, path);
  } catch (error) {
    try {
      io.remove(tmp);
    } catch {
      /* nothing was created */
    }
    throw writeErrorOf(path, error);
  }
}

/**
 * Writes the parts `parts` makes as they come (a report read while it is
 * written) to `path` atomically, as writeFileAtomically does.
 */
export async function writeFileAtomicallyFrom(path: string, parts: AsyncIterable<string>, { mode = 0o644 }: Pick<WriteOptions, 'mode'> = {}): Promise<void> {
  const tmp = tempBeside(path);
  let fd: number | undefined;
  try {
    diskIo.makeDirectory(dirname(path));
    fd = openSync(tmp, 'wx', mode);
    for await (const part of parts) writeAll(fd, Buffer.from(part));
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    diskIo.rename(tmp, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    diskIo.remove(tmp);
    // A failure of what makes the parts is its own, not the file's.
    if ((error as NodeJS.ErrnoException).code === undefined) throw error;
    throw writeErrorOf(path, error);
  }
}

/** The FileWriteError of a write of `path` that failed with `error`, in words. */
function writeErrorOf(path: string, error: unknown): FileWriteError {
  const { code, message } = error as NodeJS.ErrnoException;
  return new FileWriteError(path, code, reasonOf(code, message));
}

/** What a system error means, in words, with its code. */
function reasonOf(code: string | undefined, message: string): string {
  const words: Record<string, string> = {
    ENOSPC: 'no space left on the device',
    EDQUOT: 'disk quota exceeded',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    EROFS: 'read-only file system',
    ENOENT: 'no such directory',
    ENOTDIR: 'a part of the path is not a directory',
    EISDIR: 'it is a directory',
    ENAMETOOLONG: 'the name is too long',
    EIO: 'input/output error',
    EFBIG: 'larger than this process may write',
  };
  if (code && Object.hasOwn(words, code)) return `${words[code]}, ${code}`;
  return code ?? message.split('\n')[0]!;
}
