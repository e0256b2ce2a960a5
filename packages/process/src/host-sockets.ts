/**
 * The Unix sockets bound on paths on this host, which a contained step must
 * not reach (contained-step.ts): a socket on a path is a file, not an
 * address, so a network namespace does not hold it and a read-only mount
 * does not stop a connect. The kernel lists each network namespace's
 * sockets in /proc/<pid>/net/unix; one process of each namespace this user
 * can see is read, so a container's sockets under /var/lib are found with
 * the host's own.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** A line of /proc/net/unix: `Num: RefCount Protocol Flags Type St Inode Path`; the path, absent for an unbound or abstract socket, is the rest of the line. */
const LINE = /^\s*[0-9a-fA-F]+: (?:\S+ ){6}(\/.*)$/;

/** The absolute paths a /proc/net/unix text names, each once. */
export function socketPathsIn(text: string): string[] {
  return [...new Set(text.split('\n').flatMap((line) => LINE.exec(line)?.[1] ?? []))];
}

/** Whether `path` is `folder` or lies beneath it. */
const within = (path: string, folder: string): boolean => path === folder || path.startsWith(folder.endsWith('/') ? folder : `${folder}/`);

/** The socket paths bound by any process this user can see, but those beneath `own` (a step's own folders). */
export function hostSocketPaths(own: readonly string[]): string[] {
  const namespaces = new Set<string>();
  const paths = new Set<string>();
  for (const pid of ['self', ...readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))]) {
    try {
      const namespace = readlinkSync(`/proc/${pid}/ns/net`);
      if (namespaces.has(namespace)) continue;
      namespaces.add(namespace);
      for (const path of socketPathsIn(readFileSync(`/proc/${pid}/net/unix`, 'utf8'))) paths.add(path);
    } catch {
      // Gone, or another user's.
    }
  }
  return [...paths].filter((path) => !own.some((folder) => within(path, folder)));
}
