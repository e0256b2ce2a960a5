/**
 * The HTML report in a real browser (Debian's headless Chromium): generated
 * from the saved runs in results/, opened from a file, checked against the
 * run files themselves: no console errors, the marks every case should have,
 * the numbers the page prints, the filters, and a hostile run file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { benchCells, comparisonCells, formatDuration, metricsChange, metricsRowCells, minorGcName, reporterFor, summarizeMetrics, unpairedComparisonView, viewOfRun, type View } from '@rtbench/report';
import { memoryRowCells, memoryRows } from '../../packages/report/src/memory.ts';
import { launchChromium, type Browser } from './chromium.ts';
import { hostileRun, HOSTILE, httpLoadRun, withSampleTimesAndModes } from '../../packages/report/test/run-fixtures.ts';
import { rowStats } from '../../packages/report/src/views/bench.ts';
import { overLimitText } from '../../packages/report/src/cells/cpu-per-request.ts';
import { loadCells } from '../../packages/report/src/cells/load.ts';
import { syntheticRequestRun } from '../request-synthetic.ts';

const RESULTS = join(import.meta.dirname, '../../results');
const BENCH_RUN = '20261121-124315Z-json-reviver.json';
const COMPARE_RUN = '20261121-125130Z-json-reviver-compare.json';
const MULTI_ARM_RUN = '20261121-130300Z-gc-pressure-compare.json';
const METRICS_RUN = '20261122-093249Z-gc-pressure.json';
const VERDICT_COLOURS: Record<string, string> = { faster: '#1a9850', slower: '#d73027', equivalent: '#6b7280', inconclusive: '#d99a00' };

let browser: Browser;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rtbench-html-test-'));
  // A missing Chromium is installed here (apt-get can take a few minutes on a clean machine).
  browser = await launchChromium();
  // Playwright's waits guard against a page that never gets ready, not a slow one: the pages draw side by side
  // (describe.concurrent below) on a busy machine, so every wait may take up to most of a test's time-out.
  browser.context.setDefaultTimeout(150_000);
}, 600_000);

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function loadRun(name: string): RunRecord {
  const path = join(RESULTS, name);
  return parseRun(JSON.parse(readFileSync(path, 'utf8')), path);
}

/**
 * A saved run's first cases: for the pages whose checks are the same for every case (traces, a run compared with
 * itself, a single runtime), four of the run's sixteen draw what each check reads; the bench run's own page keeps
 * them all.
 */
function firstCases(run: RunRecord, n = 4): RunRecord {
  const cases = run.cases.slice(0, n);
  return { ...run, cases, results: run.results.filter((r) => cases.some((c) => c.id === r.caseId)) };
}

function writeReport(view: View, name: string): string {
  const html = reporterFor('html')!.render(view, {});
  const path = join(dir, name);
  writeFileSync(path, html);
  return path;
}

interface Opened {
  page: Page;
  errors: string[];
  dialogs: string[];
}

async function open(path: string): Promise<Opened> {
  const page = await browser.context.newPage();
  const errors: string[] = [];
  const dialogs: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(pathToFileURL(path).href);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, errors, dialogs };
}

/** Titles of the marks of one class inside a container (Plot writes a <title> per datum). */
async function markTitles(page: Page, container: string, markClass: string, element: string): Promise<string[]> {
  return page.$$eval(`${container} .${markClass} ${element}`, (nodes) => nodes.map((n) => n.querySelector('title')?.textContent ?? ''));
}

