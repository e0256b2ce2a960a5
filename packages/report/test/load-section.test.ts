/**
 * A run of HTTP load cases (one case per metric of each load measurement)
 * gets a load section: each measurement × variant on one line with its
 * metrics' medians side by side and its error rate, in the terminal table,
 * markdown, JSON, the raw-sample CSV and the HTML page. Its CPU per request
 * is CPU per request's section, as a request case's is.
 */
import { describe, expect, it } from 'vitest';
import { benchView, pairedComparisonView, reporterFor } from '../src/index.ts';
import { pageData, type PageData } from '../src/html/page-data.ts';
import { htmlReporter } from '../src/reporters/html.ts';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { HOSTILE, httpLoadRun } from './run-fixtures.ts';

describe('the load section', () => {
  const view = benchView(httpLoadRun());

  it('puts each measurement × variant on one line: the metrics side by side, the errors summed over rounds', () => {
    const section = view.load!;
    expect(section.columns.map((c) => c.label)).toEqual(['req/s', 'p99', 'wake/req js']);
    expect(section.rows.map((r) => [r.measurement, r.connections])).toEqual([
      ['hello [load=c1]', 1],
      ['hello [load=c100]', 100],
    ]);
    expect(section.rows[1]!.medians['p99']).toBeCloseTo(30.3);
    expect(section.rows[1]!.outcomes).toEqual({ responses: 27_000, errorStatus: 270, socketErrors: 0, timeouts: 0 });
  });

  it('terminal, markdown and JSON show the line with its error rate; the raw-sample CSV counts each round\'s errors', () => {
    for (const format of ['terminal', 'markdown'] as const) {
      const text = String(reporterFor(format)!.render(view, { color: false, columns: 120 }));
      expect(text).toContain('HTTP load (medians over rounds)');
      const line = text.split('\n').findLast((l) => l.includes('30.3 ms'))!;
      expect(line).toContain('1.00%');
      // Wake-ups per request beside CPU per request: the count under its head, no unit in the cell.
      expect(line).toMatch(/[\s|]0\.0172([\s|]|$)/);
      expect(text).toMatch(/[\s|]1\.07([\s|]|$)/m);
      expect(text).toContain('of 27000 requests 270 error statuses');
    }
    expect(JSON.parse(String(reporterFor('json')!.render(view, {}))).load.rows).toHaveLength(2);
    const csv = String(reporterFor('csv')!.render(view, {})).trim().split('\n');
    // The two last columns (a case id holds commas, so count from the end).
    expect(csv[0]!.split(',').slice(-2)).toEqual(['responses', 'errors']);
    expect(csv.at(-1)!.split(',').slice(-2)).toEqual(['9000', '90']);
  });
});

describe("a load measurement's CPU per request", () => {
  const view = benchView(httpLoadRun());
  const cpuCase = 'hello [load=c100, metric=cpu/req js]';

  it('is a row of CPU per request: the JavaScript thread, one sample a window, the median over rounds with the responses counted', () => {
    const rows = view.cpuPerRequest!.rows;
    expect(rows.map((r) => r.caseId)).toEqual(['hello [load=c1, metric=cpu/req js]', cpuCase]);
    expect(rows[1]!.figure).toEqual({ threads: 'jsThread', sample: 'window', unit: 'ms' });
    expect(rows[1]!.windows).toEqual({ median: 0.05 * 1.01, rounds: 3, responses: 27_000 });
    expect(rows[1]!.distribution).toBeUndefined();
  });

  it('terminal and markdown print it in the CPU-per-request table, its median under p50, no quantile it does not have', () => {
    const terminal = String(reporterFor('terminal')!.render(view, { color: false, columns: 120 }));
    const table = terminal.slice(terminal.indexOf('CPU per request (ms)'), terminal.indexOf('HTTP load (medians'));
    expect(table.split('\n')[1]).toMatch(/^ +runtime +p50 +requests$/);
    expect(table).toContain(cpuCase);
    expect(table).toMatch(/ node +0\.0505 +27000 in 3\n/);
    expect(table.replace(/\s+/g, ' ')).toContain('p50: the median over rounds (each a fresh server), no interval');
    // Which phase the window is: after an unmeasured warm-up of the load, never split at a steady point.
    expect(table.replace(/\s+/g, ' ')).toContain('the window follows an unmeasured warm-up run of the same load, and is not split at a steady point');
    const markdown = String(reporterFor('markdown')!.render(view, {}));
    expect(markdown).toContain('| case | runtime | p50 | requests |');
    expect(markdown).toContain(`| ${cpuCase} | node | 0.0505 | 27000 in 3 |`);
  });

  it("the page draws it under the case's table, the windows as its curve, the markdown's cells beside", () => {
    const data = pageData(view);
    const c = data.cases.find((x) => x.key === `c${view.cases.findIndex((bc) => bc.caseId === cpuCase)}`)!;
    expect(c.requests!.samples).toBe('windows');
    expect(c.requests!.heads.map((h) => h.text)).toEqual(['p50', 'requests']);
    expect(c.requests!.curves[0]!.cells).toEqual(['0.0505', '27000 in 3']);
    expect(c.requests!.curves[0]!.points.map(([ms]) => ms)).toEqual([0.05, 0.0505, 0.051]);
    expect(data.cases.filter((x) => x.requests)).toHaveLength(2);
  });
});

