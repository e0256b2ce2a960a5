import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRun, type CaseResult, type RunRecord } from '@rtbench/core/schema';
import { escapeHtml, jsonForScript } from '../src/html/document.ts';
import { binEdges, histogram, pageData, type PageData } from '../src/html/page-data.ts';
import { ratioTicks, timeTicks } from '../src/html/page/charts.ts';
import { wrapLabel } from '../src/html/page/labels.ts';
import { sharedRatioDomain } from '../src/html/summary-data.ts';
import { metricsRowCells, summarizeMetrics } from '../src/metrics.ts';
import { memoryRowCells, memoryRows } from '../src/memory.ts';
import { benchCells } from '../src/cells/run.ts';
import { htmlReporter } from '../src/reporters/html.ts';
import { formatDuration } from '../src/format.ts';
import { viewOfRun } from '../src/views/index.ts';
import { hostileRun, HOSTILE, withSampleTimesAndModes } from './run-fixtures.ts';

const BENCH_RUN = join(import.meta.dirname, '../../../results/20261121-124315Z-json-reviver.json');
const MULTI_ARM_RUN = join(import.meta.dirname, '../../../results/20261121-130300Z-gc-pressure-compare.json');
const METRICS_RUN = join(import.meta.dirname, '../../../results/20261122-093249Z-gc-pressure.json');

function loadRun(path: string): RunRecord {
  return parseRun(JSON.parse(readFileSync(path, 'utf8')), path);
}

function dataBlock(html: string): string {
  const m = /<script type="application\/json" id="rtbench-data">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('no data block');
  return m[1]!;
}

describe('escaping', () => {
  it('escapes the five HTML specials', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
  });

  it('makes JSON that cannot close a script element and parses back to the same value', () => {
    const json = jsonForScript(HOSTILE);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(HOSTILE);
  });
});

describe('htmlReporter on a hostile run file', () => {
  const run = hostileRun(loadRun(BENCH_RUN));
  const html = htmlReporter.render(viewOfRun(run), {});

  it('keeps run text out of the markup: only its own two scripts, an escaped title', () => {
    expect(html.match(/<script/gi)).toHaveLength(2);
    expect(html.match(/<\/script/gi)).toHaveLength(2);
    expect(html).not.toMatch(/<img|<svg|<iframe|<!--/i);
    const title = /<title>([\s\S]*?)<\/title>/.exec(html)![1]!;
    expect(title).not.toMatch(/[<>"]/);
    expect(title).toContain(escapeHtml(HOSTILE.suite));
  });

  it('carries the strings unchanged in the data block', () => {
    const data = JSON.parse(dataBlock(html)) as PageData;
    expect(data.cases[0]!.name).toBe(HOSTILE.name);
    expect(data.cases[0]!.group).toBe(HOSTILE.group);
    expect(data.variants[0]!.label).toBe(HOSTILE.variant);
    expect(data.variants[0]!.flags).toEqual([HOSTILE.flag]);
    expect(data.variants[0]!.binary).toBe(HOSTILE.binary);
    expect(data.environment.flatMap((p) => p.rows).find(([k]) => k === 'environment')![1]).toContain(HOSTILE.env);
  });

  it('allows only its own script, by hash, and no network', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)![1]!;
    const script = /<script>([\s\S]*)<\/script>\s*<\/body>/.exec(html)![1]!;
    const hash = createHash('sha256').update(script, 'utf8').digest('base64');
    expect(csp).toContain(`script-src &#39;sha256-${hash}&#39;`);
    expect(csp).toContain('default-src &#39;none&#39;');
  });

  it("bundles no schema library into the page's script (the run's shapes are checked on the host; @rtbench/core/call-tree stays zod-free)", () => {
    const script = /<script>([\s\S]*)<\/script>\s*<\/body>/.exec(html)![1]!;
    expect(script).not.toMatch(/ZodError|\$ZodType|_zod\b/);
  });
});

describe('page data', () => {
  const run = loadRun(BENCH_RUN);
  const data = pageData(viewOfRun(run));

  it('has every process median and every sample of every case and variant', () => {
    expect(data.cases).toHaveLength(run.cases.length);
    for (const c of data.cases) {
      for (const cell of c.cells) {
        const v = Number(cell.variant.slice(1));
        const result = run.results.find((r) => r.caseId === c.id && r.variantId === run.variants[v]!.id)!;
        expect(cell.processMedians.map((p) => p.round)).toEqual(result.rounds.map((r) => r.round));
        expect(cell.histogram.reduce((n, b) => n + b.count, 0)).toBe(result.rounds.reduce((n, r) => n + r.samples.length, 0));
        expect(cell.medianText).toBe(formatDuration(result.stats!.median));
      }
    }
  });
});