/** "#1a9850" as the browser reports a colour: "rgb(26, 152, 80)". */
function rgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${n >> 16}, ${(n >> 8) & 255}, ${n & 255})`;
}

interface SummaryRowShown {
  caseKey: string;
  variant: string;
  verdict: string;
  verdictText: string;
  dotColour: string | undefined;
  href: string | undefined;
}

async function summaryRows(page: Page): Promise<SummaryRowShown[]> {
  return page.$$eval('#summary tbody tr[data-case]', (rows) =>
    rows.map((tr) => ({
      caseKey: tr.getAttribute('data-case')!,
      variant: tr.getAttribute('data-variant')!,
      verdict: tr.getAttribute('data-verdict')!,
      verdictText: tr.querySelector('td.verdict')?.textContent ?? '',
      dotColour: (tr.querySelector('.rt-summary-ratio') as HTMLElement | null)?.style.borderColor,
      href: tr.querySelector('a')?.getAttribute('href') ?? undefined,
    })),
  );
}

/** Every ratio table's scale, and where its dots sit (percent of the plot column) for the ratios they stand for. */
async function ratioScales(page: Page): Promise<{ domains: string[]; dots: { ratio: number; left: number }[] }> {
  return page.evaluate(() => ({
    domains: [...document.querySelectorAll('.ratio-table')].map((t) => t.getAttribute('data-domain') ?? ''),
    dots: [...document.querySelectorAll<HTMLElement>('.ratio-table .spark-dot')].map((d) => ({ ratio: Number(d.dataset.ratio), left: Number.parseFloat(d.style.left) })),
  }));
}

/** At a phone's width: the page does not scroll sideways, and every verdict shown is on screen. */
async function fitsPhone(page: Page): Promise<void> {
  await page.setViewportSize({ width: 420, height: 900 });
  await page.waitForFunction(() => document.scrollingElement!.scrollWidth <= innerWidth);
  const layout = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    innerWidth,
    // A comparison's case table says its verdict in td.verdict; a bench table's in td.relative.
    verdictsOff: [...document.querySelectorAll('#summary td.verdict, #overview td.verdict, .case-table td.verdict, .case-table:not(:has(td.verdict)) td.relative')]
      .filter((td) => !(td as HTMLElement).closest('[hidden]') && td.textContent)
      .filter((td) => td.getBoundingClientRect().right > innerWidth + 0.5).length,
  }));
  expect(layout.scrollWidth).toBeLessThanOrEqual(layout.innerWidth);
  expect(layout.verdictsOff).toBe(0);
}

function labelsOf(run: RunRecord): Map<string, string> {
  return new Map(run.variants.map((v) => [v.id, v.id]));
}

// The bench run's tests share one page and change it (picks, a phone's width): one after the other. Every other
// test opens a page of its own, and those run side by side after them (most of a test is the browser drawing).
describe('HTML report of a bench run', () => {
  const run = loadRun(BENCH_RUN);
  const view = viewOfRun(run, { file: `results/${BENCH_RUN}` });
  let opened: Opened;

  beforeAll(async () => {
    opened = await open(writeReport(view, 'bench.html'));
  });

  it('opens offline without console errors', () => {
    expect(opened.errors).toEqual([]);
  });

  it('draws, for every case, one dot per process and every sample in the histogram', async () => {
    const { page } = opened;
    const labels = labelsOf(run);
    const cards = await page.$$('article.case');
    expect(cards).toHaveLength(run.cases.length);
    for (const [i, c] of run.cases.entries()) {
      const card = `article.case[data-case="c${i}"]`;
      expect(await page.$eval(`${card} h3`, (h) => h.textContent)).toBe(c.group ? `${c.group} / ${c.name}` : c.name);
      const dots = await markTitles(page, card, 'rt-process-median', 'circle');
      const bars = await markTitles(page, card, 'rt-samples', 'rect');
      for (const result of run.results.filter((r) => r.caseId === c.id)) {
        const label = labels.get(result.variantId)!;
        const processes = result.rounds.filter((r) => r.samples.length > 0).length;
        expect(dots.filter((t) => t.startsWith(`${label}, round `)), `${c.id} / ${label}`).toHaveLength(processes);
        // Each bar says how many samples it holds; together they hold every sample of the run file.
        const counted = bars.filter((t) => t.startsWith(`${label}: `)).reduce((n, t) => n + Number(/: (\d+) samples?/.exec(t)![1]), 0);
        expect(counted, `${c.id} / ${label}`).toBe(result.rounds.reduce((n, r) => n + r.samples.length, 0));
      }
    }
  });

  it('prints the medians of the run file', async () => {
    const { page } = opened;
    for (const [i, c] of run.cases.entries()) {
      for (const [v, variant] of run.variants.entries()) {
        const result = run.results.find((r) => r.caseId === c.id && r.variantId === variant.id)!;
        const text = await page.$eval(`article.case[data-case="c${i}"] tr[data-variant="v${v}"] td.median`, (td) => td.textContent);
        expect(text).toBe(formatDuration(result.stats!.median));
      }
    }
  });

  it('opens on a summary: one row per case and non-baseline runtime, with the table\'s verdicts, whiskers and a link to the case', async () => {
    const { page } = opened;
    if (view.kind !== 'bench') throw new Error('expected a bench view');
    const expected = view.cases.flatMap((c, i) => c.rows.filter((r) => !r.isBaseline).map((r) => ({ c, i, r, cells: benchCells(r, Boolean(c.digestMismatch)) })));
    expect(expected.length).toBe(run.cases.length * (run.variants.length - 1));
    // The summary comes before everything else the page has to say.
    expect(await page.$eval('main', (m) => [...m.children].findIndex((e) => e.id === 'summary') < [...m.children].findIndex((e) => e.id === 'cases'))).toBe(true);
    const rows = await summaryRows(page);
    expect(rows).toHaveLength(expected.length);
    for (const [k, { c, i, r, cells }] of expected.entries()) {
      const row = rows[k]!;
      expect(row.caseKey).toBe(`c${i}`);
      expect(row.variant).toBe(`v${run.variants.findIndex((v) => v.id === r.variantId)}`);
      expect(row.verdict, `${c.caseId} / ${r.variantId}`).toBe(cells.verdict);
      expect(row.verdictText).toBe(cells.relative);
      expect(row.dotColour).toBe(rgb(VERDICT_COLOURS[cells.verdict!]!));
      expect(row.href).toBe(`#case-c${i}`);
    }
    expect(await page.$$('#summary .rt-summary-ci')).toHaveLength(expected.length);
    expect(await page.$$('#summary .rt-summary-geomean')).toHaveLength(view.geomeans?.length ?? 0);
    // A case's link leads to its card.
    await page.click('#summary tr[data-case="c3"] a');
    expect(await page.evaluate(() => location.hash)).toBe('#case-c3');
    expect(await page.$eval('#case-c3', (card) => card.getAttribute('data-case'))).toBe('c3');
  });

  it('lists every variant with its binary hash and the host', async () => {
    const { page } = opened;
    const table = await page.$eval('#environment .variants-table', (t) => t.textContent ?? '');
    for (const v of run.variants) {
      expect(table).toContain(v.binarySha256!);
      expect(table).toContain(v.binary!);
    }
    const panels = await page.$eval('#environment .panels', (p) => p.textContent ?? '');
    expect(panels).toContain(run.host.cpuModel);
    expect(panels).toContain(run.command.join(' '));
  });

  it('redraws for the runtimes and cases picked', async () => {
    const { page } = opened;
    const deno = run.variants.findIndex((v) => v.id === 'deno');
    const card = 'article.case[data-case="c0"]';
    const dotsBefore = await markTitles(page, card, 'rt-process-median', 'circle');
    const summaryShown = (): Promise<number> => page.$$eval('#summary tbody tr[data-case]:not([hidden])', (rows) => rows.length);
    const relativeBefore = await summaryShown();

    await page.uncheck(`nav input[data-variant="v${deno}"]`);
    const dotsAfter = await markTitles(page, card, 'rt-process-median', 'circle');
    expect(dotsAfter.some((t) => t.startsWith('deno, '))).toBe(false);
    expect(dotsAfter).toHaveLength(dotsBefore.length - dotsBefore.filter((t) => t.startsWith('deno, ')).length);
    expect(await page.isHidden(`${card} tr[data-variant="v${deno}"]`)).toBe(true);
    expect(await summaryShown()).toBe(relativeBefore - run.cases.length);
    await page.check(`nav input[data-variant="v${deno}"]`);
    expect(await markTitles(page, card, 'rt-process-median', 'circle')).toHaveLength(dotsBefore.length);

    await page.fill('#case-search', '500kb');
    const matching = run.cases.filter((c) => c.id.toLowerCase().includes('500kb')).length;
    expect(matching).toBeGreaterThan(0);
    expect(await page.$$('article.case:not([hidden])')).toHaveLength(matching);
    expect(await summaryShown()).toBe(matching * (run.variants.length - 1));
    expect(await page.$eval('#case-count', (e) => e.textContent)).toBe(`${matching} of ${run.cases.length} cases shown`);
    await page.fill('#case-search', '');

    await page.click('#cases-none');
    expect(await page.$$('article.case:not([hidden])')).toHaveLength(0);
    await page.click('summary');
    await page.check('nav input[data-case="c1"]');
    expect(await page.$$eval('article.case:not([hidden])', (cards) => cards.map((c) => c.getAttribute('data-case')))).toEqual(['c1']);
    await page.click('#cases-all');
    expect(await page.$$('article.case:not([hidden])')).toHaveLength(run.cases.length);

    // A narrower window redraws the charts to its width.
    const chart = 'article.case[data-case="c0"] .samples-chart svg';
    const widthOf = (): Promise<number> => page.$eval(chart, (svg) => Number(svg.getAttribute('width')));
    const wide = await widthOf();
    await page.setViewportSize({ width: 800, height: 900 });
    await page.waitForFunction(([selector, w]) => Number(document.querySelector(selector as string)?.getAttribute('width')) < (w as number), [chart, wide] as const);
    expect(await widthOf()).toBeLessThan(wide);
    expect(opened.errors).toEqual([]);
  });

  it('fits a phone: no sideways scrolling, verdicts on screen', async () => {
    await fitsPhone(opened.page);
    expect(opened.errors).toEqual([]);
  });

  it('labels the charts\' facets in full, wrapped, with the label as a tooltip', async () => {
    const labels = await opened.page.$$eval('article.case[data-case="c0"] .samples-chart .rt-facet-label text', (texts) =>
      texts.map((t) => {
        const shown = t.cloneNode(true) as Element;
        shown.querySelector('title')?.remove();
        return { shown: shown.textContent, title: t.querySelector('title')?.textContent };
      }),
    );
    expect(labels.map((l) => l.title)).toEqual(run.variants.map((v) => v.id));
    for (const l of labels) expect(l.shown!.replace(/\s/g, '')).toBe(l.title!.replace(/\s/g, ''));
  });
});

