import { describe, expect, it } from 'vitest';
import type { CaseResult, RoundRecord } from '@rtbench/core/schema';
import { memoryRowCells, memoryRows } from '../src/memory.ts';
import { terminalMetrics, markdownMetrics } from '../src/reporters/metrics.ts';
import { metricsSection } from '../src/views/metrics.ts';
import type { View } from '../src/views/types.ts';
import { pairedComparisonView } from '../src/views/comparison.ts';
import { syntheticRun } from '../../../test/compare-synthetic.ts';

const MiB = 1024 * 1024;

function round(extra: Partial<RoundRecord> = {}): RoundRecord {
  return {
    round: 0,
    order: 0,
    samples: [1000, 1000],
    iterationsPerSample: 10,
    warmupIterations: 0,
    async: false,
    clock: { name: 'c', resolutionNs: 1, readCostNs: 1, edgeAligned: false },
    digest: { hash: '0000000000000000', summary: '' },
    wallMs: 1,
    ...extra,
  };
}

function result(variantId: string, extra: Partial<CaseResult> = {}, rounds = [round()]): CaseResult {
  return { caseId: 'c', variantId, status: 'ok', rounds, failures: [], ...extra };
}

const read = { rounds: 2, peakBytes: 100 * MiB, peakAboveOpenBytes: 64 * MiB, growthPerCallBytes: 4096, leak: true };

describe('the memory view', () => {
  it('shows the readings, and the leak mark with the growth per call', () => {
    const [row] = memoryRows({ results: [result('node', { memory: read }, [round({ metrics: { source: 'v8', heap: { heapUsedBytes: 5 * MiB, externalBytes: 64 * MiB } } })])] });
    expect(memoryRowCells(row!)).toEqual(['100 MB', '64.0 MB', '5.00 MB', '64.0 MB', '+4.00 KB', 'LEAK +4.00 KB/call']);
    expect(row!.reasons).toEqual([]);
  });

  it('marks a leak with what the engine held per call where it said, the resident set\'s growth otherwise', () => {
    const [row] = memoryRows({ results: [result('node', { memory: { ...read, growthPerCallBytes: 5120, heldPerCallBytes: 4096 } })] });
    expect(memoryRowCells(row!).slice(-2)).toEqual(['+5.00 KB', 'LEAK +4.00 KB/call held']);
  });

  it('shows what a runtime does not tell as n/a with its reason, never 0', () => {
    const [row] = memoryRows({ results: [result('workerd', { memory: { ...read, leak: false } }, [round({ metrics: { source: 'trace', heap: { heapUsedBytes: MiB } } })])] });
    const cells = memoryRowCells(row!);
    expect(cells[3]).toBe('n/a');
    expect(cells[5]).toBe('no');
    expect(row!.reasons.join(' ')).toMatch(/off-heap: not reported/);
    const [bun] = memoryRows({ results: [result('bun', { memory: read }, [round({ metrics: { source: 'jsc', heap: { heapUsedBytes: MiB }, unavailable: { external: 'JSC says no' } } })])] });
    expect(bun!.reasons).toContain('off-heap: JSC says no');
  });

  it('renders a run saved before memory was read: no table, a line that says so', () => {
    const run = { results: [result('node')] };
    const [row] = memoryRows(run);
    expect(memoryRowCells(row!).slice(0, 2)).toEqual(['n/a', 'n/a']);
    const view = { kind: 'bench', run } as unknown as View;
    const section = metricsSection(view, 'memory')!;
    expect(terminalMetrics(section)).toMatch(/holds no resident-memory readings/);
    expect(markdownMetrics(section)).toMatch(/holds no resident-memory readings: it was saved before rtbench read resident memory/);
    expect(terminalMetrics(metricsSection({ kind: 'bench', run: { results: [result('node', { memory: read })] } } as unknown as View, 'memory')!)).toMatch(/LEAK \+4\.00 KB\/call/);
  });

  it("says why a run holds no readings: nothing measured, its host, a load run, a request run saved before servers were read", () => {
    const line = (run: object): string => terminalMetrics(metricsSection({ kind: 'bench', run } as unknown as View, 'memory')!, { color: false, columns: 400 });
    expect(line({ results: [result('node', {}, [round({ samples: [] })])] })).toContain('holds no resident-memory readings: no case was measured');
    expect(line({ results: [result('node')], host: { os: 'Darwin' } })).toContain('measured on Darwin, and rtbench reads resident memory from /proc, on Linux only');
    expect(line({ results: [result('node', {}, [round({ load: {} })])], host: { os: 'Linux' } })).toContain('its cases are load cases');
    const requests = { results: [result('node', {}, [round({ requests: {} })])], host: { os: 'Linux' } };
    expect(line(requests)).toContain("its request cases were measured before rtbench read a request server's resident memory");
    expect(markdownMetrics(metricsSection({ kind: 'bench', run: requests } as unknown as View, 'memory')!)).toContain("> memory: this run holds no resident-memory readings: its request cases were measured before");
    expect(line({ results: [result('node')], host: { os: 'Linux' }, options: { measurer: 'some-kind' } })).toContain('saved before rtbench read resident memory (measured by some-kind), or /proc could not be read');
  });

  it("shows a request case's row as its server's: its peak, a line under the key saying so, and its heap as not asked", () => {
    const run = { results: [result('workerd', { memory: { ...read, leak: false } }, [round({ requests: {} })])] };
    const [row] = memoryRows(run);
    expect(memoryRowCells(row!).slice(0, 2)).toEqual(['100 MB', '64.0 MB']);
    // Its heap's n/a has its reason on the row (the page's note), and once under a text table's key, not once per runtime.
    expect(row!.reasons).toEqual(['heap, off-heap: the server is read from outside (/proc), its engine is not asked']);
    const section = metricsSection({ kind: 'bench', run } as unknown as View, 'memory')!;
    const text = terminalMetrics(section, { color: false, columns: 100 }).replace(/\s+/g, ' ');
    expect(text).toContain("a request case's row is its server process: peak RSS while it served the round's requests");
    expect(text).toContain('heap and off-heap read n/a: the server is read from outside (/proc), its engine is not asked');
    expect(text).not.toContain('n/a — workerd');
    expect(markdownMetrics(section)).toContain("<sub>a request case's row is its server process");
    // A bench case's table says nothing of servers.
    expect(terminalMetrics(metricsSection({ kind: 'bench', run: { results: [result('node', { memory: read })] } } as unknown as View, 'memory')!)).not.toContain('server process');
  });

  it('under a paired comparison, gives each case its change in peak memory with an interval over process pairs, beside time', () => {
    // The candidate is 1.5× faster and holds 1.4× the memory (±2% per process pair); case b has no readings.
    const run = syntheticRun({ mode: 'compare', cases: [{ id: 'a', ns: 1000 }, { id: 'b', ns: 1000 }], arms: [{ id: 'node', factor: 1 }, { id: 'node --max-semi-space-size=64', factor: 1 / 1.5 }], rounds: 8, seed: 3 });
    for (const r of run.results) {
      if (r.caseId !== 'a') continue;
      r.memory = { rounds: 8, peakBytes: (r.variantId === 'node' ? 100 : 140) * MiB, peakAboveOpenBytes: 0 };
      for (const x of r.rounds) x.memory = { source: 's', openBytes: 0, sampleBytes: [], callsPerSample: 1, peakBytes: (r.variantId === 'node' ? 100 : 140) * MiB * (1 + 0.02 * Math.cos(x.round * 5 + r.variantId.length)), processes: 1 };
    }
    const section = metricsSection(pairedComparisonView(run), 'memory');
    const lines = Object.fromEntries(section?.kind === 'memory-table' ? section.changes![0]!.cases.map((c) => [c.caseId, c.line]) : []);
    expect(lines.a).toMatch(/^peak RSS 1\.(39|40|41)× \[1\.\d\d–1\.\d\d×\] \(\d+\.\d+% CI, 8 process pairs\); time 0\.6\d×$/);
    expect(lines.b).toMatch(/^peak RSS n\/a \(no set with both peaks read\); time 0\.6\d×$/);
    expect(terminalMetrics(section!)).toMatch(/Peak memory: node --max-semi-space-size=64 vs node/);
    expect(markdownMetrics(section!)).toMatch(/\| a \| peak RSS 1\.\d+×/);
  });
});