describe('page data of a run whose memory was read', () => {
  const MB = 2 ** 20;
  const saved = loadRun(BENCH_RUN);
  // The same run with the host's readings in every other result (the others read nothing: n/a, never 0).
  const run: RunRecord = {
    ...saved,
    results: saved.results.map((r, i) => (i % 2 ? r : { ...r, memory: { rounds: r.rounds.length, peakBytes: (80 + i) * MB, peakAboveOpenBytes: i * MB, growthPerCallBytes: 4096, leak: i === 0 } })),
  };
  const data = pageData(viewOfRun(run));

  it('carries the --metrics memory cells per case and variant, and none for a run saved before', () => {
    const rows = memoryRows(run);
    for (const c of data.cases) {
      expect(c.memory?.rows.map((r) => r.variant)).toEqual(c.cells.map((cell) => cell.variant));
      for (const row of c.memory!.rows) {
        const expected = rows.find((r) => r.caseId === c.id && r.variantId === run.variants[Number(row.variant.slice(1))]!.id)!;
        expect(row.cells).toEqual(memoryRowCells(expected));
      }
    }
    expect(data.cases[0]!.memory!.rows[0]!.cells).toContain('LEAK +4.00 KB/call');
    expect(data.cases.flatMap((c) => c.memory!.rows.flatMap((r) => r.cells))).toContain('n/a');
    expect(pageData(viewOfRun(saved)).cases.some((c) => c.memory)).toBe(false);
  });
});

describe('page data of a run with sample times and modes', () => {
  const run = withSampleTimesAndModes(loadRun(BENCH_RUN));
  const data = pageData(viewOfRun(run));

  it('traces every process sample by sample, from its first sample', () => {
    for (const c of data.cases) {
      for (const cell of c.cells) {
        const result = run.results.find((r) => r.caseId === c.id && r.variantId === run.variants[Number(cell.variant.slice(1))]!.id)!;
        expect(cell.traces!.map((t) => t.points.length)).toEqual(result.rounds.map((r) => r.samples.length));
        for (const trace of cell.traces!) {
          expect(trace.points[0]![0]).toBe(0);
          for (let i = 1; i < trace.points.length; i++) expect(trace.points[i]![0]).toBeGreaterThanOrEqual(trace.points[i - 1]![0]);
        }
      }
    }
  });

  it("carries the statistics' modes where there are two or more", () => {
    const [first, second] = data.cases[0]!.cells;
    expect(first!.modes).toHaveLength(2);
    expect(first!.modes!.reduce((n, m) => n + m.count, 0)).toBe(run.results[0]!.stats!.roundMedians.length);
    expect(second!.modes).toBeUndefined();
  });

  it('has no traces for runs that did not record them, and modes only from enough processes (recomputed from the samples)', () => {
    const plain = pageData(viewOfRun(loadRun(BENCH_RUN)));
    const cells = plain.cases.flatMap((c) => c.cells);
    expect(cells.some((cell) => cell.traces)).toBe(false);
    for (const cell of cells) if (cell.modes) expect(cell.processMedians.length).toBeGreaterThanOrEqual(6);
  });
});