describe.concurrent('HTML report of comparisons', () => {
  for (const name of [COMPARE_RUN, MULTI_ARM_RUN]) {
    it(`draws a forest plot per candidate with verdict colours and the noise band, and prints the view's numbers (${name})`, async () => {
      const run = loadRun(name);
      const view = viewOfRun(run, { file: `results/${name}` });
      if (view.kind !== 'comparison') throw new Error(`${name} should make a comparison view`);
      const { page, errors } = await open(writeReport(view, name.replace('.json', '.html')));
      expect(errors).toEqual([]);

      // The summary: one row per case and arm, with the view's verdicts.
      const summary = await summaryRows(page);
      const caseIndex = (id: string): number => run.cases.findIndex((c) => c.id === id);
      const expected = view.sections
        .flatMap((section) => section.cases.map((c) => ({ section, c })))
        .sort((x, y) => caseIndex(x.c.caseId) - caseIndex(y.c.caseId));
      expect(summary).toHaveLength(run.cases.length * (run.variants.length - 1));
      expect(summary.map((r) => [r.caseKey, r.variant, r.verdict])).toEqual(
        expected.map(({ section, c }) => [`c${caseIndex(c.caseId)}`, `v${run.variants.findIndex((v) => v.id === section.candidate.id)}`, c.comparison?.verdict ?? 'none']),
      );
      for (const [k, row] of summary.entries()) {
        const c = expected[k]!.c;
        if (c.comparison) expect(row.dotColour).toBe(rgb(VERDICT_COLOURS[c.comparison.verdict]!));
      }

      // One scale for the page: the summary and every forest plot draw on the same domain, each dot where that domain puts its ratio.
      const scales = await ratioScales(page);
      expect(scales.domains).toHaveLength(view.sections.length + 1);
      expect(new Set(scales.domains).size).toBe(1);
      const [lo, hi] = scales.domains[0]!.split(',').map(Number) as [number, number];
      for (const dot of scales.dots) expect(dot.left).toBeCloseTo(Math.min(100, Math.max(0, (Math.log(dot.ratio / lo) / Math.log(hi / lo)) * 100)), 3);

      const sections = await page.$$('#overview .section');
      expect(sections).toHaveLength(view.sections.length);
      for (const [s, section] of view.sections.entries()) {
        const host = `#overview .section:nth-of-type(${s + 1})`;
        const compared = section.cases.filter((c) => c.comparison);
        const colours = await page.$$eval(`${host} .spark-dot.rt-forest-ratio`, (dots) => dots.map((d) => (d as HTMLElement).style.borderColor));
        expect(colours).toEqual(compared.map((c) => rgb(VERDICT_COLOURS[c.comparison!.verdict]!)));
        // The noise band behind every row, the geometric mean under them.
        expect(await page.$$(`${host} .rt-noise-band`)).toHaveLength(section.cases.length + (section.geomean ? 1 : 0));
        expect(await page.$$(`${host} .rt-geomean`)).toHaveLength(section.geomean ? 1 : 0);
        // The plot's rows print what the terminal report prints for this view.
        const rows = await page.$$eval(`${host} .forest-table tbody tr[data-case]`, (trs) =>
          trs.map((tr) => ['baseline-median', 'candidate-median', 'ratio', 'q'].map((cls) => tr.querySelector(`td.${cls}`)?.textContent)),
        );
        expect(rows).toHaveLength(section.cases.length);
        for (const [i, c] of section.cases.entries()) {
          const cells = comparisonCells(c, view);
          expect(rows[i]!).toEqual([cells.baseline, cells.candidate, cells.ratio, cells.q]);
          // …and those medians are the run file's.
          const result = run.results.find((r) => r.caseId === c.caseId && r.variantId === section.candidate.id)!;
          expect(cells.candidate).toBe(formatDuration(c.candidate!.median));
          expect(c.candidate!.median).toBe(result.stats!.median);
        }
      }
      // Every arm's processes are drawn for every case.
      for (const [i, c] of run.cases.entries()) {
        const dots = await markTitles(page, `article.case[data-case="c${i}"]`, 'rt-process-median', 'circle');
        for (const variant of run.variants) {
          const result = run.results.find((r) => r.caseId === c.id && r.variantId === variant.id)!;
          expect(dots.filter((t) => t.startsWith(`${variant.id}, round `)), `${c.id} / ${variant.id}`).toHaveLength(result.rounds.length);
        }
      }

      // The variants panel has each arm's flags as written and as passed to the runtime.
      for (const [v, variant] of run.variants.entries()) {
        const row = await page.$eval(`#environment tr[data-variant="v${v}"]`, (tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
        expect(row[2]).toBe(variant.flags.length ? variant.flags.join(' ') : '—');
        const passed = [...(variant.translatedFlags?.args ?? []), ...Object.entries(variant.translatedFlags?.env ?? {}).map(([k, x]) => `${k}=${x}`)];
        for (const arg of passed) expect(row[3]).toContain(arg);
        expect(row[5]).toBe(variant.binarySha256);
      }

      // Unticking a candidate hides its forest plot and its summary rows.
      await page.uncheck('nav input[data-variant="v1"]');
      expect(await page.isHidden('#overview .section[data-candidate="v1"]')).toBe(true);
      expect(await page.$$eval('#summary tbody tr[data-variant="v1"]:not([hidden])', (rows) => rows.length)).toBe(0);
      await page.check('nav input[data-variant="v1"]');
      // No engine metrics in this run: no GC table.
      expect(await page.$$('.metrics-table')).toHaveLength(0);
      await fitsPhone(page);
      expect(errors).toEqual([]);
    });
  }
});

describe.concurrent('HTML report of two saved runs (unpaired)', () => {
  it('draws a forest plot per variant the runs share, and every arm\'s processes from its own run', async () => {
    const a = firstCases(loadRun(BENCH_RUN));
    // The second run: the same processes, every sample 10% slower.
    const b: RunRecord = { ...a, id: `${a.id}-slower`, results: a.results.map((r) => ({ ...r, rounds: r.rounds.map((round) => ({ ...round, samples: round.samples.map((x) => x * 1.1) })) })) };
    const view = unpairedComparisonView({ run: a, file: 'before.json' }, { run: b, file: 'after.json' });
    const { page, errors } = await open(writeReport(view, 'unpaired.html'));
    expect(errors).toEqual([]);
    expect(await page.$$('#overview .section')).toHaveLength(a.variants.length);
    for (const [s, section] of view.sections.entries()) {
      const fills = await page.$$eval(`#overview .section:nth-of-type(${s + 1}) .spark-dot.rt-forest-ratio`, (dots) => dots.map((d) => (d as HTMLElement).style.borderColor));
      expect(fills).toHaveLength(section.cases.filter((c) => c.comparison).length);
    }
    const dots = await markTitles(page, 'article.case[data-case="c0"]', 'rt-process-median', 'circle');
    const c0 = a.cases[0]!.id;
    for (const arm of view.arms) {
      const rounds = a.results.find((r) => r.caseId === c0 && r.variantId === arm.id)!.rounds.length;
      expect(dots.filter((t) => t.startsWith(`${arm.label}, round `)), arm.label).toHaveLength(rounds);
    }
    // The candidate's process medians are the second run's: 10% above the baseline's.
    const median = async (label: string): Promise<string[]> => (await markTitles(page, 'article.case[data-case="c0"]', 'rt-process-median', 'circle')).filter((t) => t.startsWith(`${label}, round 1:`));
    const [before] = await median(view.sections[0]!.baseline.label);
    const [after] = await median(view.sections[0]!.candidate.label);
    const round0 = a.results.find((r) => r.caseId === c0 && r.variantId === view.sections[0]!.baseline.id)!.rounds[0]!.samples;
    const sorted = [...round0].sort((x, y) => x - y);
    const mid = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
    expect(before).toBe(`${view.sections[0]!.baseline.label}, round 1: process median ${formatDuration(mid)}`);
    expect(after).toBe(`${view.sections[0]!.candidate.label}, round 1: process median ${formatDuration(mid * 1.1)}`);
  });
});

describe.concurrent('HTML report of a run with sample times and modes', () => {
  it('draws one trace per process and the modes under the process dots', async () => {
    const run = withSampleTimesAndModes(firstCases(loadRun(BENCH_RUN)));
    const { page, errors } = await open(writeReport(viewOfRun(run), 'traces.html'));
    expect(errors).toEqual([]);
    for (const [i, c] of run.cases.entries()) {
      const traces = await markTitles(page, `article.case[data-case="c${i}"]`, 'rt-trace', 'path');
      for (const variant of run.variants) {
        const rounds = run.results.find((r) => r.caseId === c.id && r.variantId === variant.id)!.rounds.length;
        expect(traces.filter((t) => t.startsWith(`${variant.id}, round `)), `${c.id} / ${variant.id}`).toHaveLength(rounds);
      }
    }
    const modes = await markTitles(page, 'article.case[data-case="c0"]', 'rt-mode', 'line');
    expect(modes).toHaveLength(2);
    expect(modes.every((t) => t.startsWith('mode: '))).toBe(true);
    // Elsewhere the modes are the ones the statistics find in the saved samples (recomputed per process).
    const modesOf = (caseId: string): number =>
      run.results.filter((r) => r.caseId === caseId).reduce((n, r) => {
        const found = rowStats(r)?.modes?.modes.length ?? 0;
        return n + (found > 1 ? found : 0);
      }, 0);
    const c1Modes = modesOf(run.cases[1]!.id);
    expect(await page.$$('article.case[data-case="c1"] .rt-mode line')).toHaveLength(c1Modes);
    // The modes' counts are written in a strip of their own: no label covers a process's dot.
    const overlaps = await page.$eval('article.case[data-case="c0"] .process-chart', (chart) => {
      const boxes = (selector: string): DOMRect[] => [...chart.querySelectorAll(selector)].map((e) => e.getBoundingClientRect());
      const labels = boxes('.rt-mode-label text');
      const dots = boxes('.rt-process-median circle');
      const meet = (a: DOMRect, b: DOMRect): boolean => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      return { labels: labels.length, overlapping: labels.filter((l) => dots.some((d) => meet(l, d))).length };
    });
    expect(overlaps).toEqual({ labels: 2, overlapping: 0 });
  });
});

describe.concurrent('HTML report of a hostile run file', () => {
  it('shows names, flags and paths as text and runs nothing from them', async () => {
    const run = hostileRun(loadRun(BENCH_RUN));
    const { page, errors, dialogs } = await open(writeReport(viewOfRun(run), 'hostile.html'));
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { pwned?: unknown }).pwned)).toBeUndefined();
    // Nothing from the run became an element: the page has no <img>, no iframe, and only its own two scripts.
    expect(await page.$$('img, iframe, object, embed')).toHaveLength(0);
    expect(await page.$$('script')).toHaveLength(2);
    expect(await page.$eval('article.case[data-case="c0"] h3', (h) => h.textContent)).toBe(`${HOSTILE.group} / ${HOSTILE.name}`);
    const variants = await page.$eval('#environment .variants-table', (t) => t.textContent ?? '');
    expect(variants).toContain(HOSTILE.variant);
    expect(variants).toContain(HOSTILE.flag);
    expect(variants).toContain(HOSTILE.binary);
    expect(await page.title()).toContain(HOSTILE.suite);
    // The crashed variant's case still has a card: its note, and the other variant's marks.
    const crashed = await page.$eval('article.case[data-case="c1"]', (card) => card.textContent ?? '');
    expect(crashed).toContain(`crash: ${HOSTILE.failure}`);
    expect(await page.$$('article.case[data-case="c1"] .rt-process-median circle')).toHaveLength(run.results.find((r) => r.caseId === run.cases[1]!.id && r.variantId === run.variants[0]!.id)!.rounds.length);
  });
});

