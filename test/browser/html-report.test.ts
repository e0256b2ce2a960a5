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
import { comparisonCells, formatDuration, reporterFor, unpairedComparisonView, viewOfRun, type View } from '@rtbench/report';
import { launchChromium, type Browser } from './chromium.ts';
import { hostileRun, HOSTILE, withSampleTimesAndModes } from '../../packages/report/test/run-fixtures.ts';

const RESULTS = join(import.meta.dirname, '../../results');
const BENCH_RUN = '20261121-124315Z-json-reviver.json';
const COMPARE_RUN = '20261121-125130Z-json-reviver-compare.json';
const MULTI_ARM_RUN = '20261121-130300Z-gc-pressure-compare.json';

let browser: Browser;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rtbench-html-test-'));
  // A missing Chromium is installed here (apt-get can take a few minutes on a clean machine).
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function loadRun(name: string): RunRecord {
  const path = join(RESULTS, name);
  return parseRun(JSON.parse(readFileSync(path, 'utf8')), path);
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
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  return { page, errors, dialogs };
}

/** Titles of the marks of one class inside a container (Plot writes a <title> per datum). */
async function markTitles(page: Page, container: string, markClass: string, element: string): Promise<string[]> {
  return page.$$eval(`${container} .${markClass} ${element}`, (nodes) => nodes.map((n) => n.querySelector('title')?.textContent ?? ''));
}

function labelsOf(run: RunRecord): Map<string, string> {
  return new Map(run.variants.map((v) => [v.id, v.id]));
}

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

  it('shows every non-baseline runtime relative to the baseline, with whiskers', async () => {
    const { page } = opened;
    const expected = view.kind === 'bench' ? view.cases.flatMap((c) => c.rows).filter((r) => r.relative).length : 0;
    expect(expected).toBeGreaterThan(0);
    expect(await page.$$('#relative-chart .rt-relative circle')).toHaveLength(expected);
    expect(await page.$$('#relative-chart .rt-relative-ci line')).toHaveLength(expected);
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
    const relativeBefore = (await page.$$('#relative-chart .rt-relative circle')).length;

    await page.uncheck(`nav input[data-variant="v${deno}"]`);
    const dotsAfter = await markTitles(page, card, 'rt-process-median', 'circle');
    expect(dotsAfter.some((t) => t.startsWith('deno, '))).toBe(false);
    expect(dotsAfter).toHaveLength(dotsBefore.length - dotsBefore.filter((t) => t.startsWith('deno, ')).length);
    expect(await page.isHidden(`${card} tr[data-variant="v${deno}"]`)).toBe(true);
    expect(await page.$$('#relative-chart .rt-relative circle')).toHaveLength(relativeBefore - run.cases.length);
    await page.check(`nav input[data-variant="v${deno}"]`);
    expect(await markTitles(page, card, 'rt-process-median', 'circle')).toHaveLength(dotsBefore.length);

    await page.fill('#case-search', '500kb');
    const matching = run.cases.filter((c) => c.id.toLowerCase().includes('500kb')).length;
    expect(matching).toBeGreaterThan(0);
    expect(await page.$$('article.case:not([hidden])')).toHaveLength(matching);
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
    const widthOf = (): Promise<number> => page.$eval('#relative-chart svg', (svg) => Number(svg.getAttribute('width')));
    const wide = await widthOf();
    await page.setViewportSize({ width: 800, height: 900 });
    await page.waitForFunction((w) => Number(document.querySelector('#relative-chart svg')?.getAttribute('width')) < w, wide);
    expect(await widthOf()).toBeLessThan(wide);
    expect(opened.errors).toEqual([]);
  });
});

describe('HTML report of comparisons', () => {
  for (const name of [COMPARE_RUN, MULTI_ARM_RUN]) {
    it(`draws a forest plot per candidate with verdict colours and the noise band, and prints the view's numbers (${name})`, async () => {
      const run = loadRun(name);
      const view = viewOfRun(run, { file: `results/${name}` });
      if (view.kind !== 'comparison') throw new Error(`${name} should make a comparison view`);
      const { page, errors } = await open(writeReport(view, name.replace('.json', '.html')));
      expect(errors).toEqual([]);

      const sections = await page.$$('#overview .section');
      expect(sections).toHaveLength(view.sections.length);
      for (const [s, section] of view.sections.entries()) {
        const host = `#overview .section:nth-of-type(${s + 1})`;
        const compared = section.cases.filter((c) => c.comparison);
        const fills = await page.$$eval(`${host} .rt-forest-ratio circle`, (dots) => dots.map((d) => d.getAttribute('fill')));
        expect(fills).toHaveLength(compared.length);
        const colours: Record<string, string> = { faster: '#1a9850', slower: '#d73027', equivalent: '#6b7280', inconclusive: '#d99a00' };
        expect(fills).toEqual(compared.map((c) => colours[c.comparison!.verdict]));
        expect(await page.$$(`${host} .rt-noise-band rect`)).toHaveLength(1);
        expect(await page.$$(`${host} .rt-geomean path`)).toHaveLength(section.geomean ? 1 : 0);
        // The table under the plot prints what the terminal report prints for this view.
        const rows = await page.$$eval(`${host} .forest-table tbody tr[data-case]`, (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
        expect(rows).toHaveLength(section.cases.length);
        for (const [i, c] of section.cases.entries()) {
          const cells = comparisonCells(c, view);
          expect(rows[i]!.slice(1, 4)).toEqual([cells.baseline, cells.candidate, cells.ratio]);
          expect(rows[i]![5]).toBe(cells.q);
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

      // Unticking a candidate hides its forest plot.
      await page.uncheck('nav input[data-variant="v1"]');
      expect(await page.isHidden('#overview .section[data-candidate="v1"]')).toBe(true);
      expect(errors).toEqual([]);
    });
  }
});

describe('HTML report of two saved runs (unpaired)', () => {
  it('draws a forest plot per variant the runs share, and every arm\'s processes from its own run', async () => {
    const a = loadRun(BENCH_RUN);
    // The second run: the same processes, every sample 10% slower.
    const b: RunRecord = { ...a, id: `${a.id}-slower`, results: a.results.map((r) => ({ ...r, rounds: r.rounds.map((round) => ({ ...round, samples: round.samples.map((x) => x * 1.1) })) })) };
    const view = unpairedComparisonView({ run: a, file: 'before.json' }, { run: b, file: 'after.json' });
    const { page, errors } = await open(writeReport(view, 'unpaired.html'));
    expect(errors).toEqual([]);
    expect(await page.$$('#overview .section')).toHaveLength(a.variants.length);
    for (const [s, section] of view.sections.entries()) {
      const fills = await page.$$eval(`#overview .section:nth-of-type(${s + 1}) .rt-forest-ratio circle`, (dots) => dots.map((d) => d.getAttribute('fill')));
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

describe('HTML report of a run with sample times and modes', () => {
  it('draws one trace per process and the modes under the process dots', async () => {
    const run = withSampleTimesAndModes(loadRun(BENCH_RUN));
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
    expect(await page.$$('article.case[data-case="c1"] .rt-mode line')).toHaveLength(0);
  });
});

describe('HTML report of a hostile run file', () => {
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
