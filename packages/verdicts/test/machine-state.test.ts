import { describe, expect, it } from 'vitest';
import { machineStatesDiffer, summarizeMachine, type MachineReading } from '../src/machine-state.ts';

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