describe('page data of a run whose warmups were watched', () => {
  // The first case's rounds get a warmup series that steps down and settles at its 20th point (the third round never settles).
  const base = loadRun(BENCH_RUN);
  const [first] = base.results;
  const run: RunRecord = {
    ...base,
    results: base.results.map((r) =>
      r !== first
        ? r
        : {
            ...r,
            rounds: r.rounds.map((round, i) => {
              const ns = Array.from({ length: 30 }, (_, k) => (k < 10 ? 3 : 1) * round.samples[0]!);
              const warmup = { calls: ns.map((_, k) => 100 * (k + 1)), ms: ns.map((_, k) => 2 * (k + 1)), ns, calibrationCalls: 50, maxMs: 3000, ...(i === 2 ? {} : { steadyAt: { calls: 2000, ms: 40 } }) };
              return { ...round, warmup, steadyState: i === 2 ? { class: 'no-steady-state' as const } : { class: 'warmed' as const, calls: 2000, ms: 40 } };
            }),
          },
    ),
  };
  const data = pageData(viewOfRun(run));

  it('draws each process of a watched cell, its points in time order, with where it settled', () => {
    const cell = data.cases.find((c) => c.id === first!.caseId)!.cells.find((c) => c.variant === 'v0')!;
    expect(cell.warmups!.map((w) => w.points.length)).toEqual(first!.rounds.map(() => 30));
    expect(cell.warmups!.map((w) => w.steadyMs)).toEqual(first!.rounds.map((_, i) => (i === 2 ? undefined : 40)));
    for (const w of cell.warmups!) for (let k = 1; k < w.points.length; k++) expect(w.points[k]![0]).toBeGreaterThan(w.points[k - 1]![0]);
    // One process of ten never settled: not a third, so no mark and no note.
    expect(cell.steadyText).toBeUndefined();
  });

  it('has no warmup curves for cells or runs whose warmups were not watched', () => {
    const others = data.cases.filter((c) => c.id !== first!.caseId).flatMap((c) => c.cells);
    expect(others.some((cell) => cell.warmups)).toBe(false);
  });
});

describe('histogram', () => {
  const result = (samples: number[][]): CaseResult =>
    ({ caseId: 'c', variantId: 'v', status: 'ok', failures: [], rounds: samples.map((s, round) => ({ round, samples: s })) }) as unknown as CaseResult;

  it('puts every sample in the bin whose edges hold it, with edges shared across variants', () => {
    const a = [10, 11, 12, 50, 51, 400];
    const b = [9, 9.5, 1000];
    const edges = binEdges([result([a]), result([b])], 12);
    expect(edges).toHaveLength(13);
    expect(edges[0]).toBe(9);
    expect(edges[12]).toBe(1000);
    for (let i = 1; i < edges.length; i++) expect(edges[i]!).toBeGreaterThan(edges[i - 1]!);
    for (const samples of [a, b]) {
      const bins = histogram(samples, edges);
      expect(bins.reduce((n, x) => n + x.count, 0)).toBe(samples.length);
      expect(bins.reduce((n, x) => n + x.share, 0)).toBeCloseTo(1, 12);
      for (const x of samples) {
        const holding = bins.filter((bin) => x >= bin.x1 && (x < bin.x2 || (x === bin.x2 && bin.x2 === edges[12])));
        expect(holding, String(x)).toHaveLength(1);
      }
    }
  });

  it('gives one bar when every sample is the same', () => {
    const edges = binEdges([result([[5, 5, 5]])], 4);
    expect(histogram([5, 5, 5], edges).map((b) => b.count)).toEqual([3]);
  });
});

describe('axis ticks', () => {
  it('labels narrow ratio ranges on both sides of 1, spread over the axis', () => {
    const ticks = ratioTicks(0.733, 1.371);
    expect(ticks).toContain(1);
    expect(ticks.some((t) => t < 1)).toBe(true);
    expect(ticks.some((t) => t > 1)).toBe(true);
    for (const t of ticks) expect(t >= 0.733 && t <= 1.371).toBe(true);
    for (let i = 1; i < ticks.length; i++) expect(Math.log(ticks[i]! / ticks[i - 1]!)).toBeGreaterThanOrEqual(Math.log(1.371 / 0.733) / 9);
  });

  it('puts round durations on a time axis', () => {
    const ticks = timeTicks(21_000, 130_000);
    expect(ticks).toContain(100_000);
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    for (const t of ticks) expect(Number((t / 10 ** Math.floor(Math.log10(t))).toPrecision(3)) % 0.5).toBe(0);
  });
});