describe("the memory table's heads and key", () => {
  const section = () => metricsSection({ kind: 'bench', run: { results: [result('node', { memory: { ...read, leak: false } })] } } as unknown as View, 'memory')!;

  it('names each column for what it answers: two lines over a terminal column, one markdown head', () => {
    const [first, second] = terminalMetrics(section(), { color: false, columns: 100 }).split('\n');
    expect(first).toMatch(/^ +variant +peak RSS +case added +heap held +off-heap +RSS grew +kept growing$/);
    expect(second).toMatch(/^ +while open +at peak +at end +at end +per call +every round$/);
    // Each second line ends where its head ends: the two read as one name over one column.
    const ends = (line: string): number[] => [...line.matchAll(/\S+(?: \S+)*/g)].map((m) => m.index! + m[0].length);
    expect(ends(second!)).toEqual(ends(first!).slice(1));
    expect(markdownMetrics(section())).toContain('| case | runtime | peak RSS while open | case added at peak | heap held at end | off-heap at end | RSS grew per call | kept growing every round |');
  });

  it('reads a growth beside "no" and a heap beside 0 B added, the two pairs that look contradictory, and states the leak rule', () => {
    const key = terminalMetrics(section(), { color: false, columns: 100 }).replace(/\s+/g, ' ');
    expect(key).toContain('a growth per call beside "no" is a rise that did not go on in every round');
    expect(key).toContain('a heap of many MB beside 0 B added is memory the process already held as the case opened');
    expect(key).toContain('LEAK only when every round kept growing from warm to its last sample');
  });
});
