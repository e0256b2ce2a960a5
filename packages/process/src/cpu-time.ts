/**
 * A process's CPU time as the kernel counts it, read from outside: the first
 * field of /proc/<pid>/task/<tid>/schedstat (nanoseconds run) summed over
 * every thread of the process and of the processes below it. A case cannot
 * change this figure, and descheduling does not add to it, so it is the
 * measure the host holds a process's timed figures against. Linux only:
 * elsewhere undefined.
 */
import { processTree } from './resident-memory.ts';
import { threadFiles } from './thread-files.ts';

export function processTreeCpuNs(root: number): number | undefined {
  if (process.platform !== 'linux') return undefined;
  let total = 0;
  let threads = 0;
  for (const pid of processTree(root)) {
    for (const [, text] of threadFiles(pid, 'schedstat')) {
      const ns = Number(text.slice(0, text.indexOf(' ')));
      if (!Number.isFinite(ns)) continue;
      total += ns;
      threads++;
    }
  }
  return threads ? total : undefined;
}
