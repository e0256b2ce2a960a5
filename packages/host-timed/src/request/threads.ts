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

/** Whether a thread of the process is running or waiting to run (state R in /proc/<pid>/task/<tid>/stat). */
function anyRunnable(pid: number, tids: Iterable<number>): boolean {
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // The state follows the command name, which is in parentheses and may hold spaces.
      if (stat[stat.lastIndexOf(')') + 2] === 'R') return true;
    } catch {
      // Ended: it runs no more.
    }
  }
  return false;
}

const sameTimes = (a: ThreadTimes, b: ThreadTimes): boolean => a.size === b.size && [...a].every(([tid, ns]) => b.get(tid) === ns);

/** What readWhenIdle reads of a process: its threads' times, and whether any of them is runnable. */
export interface ThreadsView {
  times(): ThreadTimes;
  anyRunnable(tids: Iterable<number>): boolean;
}

const procView = (pid: number): ThreadsView => ({ times: () => threadCpuTimes(pid), anyRunnable: (tids) => anyRunnable(pid, tids) });

/**
 * The threads' times once they are idle, or after `maxPolls` polls; `settled`
 * says which. Idle: no time moved between two reads (first a moment apart,
 * then about a millisecond apart), no thread runnable after the second, and
 * no time moved while the states were read. The last read closes a race: the
 * states are read one thread at a time, so a thread seen asleep (V8's main
 * thread waiting on a collection's helper) may be woken by one that runs,
 * finishes and sleeps before its own state is read; that run moves its time.
 * A thread still running at the last poll (a helper's long GC task) counts up
 * to the read.
 */
export async function readWhenIdle(pid: number, maxPolls: number, view: ThreadsView = procView(pid)): Promise<{ times: ThreadTimes; settled: boolean }> {
  let times = view.times();
  for (let i = 0; i < maxPolls; i++) {
    await (i === 0 ? nextTurn() : sleep(1));
    const next = view.times();
    const idle = sameTimes(times, next) && !view.anyRunnable(next.keys());
    times = idle ? view.times() : next;
    if (idle && sameTimes(next, times)) return { times, settled: true };
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
