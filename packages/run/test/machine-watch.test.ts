import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCpuTicks, watchMachine, type MachineReader } from '../src/machine-watch.ts';

/** A machine of 2 cores whose counters advance by scripted ticks per second (100 ticks a core-second). */
function scripted(perSecond: { busy: number; steal: number; own?: number }[]): MachineReader & { advance(): void } {
  let i = 0;
  let ticks = { user: 0, idle: 0, steal: 0 };
  let own = 0;
  let now = 0;
  return {
    procStat: () => `cpu  ${ticks.user} 0 0 ${ticks.idle} 0 0 0 ${ticks.steal} 0 0\ncpu0 0 0 0 0 0 0 0 0 0 0\n`,
    load1: () => 1.5,
    ownMicros: () => own,
    cores: () => 2,
    nowMs: () => now,
    advance() {
      const s = perSecond[i++ % perSecond.length]!;
      const busy = s.busy * 100;
      const steal = s.steal * 100;
      ticks = { user: ticks.user + busy, steal: ticks.steal + steal, idle: ticks.idle + 200 - busy - steal };
      own += (s.own ?? 0) * 1e6;
      now += 1000;
    },
  };
}

describe('the machine watch', () => {
  it('reads cores busy, stolen and used by others between readings', () => {
    const reader = scripted([{ busy: 1.5, steal: 0.1, own: 1.0 }]);
    const watch = watchMachine({ reader, timer: false });
    for (let k = 0; k < 3; k++) {
      reader.advance();
      watch.read();
    }
    const state = watch.state();
    expect(state.intervalMs).toBe(1000);
    expect(state.points).toHaveLength(3);
    expect(state.points[2]).toEqual({ atMs: 3000, load1: 1.5, busy: 1.5, steal: 0.1, others: 0.5 });
  });

  it('a long run keeps its shape at a coarser step instead of growing without end', () => {
    const reader = scripted([{ busy: 0.2, steal: 0 }, { busy: 1.0, steal: 0 }]);
    const watch = watchMachine({ reader, timer: false });
    for (let k = 0; k < 2500; k++) {
      reader.advance();
      watch.read();
    }
    const { points, intervalMs } = watch.state();
    expect(points.length).toBe(625);
    expect(intervalMs).toBe(4000);
    // Pairs of 0.2 and 1.0 merge to 0.6: the mean is kept.
    expect(points[0]!.busy).toBeCloseTo(0.6, 5);
  });

  it('without /proc/stat it keeps no points rather than made-up ones', () => {
    const watch = watchMachine({ reader: { ...scripted([{ busy: 1, steal: 0 }]), procStat: () => undefined }, timer: false });
    watch.read();
    expect(watch.state().points).toEqual([]);
  });

  it("parses this machine's /proc/stat into counters that add up", () => {
    const ticks = parseCpuTicks(readFileSync('/proc/stat', 'utf8'));
    expect(ticks).toBeDefined();
    expect(ticks!.busy).toBeGreaterThan(0);
    expect(ticks!.total).toBeGreaterThanOrEqual(ticks!.busy + ticks!.steal);
    expect(parseCpuTicks('intr 1 2 3\n')).toBeUndefined();
  });
});