/** The fixture's rounds served in phases: warm-up 0.5, 0.6 and 0.7 s, its requests/s 4000 on the req/s case; the last round never settled. */
function phasedLoadRun(): RunRecord {
  const run = httpLoadRun();
  for (const r of run.results) {
    for (const round of r.rounds) {
      const warmup = r.caseId.includes('metric=req/s') ? { warmup: 4_000 + round.round } : {};
      round.load = { ...round.load!, phases: { windows: 8, ...(round.round < 2 ? { steadyFrom: 2 } : {}), warmupMs: 500 + 100 * round.round, ...warmup } };
    }
  }
  return parseRun(JSON.parse(JSON.stringify(run)), 'phased load');
}

describe('load rounds served in phases', () => {
  const view = benchView(phasedLoadRun());

  it("each row's warm-up: its time and requests/s, medians over rounds, and the rounds that never settled", () => {
    expect(view.load!.rows[1]!.warmup).toEqual({ ms: 600, requestsPerSecond: 4_001, unsettled: 1 });
    for (const format of ['terminal', 'markdown'] as const) {
      const text = String(reporterFor(format)!.render(view, { color: false, columns: 200 }));
      expect(text).toMatch(/warm-up/);
      expect(text).toContain('0.60 s at 4.00K/s (1 of 3 never steady)');
      // The figures are the steady windows', and the key says how the phases were found.
      expect(text.replace(/\s+/g, ' ')).toContain("a round's figures are of its windows from its steady point");
      expect(text.replace(/\s+/g, ' ')).toContain("over each round's steady windows");
      expect(text).not.toContain('not split at a steady point');
    }
    expect(view.cpuPerRequest!.rows[1]!.windows).toEqual({ median: 0.05 * 1.01, rounds: 3, responses: 27_000, phased: true });
  });

  it('a run saved before rounds were phased has no warm-up column and keeps its old key', () => {
    const old = benchView(httpLoadRun());
    expect(old.load!.rows.every((r) => r.warmup === undefined)).toBe(true);
    expect(pageData(old).load!.heads.at(-1)).toBe('errors');
    expect(pageData(view).load!.heads.at(-1)).toBe('warm-up');
  });
});

describe("a load measurement's warnings", () => {
  it('are said once for the measurement, not once per metric case that shares its rounds', () => {
    const run = httpLoadRun();
    const saturated = 'the load generator was at least 90% busy on its core in a round';
    for (const r of run.results) if (r.caseId.startsWith('hello [load=c100,')) r.failures.push({ kind: 'warning', message: saturated, round: 0 });
    const view = benchView(run);
    expect(view.notes.filter((n) => n.text.includes(saturated)).map((n) => n.text)).toEqual([`hello [load=c100] (node): ${saturated}`]);
    for (const format of ['terminal', 'markdown'] as const) {
      const text = String(reporterFor(format)!.render(view, { color: false, columns: 120 }));
      expect(text.split(saturated)).toHaveLength(2);
    }
  });
});

describe('a comparison of load runs', () => {
  it('says its ratios are of times, and of context switches when wake-ups are among the cases', () => {
    const run = httpLoadRun();
    run.variants = [...run.variants, { ...run.variants[0]!, id: 'bun' }];
    run.results = [...run.results, ...run.results.map((r) => ({ ...r, variantId: 'bun' }))];
    const note = (r: typeof run) => pairedComparisonView(r).notes.find((n) => n.startsWith('timed by the host'));
    expect(note(run)).toContain('and of context switches per request');
    const timesOnly = { ...run, cases: run.cases.filter((c) => c.metric?.unit !== 'switches') };
    expect(note(timesOnly)).toMatch(/ratios are of times, per start or per request$/);
  });
});

describe("the HTML page's load section", () => {
  it('per measurement, each runtime with the markdown table\'s figures and its error rate', () => {
    const view = benchView(httpLoadRun());
    const load = pageData(view).load!;
    expect(load.heads).toEqual(['conns', 'req/s', 'p99', 'wake/req js', 'errors']);
    expect(load.measurements.map((m) => m.measurement)).toEqual(['hello [load=c1]', 'hello [load=c100]']);
    const markdown = String(reporterFor('markdown')!.render(view, {}));
    for (const m of load.measurements) {
      const [row] = m.rows;
      expect(row!.variant).toBe(pageData(view).variants[0]!.key);
      expect(markdown).toContain(`| ${row!.cells.join(' | ')} |`);
    }
    expect(load.measurements[1]!.rows[0]!.cells.at(-1)).toBe('1.00%');
    expect(load.errors).toEqual(['node · hello [load=c100]: of 27000 requests 270 error statuses']);
  });

  it('a run without load measurements has none', () => {
    const plain = syntheticRun({ suite: 'plain', cases: [{ id: 'a', ns: 100 }], arms: [{ id: 'node', factor: 1 }], rounds: 3 });
    expect(pageData(benchView(plain)).load).toBeUndefined();
  });

  it('carries hostile measurement and runtime names as data, never as markup', () => {
    const html = htmlReporter.render(benchView(httpLoadRun(HOSTILE.name, HOSTILE.variant)), {});
    expect(html.match(/<script/gi)).toHaveLength(2);
    expect(html).not.toMatch(/<img|<svg|<iframe|<!--/i);
    const data = JSON.parse(/<script type="application\/json" id="rtbench-data">([\s\S]*?)<\/script>/.exec(html)![1]!) as PageData;
    expect(data.load!.measurements[0]!.measurement).toBe(`${HOSTILE.name} [load=c1]`);
    expect(data.variants.find((v) => v.key === data.load!.measurements[0]!.rows[0]!.variant)!.label).toBe(HOSTILE.variant);
  });
});
