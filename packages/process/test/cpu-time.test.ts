/** CPU time between two readings of a process's threads: never below zero, whatever threads come and go. */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cpuNsBetween, processTreeCpuTimes, threadCpuTimes } from '../src/cpu-time.ts';

describe('cpuNsBetween', () => {
  it('counts each thread alive at the second reading from its first, a new one from zero, an ended one not at all', () => {
    const before = new Map([['1/1', 5_000], ['1/2', 9_000_000]]);
    // Thread 2 ended (its 9 ms would make a plain difference of totals negative); thread 3 started.
    const after = new Map([['1/1', 7_000], ['1/3', 1_000]]);
    expect(cpuNsBetween(before, after)).toEqual({ totalNs: 3_000, mainThreadNs: 2_000 });
    expect(cpuNsBetween(undefined, after)).toBeUndefined();
    expect(cpuNsBetween(before, undefined)).toBeUndefined();
  });

  it("takes the busiest main thread of the tree, however much a helper thread or a wrapper's main thread ran", () => {
    // A wrapper (pid 9) above the runtime (pid 10), whose compiler thread 11 outran its main thread.
    const before = new Map([['9/9', 1_000], ['10/10', 5_000], ['10/11', 0]]);
    const after = new Map([['9/9', 1_500], ['10/10', 8_000], ['10/11', 90_000]]);
    expect(cpuNsBetween(before, after)).toEqual({ totalNs: 93_500, mainThreadNs: 3_000 });
  });
});

describe.runIf(process.platform === 'linux')('processTreeCpuTimes', () => {
  it("reads this process's own main thread by its tid", () => {
    expect(threadCpuTimes(process.pid).get(process.pid)).toBeGreaterThan(0);
  });

  it("reads a busy child's CPU growing, from outside it", async () => {
    const child = spawn(process.execPath, ['-e', 'const end = Date.now() + 400; while (Date.now() < end);'], { stdio: 'ignore' });
    try {
      const first = processTreeCpuTimes(child.pid!);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const second = processTreeCpuTimes(child.pid!);
      expect(first?.size).toBeGreaterThan(0);
      const run = cpuNsBetween(first, second)!;
      expect(run.mainThreadNs).toBeGreaterThan(0);
      expect(run.totalNs).toBeGreaterThanOrEqual(run.mainThreadNs);
    } finally {
      await new Promise((resolve) => child.once('exit', resolve));
    }
    expect(processTreeCpuTimes(child.pid!)).toBeUndefined();
  });
});
