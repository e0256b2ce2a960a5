/**
 * A process's CPU time as the kernel counts it, read from outside: the first
 * field of /proc/<pid>/task/<tid>/schedstat (nanoseconds run) of every thread
 * of the process and of the processes below it. A case cannot change these
 * figures, and descheduling does not add to them, so they are what the host
 * holds a process's timed figures against. Linux only: elsewhere undefined.
 */
import { processTree } from './resident-memory.ts';
import { threadFiles } from './thread-files.ts';

/** Nanoseconds run so far, by "pid/tid". */
export type ThreadCpuTimes = ReadonlyMap<string, number>;

export function processTreeCpuTimes(root: number): ThreadCpuTimes | undefined {
  if (process.platform !== 'linux') return undefined;
  const times = new Map<string, number>();
  for (const pid of processTree(root)) {
    for (const [tid, text] of threadFiles(pid, 'schedstat')) {
      const ns = Number(text.slice(0, text.indexOf(' ')));
      if (Number.isFinite(ns)) times.set(`${pid}/${tid}`, ns);
    }
  }
  return times.size ? times : undefined;
}

/** CPU run between two readings: over every thread, and on the thread that ran the most. */
export interface CpuBetween {
  totalNs: number;
  busiestThreadNs: number;
}

/**
 * CPU run between two readings: each thread alive at the second, from its
 * first reading (0 for a thread started since). A thread that ended between
 * them is left out, so the figures err low, never below zero.
 */
export function cpuNsBetween(before: ThreadCpuTimes | undefined, after: ThreadCpuTimes | undefined): CpuBetween | undefined {
  if (!before || !after) return undefined;
  const run = { totalNs: 0, busiestThreadNs: 0 };
  for (const [thread, ns] of after) {
    const threadNs = Math.max(0, ns - (before.get(thread) ?? 0));
    run.totalNs += threadNs;
    run.busiestThreadNs = Math.max(run.busiestThreadNs, threadNs);
  }
  return run;
}
