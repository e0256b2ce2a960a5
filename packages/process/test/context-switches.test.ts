/** Context switches read from a thread's status file, and counted between two readings whatever threads come and go. */
import { describe, expect, it } from 'vitest';
import { contextSwitchDeltas, parseContextSwitches, threadContextSwitches } from '../src/context-switches.ts';

const STATUS = ['Name:\tnode', 'State:\tS (sleeping)', 'Tgid:\t4242', 'voluntary_ctxt_switches:\t1057', 'nonvoluntary_ctxt_switches:\t31', ''].join('\n');

describe('parseContextSwitches', () => {
  it('reads both counts of a status file, and nothing from one without them', () => {
    expect(parseContextSwitches(STATUS)).toEqual({ voluntary: 1057, nonvoluntary: 31 });
    expect(parseContextSwitches('Name:\tnode\nvoluntary_ctxt_switches:\t3\n')).toBeUndefined();
    expect(parseContextSwitches('')).toBeUndefined();
  });
});

describe('contextSwitchDeltas', () => {
  it('counts each thread alive at the second reading from its first, a new one from zero, an ended one not at all', () => {
    const before = new Map([
      [1, { voluntary: 100, nonvoluntary: 5 }],
      [2, { voluntary: 9_000, nonvoluntary: 70 }],
    ]);
    const after = new Map([
      [1, { voluntary: 160, nonvoluntary: 6 }],
      [3, { voluntary: 4, nonvoluntary: 1 }],
    ]);
    expect([...contextSwitchDeltas(before, after)]).toEqual([
      [1, { voluntary: 60, nonvoluntary: 1 }],
      [3, { voluntary: 4, nonvoluntary: 1 }],
    ]);
  });
});

describe.runIf(process.platform === 'linux')('threadContextSwitches', () => {
  it("reads this process's main thread's wake-ups growing after it sleeps", () => {
    const first = threadContextSwitches(process.pid).get(process.pid)!;
    // A blocking wait on a futex always gives the core up; a timer could already be due when the event loop polls
    // (after a preemption on a loaded machine), so the loop would not sleep at all.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    const second = threadContextSwitches(process.pid).get(process.pid)!;
    expect(second.voluntary).toBeGreaterThan(first.voluntary);
  });
});