describe.concurrent('HTML report of a run with engine metrics', () => {
  const run = loadRun(METRICS_RUN);

  it('shows, per case and runtime, GC by kind per 1k ops, GC time share, bytes/op and the heap, as --metrics gc does', async () => {
    const { page, errors } = await open(writeReport(viewOfRun(run, { file: `results/${METRICS_RUN}` }), 'metrics.html'));
    expect(errors).toEqual([]);
    for (const [i, c] of run.cases.entries()) {
      const rows = await page.$$eval(`article.case[data-case="c${i}"] .metrics-table tbody tr`, (trs) =>
        trs.map((tr) => ({ variant: tr.getAttribute('data-variant'), cells: [...tr.querySelectorAll('td.num')].map((td) => td.textContent) })),
      );
      expect(rows.map((r) => r.variant)).toEqual(run.variants.map((_, v) => `v${v}`));
      for (const [v, variant] of run.variants.entries()) {
        const result = run.results.find((r) => r.caseId === c.id && r.variantId === variant.id)!;
        expect(rows[v]!.cells, `${c.id} / ${variant.id}`).toEqual(metricsRowCells(summarizeMetrics(result)));
      }
    }
    await fitsPhone(page);
    expect(errors).toEqual([]);
  });

  it('shows the memory view of a run whose memory was read, as --metrics memory does', async () => {
    const withMemory: RunRecord = { ...run, results: run.results.map((r, i) => ({ ...r, memory: { rounds: r.rounds.length, peakBytes: (90 + i) * 2 ** 20, peakAboveOpenBytes: i * 2 ** 20, growthPerCallBytes: 512 * i, leak: i === 1 } })) };
    const { page, errors } = await open(writeReport(viewOfRun(withMemory, { file: `results/${METRICS_RUN}` }), 'memory.html'));
    const expected = memoryRows(withMemory);
    for (const [i, c] of withMemory.cases.entries()) {
      const cells = await page.$$eval(`article.case[data-case="c${i}"] .memory-table tbody tr`, (trs) => trs.map((tr) => [...tr.querySelectorAll('td.num')].map((td) => td.textContent)));
      expect(cells).toEqual(withMemory.variants.map((v) => memoryRowCells(expected.find((r) => r.caseId === c.id && r.variantId === v.id)!)));
    }
    expect(errors).toEqual([]);
  });

  it('puts a comparison\'s change in GC and allocation next to its change in time', async () => {
    // Two saved runs: the second the same processes, every sample 10% slower (so the time changes and the GC counts do not).
    const b: RunRecord = { ...run, id: `${run.id}-slower`, results: run.results.map((r) => ({ ...r, rounds: r.rounds.map((round) => ({ ...round, samples: round.samples.map((x) => x * 1.1) })) })) };
    const view = unpairedComparisonView({ run, file: 'before.json' }, { run: b, file: 'after.json' });
    const { page, errors } = await open(writeReport(view, 'metrics-unpaired.html'));
    expect(errors).toEqual([]);
    const arms = view.arms.map((a) => a.label);
    for (const section of view.sections) {
      const candidate = `v${arms.indexOf(section.candidate.label)}`;
      for (const c of section.cases) {
        const i = run.cases.findIndex((x) => x.id === c.caseId);
        const change = await page.$eval(`article.case[data-case="c${i}"] .metrics-table tr[data-variant="${candidate}"] td.change`, (td) => td.textContent);
        const before = summarizeMetrics(run.results.find((r) => r.caseId === c.caseId && r.variantId === section.baseline.id)!);
        const after = summarizeMetrics(b.results.find((r) => r.caseId === c.caseId && r.variantId === section.candidate.id)!);
        expect(change).toBe(metricsChange(c.comparison?.ratio, before, after, minorGcName(before.source)));
        expect(change).toMatch(/^\+\d+(\.\d)?% time, /);
      }
    }
  });
});

