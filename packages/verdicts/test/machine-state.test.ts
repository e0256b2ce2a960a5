import { describe, expect, it } from 'vitest';
import type { HostInfo } from '@rtbench/core/schema';
import { hostsDiffer, machineStatesDiffer, machineText, summarizeMachine, type MachineReading } from '../src/machine-state.ts';

/** One reading a second, other work at `others(i)` cores. */
function readings(n: number, others: (i: number) => number, steal = (_: number) => 0): MachineReading[] {
  return Array.from({ length: n }, (_, i) => ({ atMs: (i + 1) * 1000, load1: 1, busy: 1 + others(i), steal: steal(i), others: others(i) }));
}

describe('machine state over a run', () => {
  it('a steady quiet machine says nothing', () => {
    const s = summarizeMachine(readings(30, (i) => 0.02 + (i % 3) * 0.01), 2)!;
    expect(s.changed).toBeUndefined();
    expect(s.shared).toBeUndefined();
    expect(s.othersMean).toBeCloseTo(0.03, 5);
  });

  it('a neighbour that starts half way through is a change, named by thirds', () => {
    const s = summarizeMachine(readings(30, (i) => (i < 15 ? 0.02 : 0.55)), 2)!;
    expect(s.thirds?.others?.[0]).toBeCloseTo(0.02, 5);
    expect(s.thirds?.others?.[2]).toBeCloseTo(0.55, 5);
    expect(s.changed).toMatch(/^the machine changed during the run \(by thirds: other work 0\.02 → .* → 0\.55 cores\)/);
  });

  it('a neighbour that comes and goes in the middle third is a change too', () => {
    const s = summarizeMachine(readings(30, (i) => (i >= 10 && i < 20 ? 0.6 : 0.02)), 2)!;
    expect(s.changed).toContain('0.02 → 0.60 → 0.02');
  });

  it('a change in steal is named apart from other work', () => {
    const s = summarizeMachine(readings(30, () => 0.02, (i) => (i < 20 ? 0 : 0.5)), 2)!;
    expect(s.changed).toContain('steal 0.00 → 0.00 → 0.50 cores');
    expect(s.changed).not.toContain('other work');
  });

  it('other work that used the machine throughout is said once, not as a change', () => {
    const s = summarizeMachine(readings(30, () => 1.2), 2)!;
    expect(s.changed).toBeUndefined();
    expect(s.shared).toMatch(/^other work used 1\.20 of 2 cores on average/);
  });

  it('too few readings judge no change, and none at all give nothing', () => {
    const short = summarizeMachine(readings(5, (i) => (i < 2 ? 0 : 1.5)), 2)!;
    expect(short.thirds).toBeUndefined();
    expect(short.changed).toBeUndefined();
    expect(summarizeMachine([], 2)).toBeUndefined();
  });

  it('readings without the run’s own CPU judge steal only', () => {
    const points = readings(30, (i) => (i < 15 ? 0 : 1)).map(({ others: _o, ...p }) => p);
    const s = summarizeMachine(points, 2)!;
    expect(s.othersMean).toBeUndefined();
    expect(s.changed).toBeUndefined();
  });

  it('two runs in different states are told apart; alike ones are not', () => {
    const quiet = readings(20, () => 0.05);
    const busy = readings(20, () => 0.9);
    expect(machineStatesDiffer(quiet, busy, 2, ['a.json', 'b.json'])).toBe('different machine states: other work used 0.05 cores during a.json, 0.90 during b.json');
    expect(machineStatesDiffer(quiet, readings(20, () => 0.1), 2, ['a', 'b'])).toBeUndefined();
    expect(machineStatesDiffer(undefined, busy, 2, ['a', 'b'])).toBeUndefined();
  });
});

describe('machine state of any size', () => {
  it('summarises half a million readings without spreading them over the stack', () => {
    const many = readings(500_000, (i) => (i % 7) * 0.01);
    many[123_456]!.load1 = 9;
    const s = summarizeMachine(many, 2)!;
    expect(s.load1).toEqual({ min: 1, max: 9 });
    expect(s.othersMean).toBeCloseTo(0.03, 5);
    expect(machineStatesDiffer(many, readings(500_000, () => 0.9), 2, ['a', 'b'])).toMatch(/^different machine states/);
  });
});

describe('machine state at its edges', () => {
  it('a machine used at exactly the shared share is shared, with the load it had', () => {
    const points = readings(30, () => 0.5).map((p, i) => ({ ...p, load1: i === 3 ? 2.25 : 1.5 }));
    expect(summarizeMachine(points, 2)!.shared).toBe("other work used 0.50 of 2 cores on average during the run (load 1.5–2.3): absolute figures are the shared machine's; ratios taken in turn cancel most of it");
    expect(summarizeMachine(readings(30, () => 0.49), 2)!.shared).toBeUndefined();
  });

  it('judges other work only when every reading has it', () => {
    const points = readings(30, (i) => (i < 15 ? 0 : 1)).map((p, i) => (i === 7 ? { atMs: p.atMs, load1: p.load1, busy: p.busy, steal: p.steal } : p));
    const s = summarizeMachine(points, 2)!;
    expect(s.othersMean).toBeUndefined();
    expect(s.thirds?.others).toBeUndefined();
  });

  it('judges a change from exactly the fewest readings, by exactly the change named', () => {
    expect(summarizeMachine(readings(6, (i) => (i < 2 ? 0 : 1)), 2)!.changed).toContain('other work 0.00 → 1.00 → 1.00 cores');
    // 0.3 cores between thirds is a change; one hundredth less is not.
    expect(summarizeMachine(readings(30, (i) => (i < 20 ? 0 : 0.3)), 2)!.changed).toContain('other work 0.00 → 0.00 → 0.30 cores');
    expect(summarizeMachine(readings(30, (i) => (i < 20 ? 0 : 0.29)), 2)!.changed).toBeUndefined();
    expect(summarizeMachine(readings(30, () => 0, (i) => (i < 20 ? 0 : 0.3)), 2)!.changed).toContain('steal 0.00 → 0.00 → 0.30 cores');
  });

  it('names a change in other work and in steal together', () => {
    const s = summarizeMachine(readings(30, (i) => (i < 15 ? 0 : 1), (i) => (i < 15 ? 0 : 0.5)), 2)!;
    expect(s.changed).toMatch(/\(by thirds: other work [\d.→ ]+ cores; steal [\d.→ ]+ cores\)/);
  });
});

