/**
 * A process's CPU time as the kernel counts it, read from outside: the first
 * field of /proc/<pid>/task/<tid>/schedstat (nanoseconds run) of each thread.
 * A case cannot change these figures, and descheduling does not add to them,
 * so they are what the host holds a process's timed figures against. The
 * kernel brings a thread's figure up to date when it stops running, so a
 * blocked thread reads exactly. Linux only: elsewhere there is no reading.
 */
import { readFileSync } from 'node:fs';
import { processTree } from './process-tree.ts';
import { threadFiles } from './thread-files.ts';

/** Nanoseconds run so far, by thread ("pid/tid" over a process tree, the tid within one process). */
export type ThreadCpuTimes<Thread = string> = ReadonlyMap<Thread, number>;

/** One process's threads, by tid; a thread that ended between listing and reading is left out. */
export function threadCpuTimes(pid: number): Map<number, number> {
  const times = new Map<number, number>();
  for (const [tid, text] of threadFiles(pid, 'schedstat')) {
    const schedule = scheduleOf(text);
    if (schedule !== undefined) times.set(tid, schedule.runNs);
  }
  return times;
}

/**
 * What the kernel counts for one thread: the nanoseconds it ran, and the
 * nanoseconds it waited on a run queue for a core (schedstat's second field;
 * a wait still going on is counted once the thread runs again).
 */
export interface ThreadSchedule {
  runNs: number;
  waitNs: number;
}

/**
 * The main thread's (tid = pid) schedule so far: one file, cheap enough to
 * read around every lockstep exchange. Undefined off Linux or once the
 * process is gone.
 */
export function mainThreadSchedule(pid: number | undefined): ThreadSchedule | undefined {
  if (pid === undefined || process.platform !== 'linux') return undefined;
  try {
    return scheduleOf(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'latin1'));
  } catch {
    return undefined;
  }
}

/** What a thread's schedule grew by between two readings; undefined when either is missing. */
export function scheduleBetween(before: ThreadSchedule | undefined, after: ThreadSchedule | undefined): ThreadSchedule | undefined {
  if (before === undefined || after === undefined) return undefined;
  return { runNs: Math.max(0, after.runNs - before.runNs), waitNs: Math.max(0, after.waitNs - before.waitNs) };
}

/** A thread's schedstat line: its first field the nanoseconds it ran, its second those it waited for a core. */
function scheduleOf(schedstat: string): ThreadSchedule | undefined {
  const [run, wait] = schedstat.split(' ', 2).map(Number);
  return Number.isFinite(run) && Number.isFinite(wait) ? { runNs: run!, waitNs: wait! } : undefined;
}

/** Every thread of a process and of the processes below it; undefined off Linux or once it is gone. */
export function processTreeCpuTimes(root: number): ThreadCpuTimes | undefined {
  if (process.platform !== 'linux') return undefined;
  const times = new Map<string, number>();
  for (const pid of processTree(root)) {
    for (const [tid, ns] of threadCpuTimes(pid)) times.set(`${pid}/${tid}`, ns);
  }
  return times.size ? times : undefined;
}

/**
 * CPU each thread ran between two readings: each thread alive at the second,
 * from its first reading (0 for a thread started since). A thread that ended
 * between them is left out, so the figures err low, never below zero.
 */
export function threadCpuDeltas<Thread>(before: ThreadCpuTimes<Thread>, after: ThreadCpuTimes<Thread>): Map<Thread, number> {
  const deltas = new Map<Thread, number>();
  for (const [thread, ns] of after) deltas.set(thread, Math.max(0, ns - (before.get(thread) ?? 0)));
  return deltas;
}

/**
 * CPU run between two readings: over every thread, and on the busiest main
 * thread (tid = pid) of the tree. The main thread is where node, deno, bun
 * and workerd run JavaScript, so it is the thread a process's own clock
 * times; the engine's compilers and collector run on threads of their own,
 * and a compiler thread can outrun the main thread over a short set.
 */
export interface CpuBetween {
  totalNs: number;
  mainThreadNs: number;
}

/** Nanoseconds over every thread of per-thread deltas. */
export function totalCpuNs(deltas: ThreadCpuTimes<unknown>): number {
  let total = 0;
  for (const ns of deltas.values()) total += ns;
  return total;
}

/** Whether a "pid/tid" key of processTreeCpuTimes names a process's main thread. */
const isMainThread = (thread: string): boolean => {
  const [pid, tid] = thread.split('/');
  return pid === tid;
};

/** CPU run between two readings of a process tree (see threadCpuDeltas); undefined when either reading is missing. */
export function cpuNsBetween(before: ThreadCpuTimes | undefined, after: ThreadCpuTimes | undefined): CpuBetween | undefined {
  if (!before || !after) return undefined;
  const deltas = threadCpuDeltas(before, after);
  let mainThreadNs = 0;
  for (const [thread, ns] of deltas) if (isMainThread(thread)) mainThreadNs = Math.max(mainThreadNs, ns);
  return { totalNs: totalCpuNs(deltas), mainThreadNs };
}
