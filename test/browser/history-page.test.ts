/**
 * The history page in a real browser (Debian's headless Chromium): made from
 * synthetic saved runs with a step change and a new binary, opened from a
 * file: no console errors, a line chart per case with a point per run, the
 * change point and the binary change marked where the view has them, and
 * hostile names shown as text.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyView, reporterFor } from '@rtbench/report';
import { launchChromium, type Browser } from './chromium.ts';
import { HOSTILE } from '../../packages/report/test/run-fixtures.ts';
import { historyRuns } from '../history-synthetic.ts';

let browser: Browser;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rtbench-history-page-'));
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cases = [
  { id: 'parse / small', ns: 1_000 },
  { id: HOSTILE.name, ns: 8_000 },
];

describe('history page (headless Chromium)', () => {
  it('draws a line chart per case with every run, the change point and the new binary marked', async () => {
    const binary = { version: '24.2.0', sha256: 'c'.repeat(64) };
    const runs = historyRuns([{ factor: 1 }, { factor: 1 }, { factor: 1.1, binary }, { factor: 1.1, binary }, { factor: 1.1, binary }], { cases, rounds: 10, seed: 3, variants: ['node@24', HOSTILE.variant], suite: HOSTILE.suite });
    const view = historyView(runs.map((run, i) => ({ run, file: join(dir, `run-${i}.json`) })));
    const expectedChanges = view.cases.map((hc) => hc.series.reduce((n, s) => n + s.points.filter((p) => p.changePoint).length, 0));
    expect(expectedChanges.every((n) => n >= 1)).toBe(true);
    const path = join(dir, 'history.html');
    writeFileSync(path, reporterFor('html')!.render(view, {}));

    const page = await browser.context.newPage();
    const errors: string[] = [];
    const dialogs: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(pathToFileURL(path).href);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });

    const sections = await page.$$('section.case');
    expect(sections).toHaveLength(2);
    for (const [i, section] of sections.entries()) {
      // A line per variant; a dot per variant and run; a triangle per change point; a dashed rule per variant at the new binary.
      expect(await section.$$('.rt-history-line path')).toHaveLength(2);
      expect(await section.$$('.rt-history-point circle')).toHaveLength(2 * 5);
      expect(await section.$$('.rt-history-change path')).toHaveLength(expectedChanges[i]!);
      expect(await section.$$('.rt-history-binary line')).toHaveLength(2);
      const titles = await section.$$eval('.rt-history-change path', (nodes) => nodes.map((n) => n.querySelector('title')?.textContent ?? ''));
      for (const t of titles) expect(t).toMatch(/^▲ .* at run 3 \(2026-01-03 00:00\): 1\.\d{3}×/);
    }
    // Names from the run are text, never markup.
    expect(await page.$eval('section.case:nth-of-type(2) h3', (h) => h.textContent)).toBe(HOSTILE.name);

    // Filters: a variant unticked leaves one line and its dots per case; the search hides the cases it does not match.
    await page.locator('input[data-variant]').nth(1).uncheck(); // the hostile variant, second in order
    for (const section of await page.$$('section.case')) {
      expect(await section.$$('.rt-history-line path')).toHaveLength(1);
      expect(await section.$$('.rt-history-point circle')).toHaveLength(5);
    }
    await page.fill('#case-search', 'small');
    expect(await page.$$eval('section.case', (ss) => ss.map((s) => !(s as HTMLElement).hidden))).toEqual([true, false]);
    expect(await page.textContent('#case-count')).toBe('1 of 2 cases');
    await page.uncheck('input[data-variant="node@24"]');
    expect(await page.textContent('section.case:not([hidden]) .history-chart')).toBe('no variant of this case is ticked');
    await page.fill('#case-search', '');
    await page.locator('input[data-variant]').nth(1).check();
    expect(await page.$$('section.case:not([hidden]) .rt-history-line path')).toHaveLength(2);
    expect(await page.evaluate(() => (window as unknown as { pwned?: string }).pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 300_000);
});
