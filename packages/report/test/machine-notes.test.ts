import { describe, expect, it } from 'vitest';
import type { MachinePoint, RunRecord } from '@rtbench/core/schema';
import { historyRuns } from '../../../test/history-synthetic.ts';
import { benchView } from '../src/views/bench.ts';
import { unpairedComparisonView } from '../src/views/comparison.ts';
import { historyView } from '../src/views/history.ts';

const cases = [{ id: 'parse', ns: 1_000 }];

function points(others: (i: number) => number): MachinePoint[] {
  return Array.from({ length: 30 }, (_, i) => ({ atMs: (i + 1) * 1000, load1: 1, busy: 1 + others(i), steal: 0, others: others(i) }));
}

function withMachine(run: RunRecord, others: (i: number) => number): RunRecord {
  return { ...run, host: { ...run.host, machine: { intervalMs: 1000, points: points(others) } } };
}

describe("a run's machine state in its reports", () => {
  const [a, b] = historyRuns([{ factor: 1 }, { factor: 1 }], { cases, rounds: 6, seed: 3 });

  it('the table warns when a neighbour started during the run, and says nothing on a steady machine', () => {
    const changed = benchView(withMachine(a!, (i) => (i < 15 ? 0.02 : 0.55)));
    expect(changed.notes.find((n) => n.text.startsWith('the machine changed during the run'))?.level).toBe('warning');
    const steady = benchView(withMachine(a!, () => 0.02));
    expect(steady.notes.some((n) => /machine changed|other work used/.test(n.text))).toBe(false);
  });

  it('runs saved before machine states still render, with no note about it', () => {
    expect(a!.host.machine).toBeUndefined();
    expect(benchView(a!).notes.some((n) => /machine/.test(n.text))).toBe(false);
  });

  it('a comparison of saved runs says when their machine states differ', () => {
    const view = unpairedComparisonView({ run: withMachine(a!, () => 0.05), file: 'quiet.json' }, { run: withMachine(b!, () => 1.1), file: 'busy.json' });
    expect(view.notes).toContain('different machine states: other work used 0.05 cores during quiet.json, 1.10 during busy.json');
  });

  it('a comparison of saved runs says when their kernels, governors or CPU quotas differ, and says nothing when they agree', () => {
    const setUp = (run: RunRecord, release: string, governor: string, cpuQuota: string): RunRecord => ({
      ...run,
      host: { ...run.host, release, machine: { intervalMs: 1000, points: points(() => 0.02), governor, cpuQuota } },
    });
    const view = unpairedComparisonView({ run: setUp(a!, '6.1.0-1', 'performance', 'none'), file: 'a.json' }, { run: setUp(b!, '6.8.0-2', 'powersave', '100000 100000'), file: 'b.json' });
    expect(view.notes).toContain(`different kernels: ${a!.host.os} 6.1.0-1 vs ${b!.host.os} 6.8.0-2`);
    expect(view.notes).toContain('different CPU governors: performance vs powersave');
    expect(view.notes).toContain("different CPU quotas of the host's cgroup: none vs 100000 100000");
    const alike = unpairedComparisonView({ run: setUp(a!, '6.1.0-1', 'performance', 'none'), file: 'a.json' }, { run: setUp(b!, '6.1.0-1', 'performance', 'none'), file: 'b.json' });
    expect(alike.notes.some((n) => n.startsWith('different'))).toBe(false);
  });

  it('a history says when its runs came from different kernels on one CPU', () => {
    const view = historyView([
      { run: { ...a!, host: { ...a!.host, release: '6.1.0-1' } }, file: 'a.json' },
      { run: { ...b!, host: { ...b!.host, release: '6.8.0-2' } }, file: 'b.json' },
    ]);
    const note = view.notes.find((n) => n.text.includes('different machines or set-ups'));
    expect(note?.level).toBe('warning');
    expect(note?.text).toContain('6.1.0-1');
    expect(note?.text).toContain('6.8.0-2');
  });

  it('a history names the runs taken on a shared or changing machine', () => {
    const view = historyView([
      { run: withMachine(a!, () => 0.02), file: 'a.json' },
      { run: withMachine(b!, (i) => (i < 10 ? 0 : 0.9)), file: 'b.json' },
    ]);
    const note = view.notes.find((n) => n.text.includes('other work shared or changed the machine'));
    expect(note?.text).toContain(b!.id);
    expect(note?.text).not.toContain(a!.id);
  });
});
