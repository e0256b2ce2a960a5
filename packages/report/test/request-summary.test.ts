/**
 * A request run in brief: per request one line per runtime, the handler's
 * CPU per request net of the empty handler served by the same processes,
 * its intervals and the verdict on the net figure; the tables behind it and
 * each figure in words with --explain.
 */
import { describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { syntheticRequestRun } from '../../../test/request-synthetic.ts';
import { reporterFor } from '../src/index.ts';
import { viewOfRun } from '../src/views/index.ts';
import type { BenchView } from '../src/views/types.ts';
import { displayWidth } from '../src/width.ts';

const EMPTY = 'relay [cpu=empty handler]';

/**
 * The synthetic run (handler requests of 1 ms, times each arm's factor) with an empty handler beside it in
 * every process, costing `server[arm]` ms a request, and each handler request holding that cost too.
 */
function withEmptyHandler(run: RunRecord, server: Record<string, number>): RunRecord {
  const copy = { ...structuredClone(run), mode: 'bench' as const };
  copy.cases.push({ id: EMPTY, name: 'relay', params: { cpu: 'empty handler' }, metric: { name: 'CPU per request of an empty handler (the server alone), JavaScript thread', unit: 'ms', direction: 'lower-is-better' } });
  const empties = copy.results.map((r) => ({
    ...r,
    caseId: EMPTY,
    rounds: r.rounds.map((round, i) => {
      const { latencyMs: _latency, ...requests } = round.requests as Record<string, unknown>;
      return { ...round, samples: Array.from({ length: 50 }, (_, k) => server[r.variantId]! * (1 + 0.02 * Math.sin(k + i))), requests };
    }),
  }));
  for (const r of copy.results) for (const round of r.rounds) round.samples = round.samples.map((x) => x + server[r.variantId]!);
  copy.results.push(...empties);
  return parseRun(JSON.parse(JSON.stringify(copy)), 'synthetic worker');
}

// The same handler on both (1 ms), on servers of unlike cost: 0.5 ms a request on the first, 0.1 ms on the second.
const run = withEmptyHandler(syntheticRequestRun({ arms: [{ id: 'node@26', factor: 1 }, { id: 'bun@1', factor: 1 }], rounds: 6, seed: 3 }), { 'node@26': 0.5, 'bun@1': 0.1 });
const view = viewOfRun(run) as BenchView;
const terminal = (explain: boolean): string => String(reporterFor('terminal')!.render(view, { color: false, columns: 100, explain }));

describe('a request run in brief', () => {
  const summary = view.requestSummary!;
  const [node, bun] = summary.cases[0]!.rows;

  it('nets the server off: the same handler on unlike servers is not called faster, though its measured figures are', () => {
    const measured = view.cases.find((c) => c.caseId === 'relay [cpu=js thread]')!.rows.find((r) => r.variantId === 'bun@1')!;
    expect(measured.relative!.verdict).toBe('faster');
    expect(bun!.relative!.verdict).not.toBe('faster');
    expect(bun!.relative!.verdict).not.toBe('slower');
    for (const row of [node!, bun!]) {
      expect(row.net.p50.value).toBeGreaterThan(0.85);
      expect(row.net.p50.value).toBeLessThan(1.15);
      expect(row.net.p50.ci![0]).toBeLessThanOrEqual(row.net.p50.value);
      expect(row.net.p50.ci![1]).toBeGreaterThanOrEqual(row.net.p50.value);
      expect(row.net.p99.value).toBeGreaterThan(row.net.p50.value);
    }
    expect(node!.net.server.value).toBeCloseTo(0.5, 1);
    expect(bun!.net.server.value).toBeCloseTo(0.1, 1);
  });

  it('leads with one line per runtime under the request, the tables left to --explain, nothing past 100 columns', () => {
    const text = terminal(false);
    const lines = text.trimEnd().split('\n');
    expect(lines.filter((l) => /^\s+(node@26|bun@1)\s/.test(l))).toHaveLength(2);
    expect(text).toMatch(/^\s+node@26\s+[\d.]+ \[[\d.]+–[\d.]+\]\s+[\d.]+ \[[\d.]+–[\d.]+\]\s+0\.5\d*\s+baseline$/m);
    expect(text).not.toContain('p90');
    expect(text).not.toContain('thread clock');
    expect(lines.length).toBeLessThan(15);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(100);
  });

  it('--explain keeps every table and says each figure of the brief lines in words', () => {
    const text = terminal(true);
    expect(text).toContain('p90');
    expect(text).toContain('relay [cpu=empty handler]');
    for (const figure of ['- p50 net, p99 net:', '- server:', '- [low–high]:', '- vs node@26:']) expect(text).toContain(figure);
    expect(text).not.toContain('--explain: what each figure is');
  });

  it('--explain: one level on the whole screen, the bench table adjusted in one family with the brief lines', () => {
    // Three runtimes: two ratios a request, so the level is adjusted above 95%.
    const three = viewOfRun(withEmptyHandler(syntheticRequestRun({ arms: [{ id: 'node@26', factor: 1 }, { id: 'bun@1', factor: 1 }, { id: 'deno@2', factor: 1.1 }], rounds: 6, seed: 3 }), { 'node@26': 0.5, 'bun@1': 0.1, 'deno@2': 0.3 })) as BenchView;
    const level = three.requestSummary!.confidence;
    expect(level).toBeGreaterThan(0.95);
    for (const row of three.cpuPerRequest!.rows) if (row.distribution) expect(row.distribution.confidence).toBe(level);
    const whole = String(reporterFor('terminal')!.render(three, { color: false, columns: 100, explain: true })).replace(/\s+/g, ' ');
    // The bench table's ratios (2 cases × 2 runtimes) and the brief lines' (2): one family of 6, one level.
    const table = three.cases.flatMap((c) => c.rows.filter((r) => r.relative));
    expect(table).toHaveLength(4);
    for (const row of table) expect(row.relative!.confidence).toBe(level);
    expect(three.level).toBe(level);
    expect(three.requestSummary!.ratios).toBe(6);
    const said = `${+(level * 100).toFixed(2)}%`;
    expect(whole).toContain(`${said} intervals (95% over 6 ratios, 4 of them in --explain's table)`);
    expect(whole).toContain(`at ${said} (95% adjusted for 6 comparisons: the table's 4 and the request lines' 2)`);
    const levels = [...whole.matchAll(/(\d+(?:\.\d+)?%) (?:intervals|CI)\b|\bat (\d+(?:\.\d+)?%)|over processes \((\d+(?:\.\d+)?%)\)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
    expect(new Set(levels)).toEqual(new Set([said]));
  });

  it('a comparison of request cases leads with the same brief lines, the tables left to --explain', () => {
    const compared = viewOfRun({ ...run, mode: 'compare' });
    expect(compared.kind).toBe('comparison');
    const brief = String(reporterFor('terminal')!.render(compared, { color: false, columns: 100 }));
    const lines = brief.trimEnd().split('\n');
    expect(lines.filter((l) => /^\s+(node@26|bun@1)\s+[\d.]+ \[/.test(l))).toHaveLength(2);
    expect(brief).toContain("CPU per request (ms), the handler's JavaScript thread less the server's own cost");
    expect(brief.replace(/\s+/g, ' ')).toContain('--explain: what each figure is, and every table');
    expect(brief).not.toContain('p90');
    expect(lines.length).toBeLessThan(20);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(100);
    const explained = String(reporterFor('terminal')!.render(compared, { color: false, columns: 100, explain: true }));
    expect(explained).toContain('p90');
    expect(explained).toContain('ratio [interval]');
  });

  it('says ≠ work where the runtimes answered differently, never a ratio of different work', () => {
    const differing = viewOfRun({ ...run, digestMismatches: [{ caseId: 'relay [cpu=js thread]', digests: { 'node@26': 'aaaa', 'bun@1': 'bbbb' } }] }) as BenchView;
    const text = String(reporterFor('terminal')!.render(differing, { color: false, columns: 100 }));
    expect(text).toMatch(/^\s+bun@1\s.*≠ work$/m);
    expect(text).not.toMatch(/× (faster|slower)/);
  });

  it('a run of request cases without an empty handler keeps its tables', () => {
    const plain = viewOfRun({ ...syntheticRequestRun({ arms: [{ id: 'a', factor: 1 }, { id: 'b', factor: 1 }], rounds: 4 }), mode: 'bench' }) as BenchView;
    expect(plain.requestSummary).toBeUndefined();
    expect(String(reporterFor('terminal')!.render(plain, { color: false, columns: 100 }))).toContain('p90');
  });
});
