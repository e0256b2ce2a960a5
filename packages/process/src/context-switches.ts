/**
 * A process's context switches as the kernel counts them, per thread, read
 * from outside: `voluntary_ctxt_switches` (the thread blocked — a wait on a
 * socket, a lock, a timer — and ran again only when woken: each is one
 * wake-up) and `nonvoluntary_ctxt_switches` (the scheduler took its core
 * while it could still run) in /proc/<pid>/task/<tid>/status. An event loop
 * that waits once per request wakes once per request; one that finds
 * several requests ready at each turn wakes less. Linux only: elsewhere
 * there is no reading.
 */
import { threadFiles } from './thread-files.ts';

export interface ContextSwitches {
  voluntary: number;
  nonvoluntary: number;
}

const VOLUNTARY = /^voluntary_ctxt_switches:\s*(\d+)\s*$/m;
const NONVOLUNTARY = /^nonvoluntary_ctxt_switches:\s*(\d+)\s*$/m;

/** Both counts from a thread's status file; undefined when either line is missing (a kernel that does not keep them). */
export function parseContextSwitches(status: string): ContextSwitches | undefined {
  const voluntary = VOLUNTARY.exec(status)?.[1];
  const nonvoluntary = NONVOLUNTARY.exec(status)?.[1];
  return voluntary === undefined || nonvoluntary === undefined ? undefined : { voluntary: Number(voluntary), nonvoluntary: Number(nonvoluntary) };
}

/** One process's threads' switches so far, by tid; a thread that ended between listing and reading is left out. */
export function threadContextSwitches(pid: number): Map<number, ContextSwitches> {
  const counts = new Map<number, ContextSwitches>();
  for (const [tid, text] of threadFiles(pid, 'status')) {
    const parsed = parseContextSwitches(text);
    if (parsed) counts.set(tid, parsed);
  }
  return counts;
}

/**
 * Switches each thread made between two readings: each thread alive at the
 * second, from its first reading (from 0 for a thread started since). A
 * thread that ended between them is left out, so the figures err low.
 */
export function contextSwitchDeltas<Thread>(before: ReadonlyMap<Thread, ContextSwitches>, after: ReadonlyMap<Thread, ContextSwitches>): Map<Thread, ContextSwitches> {
  const deltas = new Map<Thread, ContextSwitches>();
  for (const [thread, now] of after) {
    const then = before.get(thread) ?? { voluntary: 0, nonvoluntary: 0 };
    deltas.set(thread, { voluntary: Math.max(0, now.voluntary - then.voluntary), nonvoluntary: Math.max(0, now.nonvoluntary - then.nonvoluntary) });
  }
  return deltas;
}
