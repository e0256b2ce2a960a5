/** Every reporter on the saved runs under results/ (a bench run and two comparisons). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { axisLines, logPosition, logTicks } from '../src/reporters/plot.ts';
import { benchView, boxLine, dotLine, REPORTERS, reporterFor, viewOfRun, type View } from '../src/index.ts';
import { SAMPLE_COLUMNS, STATS_COLUMNS, statsColumns } from '../src/reporters/csv.ts';
import { csvField } from '../src/text.ts';
import { ENGINE_METRIC_FIELDS, summarizeMetrics } from '../src/metrics.ts';
import { parseCsv } from './csv-records.ts';

const resultsDir = join(import.meta.dirname, '..', '..', '..', 'results');
const load = (name: string) => parseRun(JSON.parse(readFileSync(join(resultsDir, name), 'utf8')), name);
const benchRun = load('20261121-124315Z-json-reviver.json');
const compareRun = load('20261121-130300Z-gc-pressure-compare.json');
const bench = viewOfRun(benchRun, { file: 'results/20261121-124315Z-json-reviver.json' });
const comparison = viewOfRun(compareRun);
const render = (format: string, view: View, plot = false) => reporterFor(format)!.render(view, { color: false, columns: 100, plot });

describe('reporters on saved runs', () => {
  it('has one entry per format, each with a description and an extension', () => {
    expect(Object.keys(REPORTERS)).toEqual(expect.arrayContaining(['terminal', 'markdown', 'json', 'csv', 'csv-stats', 'bmf']));
    for (const [name, r] of Object.entries(REPORTERS)) {
      expect(r.format).toBe(name);
      expect(r.description.length).toBeGreaterThan(10);
      expect(r.extension).toMatch(/^[a-z]+$/);
    }
    expect(reporterFor('table')).toBe(REPORTERS['terminal']);
    expect(reporterFor('md')).toBe(REPORTERS['markdown']);
    expect(reporterFor('nope')).toBeUndefined();
  });

  it('terminal: a row per case and variant, the baseline named in the header, the medians of the run', () => {
    const out = render('terminal', bench);
    expect(out).toContain('vs node (paired)');
    for (const c of benchRun.cases) expect(out).toContain(c.id);
    // deno's median of the first case, as saved
    const deno = benchRun.results.find((r) => r.caseId === benchRun.cases[0]!.id && r.variantId === 'deno')!;
    expect(out).toMatch(new RegExp(`^ {2}deno +${(deno.stats!.median / 1000).toPrecision(3)} µs`, 'm'));
    expect(out).toMatch(/\d\.\d\d× (faster|slower) \[\d\.\d\d–\d\.\d\d\]/);
  });

  it('terminal: fits 100 columns, case names as headings, every figure of the wide table kept', () => {
    const out = render('terminal', bench);
    for (const line of out.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(100);
    for (const c of benchRun.cases) expect(out).toMatch(new RegExp(`^${c.id.replace(/[[\]()]/g, '\\$&')}$`, 'm'));
    // What a wider terminal adds is said with --explain, not under every table.
    expect(out).not.toContain('wider terminal');
    expect(reporterFor('terminal')!.render(bench, { color: false, columns: 100, explain: true })).toMatch(/a wider terminal adds \(≥ \d+ columns: the case names in a column\)/);
    // Every cell of the wide layout is in the narrow one.
    const wide = reporterFor('terminal')!.render(bench, { color: false, columns: 400 });
    expect(wide).not.toContain('wider terminal');
    const cellsOf = (text: string) => text.split('\n').filter((l) => / (µs|ms)\b/.test(l) && !l.startsWith('geomean')).flatMap((l) => l.trim().split(/ {2,}/)).filter((x) => !benchRun.cases.some((c) => c.id === x));
    expect(cellsOf(out).sort()).toEqual(cellsOf(wide).sort());
  });

  it('terminal: long variant names become A, B, … with a legend; marks replace the lines of remarks', () => {
    const long = structuredClone(compareRun);
    long.mode = 'bench';
    const view = benchView(long);
    const out = render('terminal', view);
    for (const line of out.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(100);
    expect(out).toMatch(/vs A \(paired\)/);
    expect(out.replace(/\s+/g, ' ')).toContain(`A = ${long.variants[0]!.id} · B = ${long.variants[1]!.id}`);
    expect(out).toMatch(/^ {2}B +\d/m);
    const marked = view.cases.flatMap((c) => c.rows).filter((r) => r.modes || r.skew);
    expect(out.split('\n').filter((l) => /^ {2}[A-D] .*  [ms]+$/.test(l))).toHaveLength(marked.length);
    expect(out).not.toMatch(/^! /m);
    expect(reporterFor('terminal')!.render(view, { color: false, columns: 100, explain: true }).replace(/\s+/g, ' ')).toMatch(/≥ \d+ columns: the full variant names in the table/);
  });

  it('terminal: an arm that pins packages is named with their versions and integrity, the others are not', () => {
    const pinned = structuredClone(benchRun);
    const [first, second] = pinned.variants;
    second!.packages = [
      { name: 'react', version: '19.2.0', dir: '/cache/react@19.2.0', sha256: 'a'.repeat(64), integrity: 'sha512-tmbWg6W31tQLabcdef' },
      { name: 'react-dom', version: '19.2.0', dir: '/cache/react-dom@19.2.0', sha256: 'b'.repeat(64), integrity: 'sha512-UlbRu4cAiGaIabcdef', follows: 'react' },
    ];
    // A wrapped line goes on indented by four.
    const lines = render('terminal', benchView(pinned)).replace(/\n {4}(?=\S)/g, ' ').split('\n');
    const named = lines.filter((l) => l.includes('react 19.2.0'));
    expect(named).toHaveLength(1);
    expect(named[0]).toMatch(new RegExp(`^(${second!.id}|B): .*; react 19\\.2\\.0 \\(sha512-tmbWg6W31tQL…\\), react-dom 19\\.2\\.0 \\(sha512-UlbRu4cAiGaI…\\)$`));
    expect(lines.some((l) => l.startsWith(`${first!.id}: `) || l.startsWith('A: '))).toBe(false);
    expect(render('terminal', bench)).not.toMatch(/^(A|B|\S+): .*; /m);
  });

  it('terminal --plot: a box per variant on a shared log axis with labelled ticks, within 100 columns', () => {
    const out = render('terminal', bench, true);
    const plotLines = out.split('\n').filter((l) => l.includes('┃'));
    expect(plotLines.length).toBe(benchRun.results.filter((r) => r.rounds.length).length);
    for (const line of out.split('\n').filter((l) => /[├┤•●┬]/.test(l))) expect([...line].length).toBeLessThanOrEqual(100);
    // One axis per case, with at least two ticks, each labelled with a time.
    const axes = out.split('\n').map((l, i, all) => ({ l, next: all[i + 1] ?? '' })).filter(({ l }) => l.endsWith(' log'));
    expect(axes).toHaveLength(benchRun.cases.length);
    for (const { l, next } of axes) {
      expect((l.match(/┬/g) ?? []).length).toBeGreaterThanOrEqual(2);
      expect((next.match(/\d (ns|µs|ms|s)\b/g) ?? []).length).toBeGreaterThanOrEqual(2);
    }
  });

  it('terminal: a comparison as verdicts per candidate', () => {
    const out = render('terminal', comparison);
    expect(out).toContain('3 candidates, each compared with the first arm, node@26');
    expect(out).toContain('gc-pressure: node@26 --max-semi-space-size=1 vs node@26 (baseline)');
    expect(out).toMatch(/geomean over \d+ cases/);
  });

  it('markdown: a table with the case ids escaped, and the command', () => {
    const out = render('markdown', bench);
    expect(out).toContain('### rtbench: json-reviver');
    expect(out).toContain('| case | runtime | median/op | p25–p75 | CI | ops/s | vs node (paired) |');
    expect(out).toContain(`Command: \`rtbench ${benchRun.command.join(' ')}\``);
    const md = render('markdown', comparison);
    expect(md).toContain('### rtbench compare: gc-pressure');
    expect(md).toMatch(/\*\*Geometric mean\*\*/);
  });

  it('markdown: bold marks only the best median of each case, and the legend says so', () => {
    const out = render('markdown', bench);
    const rows = out.split('\n').filter((l) => /^\| .* \| (node|deno|bun|workerd) \|/.test(l));
    const bolded = rows.filter((l) => l.includes('**'));
    expect(bolded).toHaveLength(benchRun.cases.length);
    for (const c of benchRun.cases) {
      const results = benchRun.results.filter((r) => r.caseId === c.id && r.stats);
      const fastest = results.reduce((a, b) => (b.stats!.median < a.stats!.median ? b : a));
      const line = bolded.find((l) => l.includes(`| ${fastest.variantId} |`) && rows.indexOf(l) >= rows.findIndex((r) => r.includes(c.id)));
      expect(line, c.id).toBeDefined();
    }
    expect(out).toContain('Bold: the best median of each case');
  });

  it('a 0 ns median prints "—" with a reason, never an infinite rate, in every reporter', () => {
    const zero = structuredClone(benchRun);
    const r = zero.results[1]!;
    for (const round of r.rounds) round.samples = round.samples.map(() => 0);
    r.stats = { ...r.stats!, median: 0, p25: 0, p75: 0, min: 0, mean: 0, ci: [0, 0], roundMedians: r.stats!.roundMedians.map(() => 0) };
    const view = benchView(zero);
    for (const format of Object.keys(REPORTERS)) {
      const out = render(format, view);
      // The HTML page's own script may say Infinity; its data block must not.
      const shown = format === 'html' ? out.match(/id="rtbench-data">([\s\S]*?)<\/script>/)![1]! : out;
      expect(shown, format).not.toMatch(/Infinity|NaN/);
    }
    const md = render('markdown', view);
    expect(md).toMatch(new RegExp(`\\| ${r.variantId} \\| 0 ns \\| .* \\| — \\|`));
    expect(md).toContain('below the clock resolution');
    const bmf = JSON.parse(render('bmf', view)) as Record<string, Record<string, { value: number }>>;
    expect(bmf[`${r.caseId} [${r.variantId}]`]).toEqual({ latency: { value: 0, lower_value: 0, upper_value: 0 } });
  });

  it('json: the view with its run, parseable, the same numbers', () => {
    const parsed = JSON.parse(render('json', bench)) as { kind: string; run: unknown; cases: { rows: { stats?: { median: number } }[] }[] };
    expect(parsed.kind).toBe('bench');
    expect(parseRun(parsed.run, 'json').id).toBe(benchRun.id);
    expect(parsed.cases[0]!.rows[0]!.stats!.median).toBe(benchRun.results[0]!.stats!.median);
    // raw samples once, under run: rows do not repeat them
    expect(parsed.cases[0]!.rows[0]).not.toHaveProperty('result');
    const c = JSON.parse(render('json', comparison)) as { kind: string; pairing: string; runs: { run: unknown }[] };
    expect([c.kind, c.pairing]).toEqual(['comparison', 'paired']);
    expect(parseRun(c.runs[0]!.run, 'json').id).toBe(compareRun.id);
  });

  it('csv: one row per raw sample, every sample of the run', () => {
    const rows = parseCsv(render('csv', bench));
    expect(rows[0]).toEqual([...SAMPLE_COLUMNS]);
    const total = benchRun.results.reduce((n, r) => n + r.rounds.reduce((m, x) => m + x.samples.length, 0), 0);
    expect(rows.length - 1).toBe(total);
    const first = benchRun.results[0]!;
    expect(rows[1]).toEqual([benchRun.id, first.caseId, first.variantId, String(first.rounds[0]!.round), String(first.rounds[0]!.order), '0', String(first.rounds[0]!.iterationsPerSample), 'time per operation', 'ns', String(first.rounds[0]!.samples[0]), '', '', '']);
  });

  it('csv-stats: one row per case × variant with the ratio against the baseline', () => {
    const rows = parseCsv(render('csv-stats', bench));
    expect(rows[0]).toEqual([...STATS_COLUMNS]);
    expect(rows.length - 1).toBe(benchRun.results.length);
    const col = (name: string) => STATS_COLUMNS.indexOf(name as (typeof STATS_COLUMNS)[number]);
    const deno = rows.find((r) => r[col('case')] === benchRun.cases[0]!.id && r[col('variant')] === 'deno')!;
    expect(deno[col('baseline')]).toBe('node');
    expect(Number(deno[col('ratio')])).toBeGreaterThan(0);
    expect(['faster', 'slower', 'equivalent', 'inconclusive']).toContain(deno[col('verdict')]);
    const node = rows.find((r) => r[col('case')] === benchRun.cases[0]!.id && r[col('variant')] === 'node')!;
    expect(node[col('ratio')]).toBe('');
    expect([node[col('measure')], node[col('unit')]]).toEqual(['time per operation', 'ns']);
  });

  it('every measure keeps its own name and unit: instruction counts and requests/s never land in a time column', () => {
    const counted = structuredClone(benchRun);
    counted.cases = counted.cases.map((c, i) => ({ ...c, metric: i === 0 ? { name: 'instructions per operation', unit: 'instructions', direction: 'lower-is-better' } : { name: 'requests/s', unit: 'req/s', direction: 'higher-is-better' } }));
    const view = benchView(counted);
    const rows = parseCsv(render('csv', view));
    const col = (name: string) => SAMPLE_COLUMNS.indexOf(name as (typeof SAMPLE_COLUMNS)[number]);
    const units = new Set(rows.slice(1).map((r) => `${r[col('measure')]}|${r[col('unit')]}`));
    expect(units).toEqual(new Set(['instructions per operation|instructions', 'requests/s|req/s']));
    const bmf = JSON.parse(render('bmf', view)) as Record<string, Record<string, unknown>>;
    const first = counted.results.find((r) => r.caseId === counted.cases[0]!.id && r.stats)!;
    const other = counted.results.find((r) => r.caseId !== counted.cases[0]!.id && r.stats)!;
    expect(Object.keys(bmf[`${first.caseId} [${first.variantId}]`]!)).toEqual(['instructions']);
    expect(Object.keys(bmf[`${other.caseId} [${other.variantId}]`]!)).toEqual(['throughput']);
    expect(render('terminal', view)).toMatch(/\d[KMG]? instr/);
  });

  it('host-timed measures: ms and req/s under their own names in csv, csv-stats and BMF, never latency with 1e9/value', () => {
    const timed = structuredClone(benchRun);
    const startup = { name: 'start-up time', unit: 'ms', direction: 'lower-is-better' } as const;
    const rate = { name: 'requests/s', unit: 'req/s', direction: 'higher-is-better' } as const;
    timed.cases = timed.cases.map((c, i) => ({ ...c, metric: i % 2 === 0 ? startup : rate }));
    const view = benchView(timed);
    const stats = parseCsv(render('csv-stats', view));
    const col = (name: string) => stats[0]!.indexOf(name);
    for (const row of stats.slice(1)) {
      const metric = timed.cases.findIndex((c) => c.id === row[col('case')]) % 2 === 0 ? startup : rate;
      expect([row[col('measure')], row[col('unit')], row[col('direction')]]).toEqual([metric.name, metric.unit, metric.direction]);
    }
    const bmf = JSON.parse(render('bmf', view)) as Record<string, Record<string, { value: number }>>;
    const first = timed.results.find((r) => r.caseId === timed.cases[0]!.id && r.stats)!;
    const second = timed.results.find((r) => r.caseId === timed.cases[1]!.id && r.stats)!;
    expect(bmf[`${first.caseId} [${first.variantId}]`]).toEqual({ 'start-up-time': { value: first.stats!.median, ...(first.stats!.ci ? { lower_value: first.stats!.ci[0], upper_value: first.stats!.ci[1] } : {}) } });
    expect(Object.keys(bmf[`${second.caseId} [${second.variantId}]`]!)).toEqual(['throughput']);
    expect(bmf[`${second.caseId} [${second.variantId}]`]!['throughput']!.value).toBe(second.stats!.median);
  });

  it('engine metrics: csv-stats columns and BMF measures when the run recorded them, none when it did not', () => {
    const gcRun = load('20261122-093249Z-gc-pressure.json');
    const view = viewOfRun(gcRun);
    const rows = parseCsv(render('csv-stats', view));
    expect(rows[0]).toEqual(statsColumns(view));
    expect(rows[0]).toEqual([...STATS_COLUMNS, ...ENGINE_METRIC_FIELDS.map((f) => f.column)]);
    const col = (name: string) => rows[0]!.indexOf(name);
    for (const r of gcRun.results.filter((x) => x.rounds.length)) {
      const row = rows.find((x) => x[col('case')] === r.caseId && x[col('variant')] === r.variantId)!;
      const summary = summarizeMetrics(r);
      // An absent figure is an empty cell, never 0.
      expect(row[col('gc_minor_per_1k_ops')]).toBe(summary.per1k?.minor === undefined ? '' : String(summary.per1k.minor));
      expect(row[col('bytes_per_op')]).toBe(summary.bytesPerOp === undefined ? '' : String(summary.bytesPerOp));
      expect(row[col('gc_time_share')]).toBe(summary.gcShare === undefined ? '' : String(summary.gcShare));
    }
    const bmf = JSON.parse(render('bmf', view)) as Record<string, Record<string, { value: number }>>;
    const node = gcRun.results.find((r) => r.variantId === 'node' && r.stats)!;
    const entry = bmf[`${node.caseId} [node]`]!;
    expect(entry['minor-gc-per-1k-ops']!.value).toBeGreaterThan(0);
    expect(entry['allocated-bytes-per-op']!.value).toBe(summarizeMetrics(node).bytesPerOp);
    expect(entry['gc-time-share']!.value).toBeLessThan(1);
    expect(entry['latency']).toBeDefined();
    // A run without engine metrics keeps the plain columns and measures.
    expect(parseCsv(render('csv-stats', bench))[0]).toEqual([...STATS_COLUMNS]);
    const plain = JSON.parse(render('bmf', bench)) as Record<string, Record<string, unknown>>;
    expect(Object.keys(Object.values(plain)[0]!)).toEqual(['latency', 'throughput']);
  });

  it('csv quotes commas, quotes and newlines', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "x"')).toBe('"say ""x"""');
    expect(csvField(undefined)).toBe('');
    expect(csvField(1.5)).toBe('1.5');
  });

  it("bmf: bencher's format, latency and throughput per case × variant", () => {
    const bmf = JSON.parse(render('bmf', bench)) as Record<string, { latency: { value: number; lower_value: number; upper_value: number }; throughput: { value: number } }>;
    const r = benchRun.results[0]!;
    const entry = bmf[`${r.caseId} [${r.variantId}]`]!;
    expect(r.stats!.ci).toBeDefined();
    expect(entry.latency).toEqual({ value: r.stats!.median, lower_value: r.stats!.ci![0], upper_value: r.stats!.ci![1] });
    expect(entry.throughput.value).toBeCloseTo(1e9 / r.stats!.median, 6);
    expect(Object.keys(bmf)).toHaveLength(benchRun.results.filter((x) => x.stats).length);
  });
});

