/**
 * A server's threads between requests: their CPU times (read by
 * @rtbench/process) once they have gone idle, and a thread's name. Linux
 * only (the request measurer declares it).
 */
import { readFileSync } from 'node:fs';
import { threadCpuDeltas, threadCpuTimes, type ThreadCpuTimes } from '@rtbench/process';

type ThreadTimes = ThreadCpuTimes<number>;

/** A thread's name (its comm), or "" if it has ended. */
export function threadName(pid: number, tid: number): string {
  try {
    return readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * Each thread's CPU after a request (or wave), ns: from the read once the
 * threads were idle to the next request's start, less what the empty
 * handler's requests sent between them spent (each read on its own), never
 * below 0. Work the request left to run later (a collection's finishing,
 * a task the engine posted) lands here, not in the request's own reading.
 */
export function cpuAfter(idle: ThreadTimes, next: ThreadTimes, empties: readonly ReadonlyMap<number, number>[]): Map<number, number> {
  const out = threadCpuDeltas(idle, next);
  for (const empty of empties) for (const [tid, ns] of empty) if (out.has(tid)) out.set(tid, Math.max(0, out.get(tid)! - ns));
  return out;
}

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
  let times = threadCpuTimes(pid);
  for (let i = 0; i < maxPolls; i++) {
    await (i === 0 ? nextTurn() : sleep(1));
    const next = threadCpuTimes(pid);
    const idle = sameTimes(times, next) && noneRunnable(pid, next.keys());
    times = next;
    if (idle) return { times, settled: true };
  }
  return { times, settled: false };
}

/**
 * Waits, up to `withinMs`, until the process's threads are idle (as
 * readWhenIdle says): after a request that got no response, the server may
 * still be computing it, and that CPU belongs to no other request. Whether
 * they went idle in time.
 */
export async function waitUntilIdle(pid: number, withinMs: number): Promise<boolean> {
  const deadline = performance.now() + withinMs;
  do {
    if ((await readWhenIdle(pid, 20)).settled) return true;
  } while (performance.now() < deadline);
  return false;
}