describe.concurrent('HTML report of a single-variant run', () => {
  it('opens on a table of each case\'s median instead of ratios', async () => {
    const full = firstCases(loadRun(BENCH_RUN));
    const only = full.variants[0]!.id;
    const run: RunRecord = { ...full, variants: [full.variants[0]!], results: full.results.filter((r) => r.variantId === only) };
    const { page, errors } = await open(writeReport(viewOfRun(run), 'single.html'));
    expect(errors).toEqual([]);
    expect(await page.$$('#summary .ratio-table')).toHaveLength(0);
    const rows = await page.$$eval('#summary .medians-table tbody tr', (trs) => trs.map((tr) => [tr.getAttribute('data-case'), tr.querySelector('td.median')?.textContent, tr.querySelector('a')?.getAttribute('href')]));
    expect(rows).toEqual(run.cases.map((c, i) => [`c${i}`, formatDuration(run.results.find((r) => r.caseId === c.id)!.stats!.median), `#case-c${i}`]));
    await fitsPhone(page);
  });
});

describe.concurrent('HTML report of request cases with a CPU limit', () => {
  it('draws each runtime\'s CPU per request, the limit\'s line, and the share over it beside', async () => {
    // A planted tail on every 50th request (heavier on the second runtime, whose name attacks the page): about 2% over 5 ms.
    const synthetic = syntheticRequestRun({ arms: [{ id: 'node', factor: 1 }, { id: HOSTILE.variant, factor: 0.5, tailFactor: 1.5 }], rounds: 4 });
    const view = viewOfRun(synthetic, { cpuLimitMs: 5 });
    const { page, errors, dialogs } = await open(writeReport(view, 'requests.html'));
    expect(errors).toEqual([]);
    expect(dialogs).toEqual([]);
    const card = 'article.case[data-case="c0"] .case-requests';
    expect(await markTitles(page, card, 'rt-request-curve', 'path')).toEqual(['node', HOSTILE.variant]);
    expect(await page.$$(`${card} .rt-cpu-limit line`)).toHaveLength(1);
    expect(await page.$eval(`${card} .rt-cpu-limit-label`, (g) => g.textContent)).toBe('limit 5 ms');
    // Both runtimes cross the limit: a dot on each curve there, and the share the tables print beside it.
    expect(await page.$$(`${card} .rt-limit-crossing circle`)).toHaveLength(2);
    const beside = await page.$$eval(`${card} .requests-table tbody tr`, (trs) => trs.map((tr) => [tr.querySelector('td.variant')?.textContent, tr.querySelector('td.over-limit')?.textContent]));
    expect(beside).toEqual(view.cpuPerRequest!.rows.map((r) => [r.variantId, overLimitText(r.distribution!.overLimit!)]));
    expect(await page.evaluate(() => (window as unknown as { pwned?: unknown }).pwned)).toBeUndefined();
  });
});

describe.concurrent('HTML report of HTTP load measurements', () => {
  it('shows each measurement and each runtime\'s line of figures, names as text', async () => {
    const view = viewOfRun(httpLoadRun(HOSTILE.name, HOSTILE.variant));
    const { page, errors, dialogs } = await open(writeReport(view, 'load.html'));
    expect(errors).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(await page.$$eval('#load tr.load-measurement', (trs) => trs.map((tr) => tr.textContent))).toEqual([`${HOSTILE.name} [load=c1]`, `${HOSTILE.name} [load=c100]`]);
    const lines = await page.$$eval('#load tbody tr[data-variant]', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(lines).toEqual(view.load!.rows.map((row) => [row.variantId, ...loadCells(view.load!, row)]));
    expect(await page.evaluate(() => (window as unknown as { pwned?: unknown }).pwned)).toBeUndefined();
  });
});
