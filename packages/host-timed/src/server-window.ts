/**
 * What a server's threads did over a load window, read by the host from
 * /proc before and after it (@rtbench/process): the CPU they ran and the
 * context switches they made, on the JavaScript thread and over all
 * threads, and each per request served. Wake-ups per request (voluntary
 * switches) say why CPU per request moves with the connection count: a
 * server that waits for each request pays a wake-up and a turn of its event
 * loop per request, one that finds several waiting pays it once for them
 * all. Preemptions (nonvoluntary switches) are kept apart: they count the
 * times the core was taken from a thread that could still run.
 */
import { contextSwitchDeltas, threadContextSwitches, threadCpuDeltas, threadCpuTimes, totalCpuNs, type ContextSwitches } from '@rtbench/process';
import type { MetricKey } from './suite.ts';

export interface ServerThreads {
  cpuNs: ReadonlyMap<number, number>;
  switches: ReadonlyMap<number, ContextSwitches>;
}

/** One reading of a process's threads. */
export function readServerThreads(pid: number): ServerThreads {
  return { cpuNs: threadCpuTimes(pid), switches: threadContextSwitches(pid) };
}

/** The window's totals: on the JavaScript thread, and over all threads (a thread that ended during it left out). */
export interface ServerWindow {
  jsThreadNs: number;
  allThreadsNs: number;
  jsWakeups: number;
  allWakeups: number;
  allPreemptions: number;
}

export function serverWindow(before: ServerThreads, after: ServerThreads, jsTid: number): ServerWindow {
  const cpu = threadCpuDeltas(before.cpuNs, after.cpuNs);
  const switches = contextSwitchDeltas(before.switches, after.switches);
  const sum = (key: keyof ContextSwitches): number => [...switches.values()].reduce((total, s) => total + s[key], 0);
  const js = switches.get(jsTid);
  return { jsThreadNs: cpu.get(jsTid) ?? 0, allThreadsNs: totalCpuNs(cpu), jsWakeups: js?.voluntary ?? 0, allWakeups: sum('voluntary'), allPreemptions: sum('nonvoluntary') };
}

/** The window's figures over the requests it served: CPU in ms, switches as counts. */
export function perRequest(window: ServerWindow, requests: number): Partial<Record<MetricKey, number>> {
  return {
    serverCpuJsMs: window.jsThreadNs / requests / 1e6,
    serverCpuMs: window.allThreadsNs / requests / 1e6,
    serverWakeupsJs: window.jsWakeups / requests,
    serverWakeups: window.allWakeups / requests,
    serverPreemptions: window.allPreemptions / requests,
  };
}

/** The metrics read from the server's threads: unsupported together where the host cannot read them. */
export const SERVER_THREAD_METRICS = ['serverCpuJsMs', 'serverCpuMs', 'serverWakeupsJs', 'serverWakeups', 'serverPreemptions'] as const satisfies readonly MetricKey[];
