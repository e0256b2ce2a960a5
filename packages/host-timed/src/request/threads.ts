/**
 * A process's threads' CPU time, read from outside: the first field of
 * /proc/<pid>/task/<tid>/schedstat, the nanoseconds the thread has run. The
 * kernel brings it up to date when the thread stops running, so a thread
 * that is blocked reads exactly; the host reads between requests, once the
 * threads have gone idle. Linux only (the request measurer declares it).
 */
import { readFileSync } from 'node:fs';
import { threadFiles } from '@rtbench/process';

/** Nanoseconds run, by thread id. */
export type ThreadTimes = Map<number, number>;

/** Every thread's CPU time now; a thread that ended between listing and reading is left out. */
export function readThreadTimes(pid: number): ThreadTimes {
  return new Map(threadFiles(pid, 'schedstat').map(([tid, text]) => [tid, Number(text.split(' ')[0])]));
}

/** A thread's name (its comm), or "" if it has ended. */
export function threadName(pid: number, tid: number): string {
  try {
    return readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** CPU time each thread spent from `before` to `after`, ns (a thread new since `before` counts from 0). */
export function threadDeltas(before: ThreadTimes, after: ThreadTimes): Map<number, number> {
  const out = new Map<number, number>();
  for (const [tid, ns] of after) out.set(tid, ns - (before.get(tid) ?? 0));
  return out;
}

export const sumOf = (deltas: ReadonlyMap<number, number>): number => [...deltas.values()].reduce((a, b) => a + b, 0);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Whether no thread of the process is running or waiting to run (state R in /proc/<pid>/task/<tid>/stat). */
function noneRunnable(pid: number, tids: Iterable<number>): boolean {
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // The state follows the command name, which is in parentheses and may hold spaces.
      if (stat[stat.lastIndexOf(')') + 2] === 'R') return false;
    } catch {
      // Ended: it runs no more.
    }
  }
  return true;
}

const sameTimes = (a: ThreadTimes, b: ThreadTimes): boolean => a.size === b.size && [...a].every(([tid, ns]) => b.get(tid) === ns);

/**
 * The threads' times once they are idle: no thread runnable and no time
 * moved between two reads (first a moment apart, then about a millisecond
 * apart), or after `maxPolls` polls; `settled` says which. A thread still
 * running then (a helper thread's long GC task) counts up to the read.
 */
export async function readWhenIdle(pid: number, maxPolls: number): Promise<{ times: ThreadTimes; settled: boolean }> {
  let times = readThreadTimes(pid);
  for (let i = 0; i < maxPolls; i++) {
    await (i === 0 ? nextTurn() : sleep(1));
    const next = readThreadTimes(pid);
    const idle = sameTimes(times, next) && noneRunnable(pid, next.keys());
    times = next;
    if (idle) return { times, settled: true };
  }
  return { times, settled: false };
}