describe('two runs’ machine states at their edges', () => {
  const at = (others: number | undefined, steal: number): MachineReading[] => readings(20, () => others ?? 0, () => steal).map((p) => (others === undefined ? { atMs: p.atMs, load1: p.load1, busy: p.busy, steal: p.steal } : p));

  it('differ by exactly the change named, in other work or in steal, and by both together', () => {
    // A threshold of half a core, which a mean of readings reaches exactly.
    const half = { changeCores: 0.5 };
    expect(machineStatesDiffer(at(0, 0), at(0.5, 0), 2, ['a', 'b'], half)).toBe('different machine states: other work used 0.00 cores during a, 0.50 during b');
    expect(machineStatesDiffer(at(0.3, 0), at(0.3, 0), 2, ['a', 'b'], half)).toBeUndefined();
    expect(machineStatesDiffer(at(0, 0), at(0, 0.5), 2, ['a', 'b'], half)).toBe('different machine states: steal 0.00 vs 0.50 cores');
    expect(machineStatesDiffer(at(0, 0.3), at(0, 0.3), 2, ['a', 'b'], half)).toBeUndefined();
    expect(machineStatesDiffer(at(0, 0), at(1, 0.5), 2, ['a', 'b'])).toBe('different machine states: other work used 0.00 cores during a, 1.00 during b; steal 0.00 vs 0.50 cores');
  });

  it('compare other work only where both runs read it, and say nothing when either run has no state', () => {
    expect(machineStatesDiffer(at(undefined, 0), at(1, 0), 2, ['a', 'b'])).toBeUndefined();
    expect(machineStatesDiffer(at(1, 0), at(undefined, 0), 2, ['a', 'b'])).toBeUndefined();
    expect(machineStatesDiffer(at(1, 0), undefined, 2, ['a', 'b'])).toBeUndefined();
    expect(machineStatesDiffer(at(1, 0), [], 2, ['a', 'b'])).toBeUndefined();
  });
});

describe("a host's facts", () => {
  const host = (extra: Partial<HostInfo> = {}): HostInfo => ({ os: 'linux', release: '6.1', arch: 'x64', cpuModel: 'EPYC', cores: 2, memoryBytes: 1, loadavg: [], hostNode: 'v22', env: {}, ...extra });
  const machine = (governor?: string, cpuQuota?: string): HostInfo['machine'] => ({ intervalMs: 1000, points: [], ...(governor ? { governor } : {}), ...(cpuQuota ? { cpuQuota } : {}) });

  it('read as one line, the governor and a CPU quota where there is one', () => {
    expect(machineText(host())).toBe('EPYC (2 cores), linux 6.1');
    expect(machineText(host({ machine: machine('performance', 'none') }))).toBe('EPYC (2 cores), linux 6.1, governor performance');
    expect(machineText(host({ machine: machine(undefined, '150000 100000') }))).toBe('EPYC (2 cores), linux 6.1, CPU quota 150000 100000');
    expect(machineText(host({ machine: machine('powersave', 'max') }))).toBe('EPYC (2 cores), linux 6.1, governor powersave, CPU quota max');
  });

  it('differ in a sentence each: CPU or cores, kernel, governor and quota where both runs read them', () => {
    expect(hostsDiffer(host(), host())).toEqual([]);
    expect(hostsDiffer(host(), host({ cpuModel: 'Xeon' }))).toEqual(['different hosts: EPYC (2 cores) vs Xeon (2 cores)']);
    expect(hostsDiffer(host(), host({ cores: 4 }))).toEqual(['different hosts: EPYC (2 cores) vs EPYC (4 cores)']);
    expect(hostsDiffer(host(), host({ release: '6.2' }))).toEqual(['different kernels: linux 6.1 vs linux 6.2']);
    expect(hostsDiffer(host(), host({ os: 'darwin' }))).toEqual(['different kernels: linux 6.1 vs darwin 6.1']);
    expect(hostsDiffer(host({ machine: machine('performance', 'max') }), host({ machine: machine('powersave', '50000 100000') }))).toEqual(['different CPU governors: performance vs powersave', "different CPU quotas of the host's cgroup: max vs 50000 100000"]);
    expect(hostsDiffer(host({ machine: machine('performance', 'max') }), host({ machine: machine('performance', 'max') }))).toEqual([]);
    // One run without the facts: nothing to compare.
    expect(hostsDiffer(host(), host({ machine: machine('powersave', 'max') }))).toEqual([]);
    expect(hostsDiffer(host({ machine: machine('powersave', 'max') }), host())).toEqual([]);
  });
});