describe('summary', () => {
  it('has one row per case and non-baseline runtime, with the bench table\'s verdicts, on a domain holding every estimate', () => {
    const view = viewOfRun(loadRun(BENCH_RUN));
    if (view.kind !== 'bench') throw new Error('expected a bench view');
    const { summary } = pageData(view);
    const expected = view.cases.flatMap((c) => c.rows.filter((r) => !r.isBaseline).map((r) => ({ c, r })));
    expect(summary.rows).toHaveLength(expected.length);
    expected.forEach(({ c, r }, i) => {
      const row = summary.rows[i]!;
      expect(row.caseKey).toBe(`c${view.cases.indexOf(c)}`);
      expect(row.ratio?.ratio).toBe(r.relative?.ratio);
      expect(row.verdictText).toBe(benchCells(r, Boolean(c.digestMismatch)).relative);
      expect(row.verdict).toBe(r.relative ? benchCells(r, Boolean(c.digestMismatch)).verdict : 'none');
      if (row.ratio) expect(row.ratio.ratio >= summary.domain[0] && row.ratio.ratio <= summary.domain[1]).toBe(true);
    });
    expect(summary.geomeans.map((g) => g.ratio)).toEqual(view.geomeans!.map((g) => g.ratio));
  });

  it('orders a comparison\'s rows case by case, one per arm', () => {
    const view = viewOfRun(loadRun(MULTI_ARM_RUN));
    if (view.kind !== 'comparison') throw new Error('expected a comparison view');
    const { summary } = pageData(view);
    expect(summary.rows).toHaveLength(view.sections.reduce((n, s) => n + s.cases.length, 0));
    expect(summary.rows.slice(0, view.sections.length).map((r) => r.caseKey)).toEqual(view.sections.map(() => 'c0'));
    expect(summary.rows.slice(0, view.sections.length).map((r) => r.verdict)).toEqual(view.sections.map((s) => s.cases[0]!.comparison?.verdict ?? 'none'));
  });

  it('spans every estimate and the noise band, but does not let one wild CI squash the rest', () => {
    const [lo, hi] = sharedRatioDomain([0.9, 1.2], [[0.85, 0.95], [1.1, 1.3]], 0.01);
    expect(lo).toBeLessThan(0.85);
    expect(hi).toBeGreaterThan(1.3);
    const [wildLo, wildHi] = sharedRatioDomain([0.9, 1.2], [[0.001, 1000]], 0.01);
    expect(wildLo).toBeGreaterThan(0.9 / 3.5);
    expect(wildHi).toBeLessThan(1.2 * 3.5);
    const [bandLo, bandHi] = sharedRatioDomain([1.001], [[0.999, 1.003]], 0.05);
    expect(bandLo).toBeLessThan(1 / 1.05);
    expect(bandHi).toBeGreaterThan(1.05);
  });
});

describe('engine metrics in the page data', () => {
  it('carries --metrics gc\'s cells per case and variant for a run that recorded them', () => {
    const run = loadRun(METRICS_RUN);
    const data = pageData(viewOfRun(run));
    for (const c of data.cases) {
      expect(c.metrics, c.id).toBeDefined();
      expect(c.metrics!.rows.map((r) => r.variant)).toEqual(c.cells.map((cell) => cell.variant));
      for (const row of c.metrics!.rows) {
        const result = run.results.find((r) => r.caseId === c.id && r.variantId === run.variants[Number(row.variant.slice(1))]!.id)!;
        expect(row.cells).toEqual(metricsRowCells(summarizeMetrics(result)));
        expect(row.change).toBeUndefined();
      }
    }
  });

  it('has none for runs made before metrics were recorded', () => {
    expect(pageData(viewOfRun(loadRun(BENCH_RUN))).cases.some((c) => c.metrics)).toBe(false);
  });
});

describe('chart labels', () => {
  it('wraps at word and flag boundaries without dropping or cutting anything when it fits', () => {
    const label = 'node@26 --max-semi-space-size=64';
    const wrapped = wrapLabel(label, 14);
    expect(wrapped.split('\n').length).toBeGreaterThan(1);
    expect(wrapped).not.toContain('…');
    expect(wrapped.replace(/\s/g, '')).toBe(label.replace(/\s/g, ''));
    for (const line of wrapped.split('\n')) expect(line.length).toBeLessThanOrEqual(14);
    expect(wrapLabel('node', 14)).toBe('node');
  });

  it('keeps the end of what does not fit, where labels differ', () => {
    const a = wrapLabel('retained / small objects (10k) with a retained set [live=20000]', 10, 2);
    const b = wrapLabel('retained / small objects (10k) with a retained set [live=200000]', 10, 2);
    expect(a.startsWith('…')).toBe(true);
    expect(a.split('\n')).toHaveLength(2);
    expect(a.endsWith('20000]')).toBe(true);
    expect(b.endsWith('200000]')).toBe(true);
  });
});