describe('plot', () => {
  it('puts whiskers, box and median where the values fall on a log axis', () => {
    // 1 … 10,000 over 21 columns: each decade is 5 columns.
    const line = boxLine({ lo: 1, p25: 10, p50: 100, p75: 1000, hi: 10_000 }, 1, 10_000, 21);
    expect(line).toHaveLength(21);
    expect(line[0]).toBe('├');
    expect(line[20]).toBe('┤');
    expect(line[10]).toBe('┃');
    expect(line.slice(5, 10)).toBe('█████');
    expect(line.slice(1, 5)).toBe('────');
  });

  it('one slow value does not squeeze the others: 2× apart stays visible beside a 100× outlier', () => {
    // On a linear axis 100 and 200 of 0…10,000 would sit 1 column apart out of 60.
    expect(logPosition(200, 100, 10_000, 61) - logPosition(100, 100, 10_000, 61)).toBe(9);
    expect(logPosition(0, 100, 10_000, 61)).toBe(0);
  });

  it('marks one value with • and several in one column with ●', () => {
    expect(dotLine([1, 1, 100], 1, 100, 11)).toBe('●         •');
  });

  it('ticks at round values: 1-2-5 over decades, finer or linear steps over a narrow range', () => {
    expect(logTicks(15, 1200)).toEqual([20, 50, 100, 200, 500, 1000]);
    expect(logTicks(34, 46)).toEqual([35, 40, 45]);
    expect(logTicks(120, 480)).toEqual([150, 200, 300]);
    const [rule, labels] = axisLines(10, 1000, 41, (v) => `${v}`);
    expect([...rule].filter((ch) => ch === '┬')).toHaveLength(7);
    expect(labels.trim().split(/ +/)).toEqual(['10', '20', '50', '100', '200', '500', '1000']);
    // Each label sits under its tick.
    expect(rule[labels.indexOf('100') + 1]).toBe('┬');
    // Labels that would collide are dropped, never overlapped.
    const [, crowded] = axisLines(10, 1000, 12, (v) => `${v} units`);
    expect(crowded.trim().split(/ {2,}| (?=\d)/).every((x) => /^\d+ units$/.test(x))).toBe(true);
  });
});
