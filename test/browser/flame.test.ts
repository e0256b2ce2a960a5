/**
 * Flame graphs in the HTML report, from a real profiled comparison made
 * through the CLI (the profile-hot fixture: two node arms that differ only in
 * how much work `slowHelper` does), opened in headless Chromium: every page
 * the CLI can make for such a run (bench --format html, --html, and
 * `rtbench report <run> --format html`) draws one icicle per case × variant
 * with the hot helper's frame, and the differential view with the helper on
 * top of the movers; no console errors, no request leaves the file; at 420 px
 * the charts scroll inside their boxes. No assertion is on time.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProfileManifest } from '@rtbench/core/profile-manifest';
import { runCli } from '../helpers/cli.ts';
import { BASE, CANDIDATE, profiledComparison } from '../helpers/profiled-comparison.ts';
import { launchChromium, type Browser } from './chromium.ts';
import { frameTitles, openReport } from './flame-page.ts';

let browser: Browser;
let dir: string;
let runPath: string;
const pages: Record<'format' | 'html' | 'report', string> = { format: '', html: '', report: '' };

beforeAll(async () => {
  // The run is the pool's (test/profile-cli.test.ts reads it too); the report's page is this file's own.
  const made = await profiledComparison();
  runPath = made.runPath;
  pages.format = made.formatPage;
  pages.html = made.htmlPage;
  dir = mkdtempSync(join(tmpdir(), 'rtbench-flame-test-'));
  pages.report = join(dir, 'report.html');
  const report = runCli(['report', runPath, '--format', 'html', '-o', pages.report]);
  if (report.status !== 0) throw new Error(`report failed (${report.status}): ${report.stderr}`);
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// The report's page is opened once: its icicles are read, then zoomed, filtered and narrowed, each test leaving it as
// it found it but for the last (the phone's width), in order.
let opened: ReturnType<typeof openReport> | undefined;
const reportPage = (): ReturnType<typeof openReport> => (opened ??= openReport(browser, pages.report));

describe('flame graphs of a profiled comparison', () => {
  it('saves the manifest beside the run: one tree per case × variant and the diff', () => {
    const manifestPath = runPath.replace(/\.json$/, '.profiles/profiles.json');
    expect(existsSync(manifestPath)).toBe(true);
    const manifest = parseProfileManifest(JSON.parse(readFileSync(manifestPath, 'utf8')), manifestPath);
    const run = JSON.parse(readFileSync(runPath, 'utf8')) as { id: string };
    expect(manifest.runId).toBe(run.id);
    expect(manifest.profiles.map((p) => [p.variantId, p.status])).toEqual([
      [BASE, 'ok'],
      [CANDIDATE, 'ok'],
    ]);
    for (const p of manifest.profiles) expect(p.tree!.nodes).toBeLessThanOrEqual(400);
    expect(manifest.diffs.map((d) => [d.baseline, d.candidate, d.movers[0]?.name])).toEqual([[BASE, CANDIDATE, 'slowHelper']]);
  });

  for (const which of ['format', 'html', 'report'] as const) {
    it(`draws an icicle per variant with the hot helper, and the differential view (${which})`, async () => {
      const { page, errors, requests } = which === 'report' ? await reportPage() : await openReport(browser, pages[which]);
      try {
        const flames = await page.$$eval('article.case[data-case="c0"] .flames .flame', (els) => els.map((e) => (e as HTMLElement).dataset.variant));
        expect(flames).toEqual(['v0', 'v1']);
        for (const v of flames) {
          const titles = await frameTitles(page, `.flames .flame[data-variant="${v}"]`, 'rt-flame-frame');
          expect(titles[0]).toMatch(/^\(root\)\n/);
          const hot = titles.find((t) => t.startsWith('slowHelper\n'));
          expect(hot, `${v}: ${titles.join(' | ')}`).toBeDefined();
          expect(hot).toContain('test/fixtures/profile-hot/index.ts:14');
          expect(hot).toMatch(/category: benchmark\ntotal [\d.]+ ms \([\d.]+%\), self [\d.]+ ms/);
        }
        // The differential view: the slow arm's frames, the helper's share up; the movers table led by it.
        const diffTitles = await frameTitles(page, '.flames .flame-diff-view[data-baseline="v0"][data-candidate="v1"]', 'rt-flame-diff-frame');
        const hot = diffTitles.find((t) => t.startsWith('slowHelper\n'));
        expect(hot).toMatch(/\nchange: \+[\d.]+ pt$/);
        const firstMover = await page.$eval('.flame-diff-view .flame-movers tbody tr td', (td) => td.textContent);
        expect(firstMover).toBe('slowHelper');
        expect(errors).toEqual([]);
        expect(requests).toEqual([]);
      } finally {
        if (which !== 'report') await page.close();
      }
    });
  }

  it('zooms into a frame on click and back out', async () => {
    const { page, errors } = await reportPage();
    const flame = '.flames .flame[data-variant="v1"]';
    const before = (await frameTitles(page, flame, 'rt-flame-frame')).length;
    const index = (await frameTitles(page, flame, 'rt-flame-frame')).findIndex((t) => t.startsWith('slowHelper\n'));
    await page.locator(`${flame} .rt-flame-frame rect`).nth(index).click();
    expect(await page.$eval(`${flame} .flame-crumbs`, (p) => p.textContent)).toMatch(/zoomed into slowHelper/);
    const zoomed = await frameTitles(page, flame, 'rt-flame-frame');
    expect(zoomed[0]).toMatch(/^slowHelper\n/);
    expect(zoomed.length).toBeLessThan(before);
    await page.click(`${flame} .flame-unzoom`);
    expect(await frameTitles(page, flame, 'rt-flame-frame')).toHaveLength(before);
    expect(errors).toEqual([]);
  });

  it('the runtime filter hides a variant\'s icicle and the differential views it is part of', async () => {
    const { page, errors } = await reportPage();
    const hidden = (selector: string): Promise<boolean> => page.$eval(selector, (e) => (e as HTMLElement).hidden);
    await page.uncheck('input[data-variant="v1"]');
    expect(await hidden('.flames .flame[data-variant="v1"]')).toBe(true);
    expect(await hidden('.flames .flame[data-variant="v0"]')).toBe(false);
    expect(await hidden('.flames .flame-diff-view')).toBe(true);
    await page.check('input[data-variant="v1"]');
    expect(await hidden('.flames .flame[data-variant="v1"]')).toBe(false);
    expect(await hidden('.flames .flame-diff-view')).toBe(false);
    expect(errors).toEqual([]);
  });

  it('at 420 px the flame graphs scroll inside their boxes, not the page', async () => {
    const { page, errors } = await reportPage();
    await page.setViewportSize({ width: 420, height: 900 });
    const boxes = await page.$$eval('.flames .flame-box', (els) => els.map((e) => ({ right: e.getBoundingClientRect().right, client: e.clientWidth, scroll: e.scrollWidth })));
    expect(boxes.length).toBe(3);
    for (const box of boxes) {
      expect(box.right).toBeLessThanOrEqual(420);
      expect(box.scroll).toBeGreaterThan(box.client);
    }
    const right = await page.$$eval('.flames', (els) => Math.max(...els.map((e) => e.getBoundingClientRect().right)));
    expect(right).toBeLessThanOrEqual(420);
    expect(errors).toEqual([]);
  });
});
