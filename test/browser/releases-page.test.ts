/**
 * The release matrix's page in a real browser (Debian's headless Chromium):
 * made from made-up runs of six releases where one case gets 0.6× as long at
 * the fourth (packages/releases/test/fake-runs.ts), opened from a file: no
 * console errors; the summary (last steps, change points and their commands)
 * within the first screen; per track a line per case across every release,
 * each step's interval, the change point marked with the engine change, the
 * newest release shaded; a case picked draws it alone; a screenshot of the
 * chart holds the lines' and the change's colours.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { analyseMatrix, openMatrix, syncTracks, type MatrixIdentity } from '@rtbench/releases';
import { releasesPage } from '@rtbench/report';
import { launchChromium, type Browser } from './chromium.ts';
import { fakeWindowRun } from '../../packages/releases/test/fake-runs.ts';

let browser: Browser;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rtbench-releases-page-'));
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const RELEASES = ['25.8.0', '25.8.1', '25.8.2', '25.9.0', '26.0.0', '26.1.0'];
const CASES = ['parse / identity reviver (arrow) [size=10kb]', 'parse / no reviver [size=10kb]', '<img src=x onerror="window.pwned=1">'];
const IDENTITY: MatrixIdentity = { filter: '', threshold: 0.01, timePerSetMs: 100, warmupMs: 150, sets: 12, setsPerProcess: 2, windowSize: 6 };

/** Pixels of the screenshot close to a colour: the chart drew with it. */
async function hasColour(png: Buffer, page: Awaited<ReturnType<Browser['context']['newPage']>>, hex: string): Promise<boolean> {
  return page.evaluate(
    async ({ data, hex }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const px = ctx.getImageData(0, 0, img.width, img.height).data;
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
      for (let i = 0; i < px.length; i += 4) if (Math.abs(px[i]! - r) < 40 && Math.abs(px[i + 1]! - g) < 40 && Math.abs(px[i + 2]! - b) < 40) return true;
      return false;
    },
    { data: png.toString('base64'), hex },
  );
}

describe('release matrix page (headless Chromium)', () => {
  it('shows the summary on the first screen, every release and the change point marked, and a case picked alone', async () => {
    const state = openMatrix(join(dir, 'matrix'), IDENTITY, 'test machine');
    const [track] = syncTracks(state, [{ key: 'node × json-reviver', runtime: 'node', extra: [], suite: 'json-reviver', range: 'node@25.8.0..node@26.1.0', listed: RELEASES, releases: RELEASES }]);
    const run = fakeWindowRun({ runtime: 'node', releases: RELEASES, cases: CASES, sets: 12, seed: 5, factor: (r, c) => (c === CASES[0] && r >= '26.0.0' ? 0.6 : 1) });
    track!.windows[0]!.runs.push('run.json');
    const view = analyseMatrix(IDENTITY, [track!], (): RunRecord => run, dir);
    expect(view.changePoints.map((c) => [c.caseId, c.older, c.newer])).toEqual([[CASES[0], '25.9.0', '26.0.0']]);
    const path = join(dir, 'releases.html');
    writeFileSync(path, releasesPage(view));

    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    await page.goto(pathToFileURL(path).href);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });

    // The summary: each runtime's last step and every change point with its command, within the first screen (900 px).
    expect(await page.textContent('#last-steps')).toContain('26.0.0 → 26.1.0 (V8 engine-of-26.0.0 → V8 engine-of-26.1.0)');
    const change = await page.textContent('#change-list');
    expect(change).toContain('25.9.0 → 26.0.0 (V8 engine-of-25.9.0 → V8 engine-of-26.0.0): faster');
    expect(change).toContain('rtbench bench json-reviver --compare node@25.9.0 node@26.0.0');
    const summary = await page.locator('#change-list').boundingBox();
    expect(summary!.y + summary!.height).toBeLessThanOrEqual(900);

    // A line per case through every release, a bar per measured step, one change point labelled with its engines, the newest shaded.
    const section = page.locator('section.track');
    expect(await section.locator('.rt-releases-line path').count()).toBe(CASES.length);
    expect(await section.locator('.rt-releases-point circle').count()).toBe(CASES.length * RELEASES.length);
    expect(await section.locator('.rt-releases-ci line').count()).toBe(CASES.length * (RELEASES.length - 1));
    expect(await section.locator('.rt-releases-change path').count()).toBe(1);
    expect(await section.locator('.rt-releases-engine text').textContent()).toBe('V8 engine-of-25.9.0 → V8 engine-of-26.0.0');
    expect(await section.locator('.rt-releases-newest rect').count()).toBe(1);
    const ticks = await section.locator('svg [aria-label="x-axis tick label"] text').allTextContents();
    expect(ticks).toEqual(RELEASES);

    // The screenshot of the chart holds the first case's line colour and the change point's.
    const shot = await section.locator('.chart').screenshot();
    expect(await hasColour(shot, page, '#4e79a7')).toBe(true);
    expect(await hasColour(shot, page, '#1a9850')).toBe(true);

    // A case picked: its line alone, the change point still marked; a case without one: no mark.
    await page.selectOption('select[data-track]', CASES[0]!);
    expect(await section.locator('.rt-releases-line path').count()).toBe(1);
    expect(await section.locator('.rt-releases-change path').count()).toBe(1);
    await page.selectOption('select[data-track]', CASES[1]!);
    expect(await section.locator('.rt-releases-change path').count()).toBe(0);
    // A case name from a run is text, never markup.
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(errors).toEqual([]);
    await page.close();
  }, 300_000);
});
