/** A load window's server figures: CPU and context switches on the JavaScript thread and over all threads, each per request served. */
import { describe, expect, it } from 'vitest';
import { perRequest, serverWindow, type ServerThreads } from '../src/server-window.ts';

const reading = (threads: [tid: number, cpuNs: number, voluntary: number, nonvoluntary: number][]): ServerThreads => ({
  cpuNs: new Map(threads.map(([tid, ns]) => [tid, ns])),
  switches: new Map(threads.map(([tid, , voluntary, nonvoluntary]) => [tid, { voluntary, nonvoluntary }])),
});

describe('serverWindow and perRequest', () => {
  // The JavaScript thread 10, a helper 11 that ended in the window, a helper 12 started in it.
  const before = reading([
    [10, 1_000_000, 500, 20],
    [11, 4_000_000, 300, 9],
  ]);
  const after = reading([
    [10, 41_000_000, 1_500, 22],
    [12, 2_000_000, 40, 3],
  ]);

  it('takes the JavaScript thread apart from all threads, wake-ups (voluntary) apart from preemptions (nonvoluntary)', () => {
    expect(serverWindow(before, after, 10)).toEqual({ jsThreadNs: 40_000_000, allThreadsNs: 42_000_000, jsWakeups: 1_000, allWakeups: 1_040, allPreemptions: 5 });
  });

  it('divides the window by the requests served: one wake-up per request reads 1, CPU in ms', () => {
    const figures = perRequest(serverWindow(before, after, 10), 1_000);
    expect(figures).toEqual({ serverCpuJsMs: 0.04, serverCpuMs: 0.042, serverWakeupsJs: 1, serverWakeups: 1.04, serverPreemptions: 0.005 });
  });

  it('a JavaScript thread missing from the reading counts nothing for it, not another thread', () => {
    expect(serverWindow(before, after, 99)).toMatchObject({ jsThreadNs: 0, jsWakeups: 0, allWakeups: 1_040 });
  });
});
