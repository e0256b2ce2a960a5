/**
 * Whether a file rtbench is about to execute lies in folders only we (or
 * root) control. A runtime binary in a cache another user owns, or in a
 * folder anyone may write to, is that user's program: rtbench, maybe run as
 * root, would run it and record its hash as the runtime's. The program cache
 * holds the same rule for the programs it hands a runtime (program-cache.ts).
 */
import { lstatSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';

export interface Who {
  /** Owners whose files are trusted: ours and root's. */
  owners: readonly number[];
  /** Groups whose write permission is ours too. */
  groups: readonly number[];
}

function currentUser(): Who {
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  return { owners: uid === undefined ? [] : [...new Set([uid, 0])], groups: gid === undefined ? [] : [gid] };
}

/** The first path that is not trusted, and why, in words that follow the path. */
export interface Untrusted {
  path: string;
  why: string;
}

/**
 * Why `file` must not be run, or undefined when every path from `top` down to
 * it (each folder, and the file) is owned by a trusted user and writable by
 * no one else. A file whose real path leaves `top` (a symbolic link out) is
 * refused too. On a platform without user ids (Windows) nothing is checked.
 */
export function untrustedPath(top: string, file: string, who: Who = currentUser()): Untrusted | undefined {
  if (!who.owners.length) return undefined;
  let realTop: string;
  let realFile: string;
  try {
    realTop = realpathSync(top);
    realFile = realpathSync(file);
  } catch (error) {
    return { path: file, why: `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  const rel = relative(realTop, realFile);
  if (rel.startsWith('..') || isAbsolute(rel)) return { path: file, why: `leads out of ${top} (to ${realFile})` };
  let path = realTop;
  for (const part of ['', ...rel.split(sep).filter(Boolean)]) {
    path = part ? join(path, part) : path;
    const stat = lstatSync(path);
    if (!who.owners.includes(stat.uid)) return { path, why: `belongs to another user (uid ${stat.uid})` };
    if (stat.mode & 0o002) return { path, why: 'is writable by every user' };
    if (stat.mode & 0o020 && !who.groups.includes(stat.gid)) return { path, why: `is writable by group ${stat.gid}, not ours` };
  }
  return undefined;
}
