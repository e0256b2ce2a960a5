/**
 * The release matrix's page in a real browser (Debian's headless Chromium):
 * made from made-up runs of six releases where one case gets 0.6× as long at
 * the fourth (packages/releases/test/fake-runs.ts), opened from a file: no
 * console errors; the summary (last steps, change points and their commands)
 * within the first screen; per track a line per case across every release,
 * each step's interval, the change point marked with the engine change, the
 * newest release shaded; a case picked draws it alone; a screenshot of the
 * chart holds the lines' and the change's colours. With made-up claims runs
 * on two of the releases (packages/releases/test/fake-claims.ts): the track's
 * claims × releases table visible beside the chart, each claim's word per
 * release in its colour, the claim that flipped listed with its bisect.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { analyseMatrix, matchClaims, openMatrix, syncTracks, type MatrixIdentity } from '@rtbench/releases';
import { pageReporter } from '@rtbench/report';
import { launchChromium, type Browser } from './chromium.ts';
import { fakeWindowRun } from '../../packages/releases/test/fake-runs.ts';
import { claimsRun, given, outcome, releaseOf, variant } from '../../packages/releases/test/fake-claims.ts';

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
/** `claims json-reviver --across node@25.9.0,node@26.0.0`, made up: the first claim flips at 26.0.0, the third was checked on 25.9.0 only. */
const SAYS = ['<b>No reviver</b> parses at least 1.5× faster than the arrow reviver', 'Plain parsing is faster than itself', 'The arrow reviver is faster than none'];
/** Each claim's subject and other case. */
const SIDES = [[1, 0], [1, 1], [0, 1]] as const;
const claimsOn = (tag: string, startedAt: string, words: ('held' | 'broken' | 'undecided')[]) =>
  claimsRun(
    `claims-${tag}`,
    startedAt,
    [variant(`node@${tag}`, 'node', tag)],
    words.map((word, i) => outcome(SAYS[i]!, [CASES[SIDES[i]![0]]!, `node@${tag}`], [CASES[SIDES[i]![1]]!, `node@${tag}`], word, 'json-reviver')),
    'json-reviver',
  );

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
    const [track] = syncTracks(state, [{ key: 'node × json-reviver', runtime: 'node', extra: [], suite: 'json-reviver', range: 'node@25.8.0..node@26.1.0', listed: RELEASES, releases: RELEASES }]).tracks;
    const run = fakeWindowRun({ runtime: 'node', releases: RELEASES, cases: CASES, sets: 12, seed: 5, factor: (r, c) => ((c === CASES[0] || c === CASES[1]) && r >= '26.0.0' ? 0.6 : 1) });
    track!.windows[0]!.runs.push('run.json');
    const claims = matchClaims([track!], [given('claims', claimsOn('25.9.0', '2026-01-01T10:00:00Z', ['held', 'held', 'undecided']), claimsOn('26.0.0', '2026-01-01T11:00:00Z', ['broken', 'held']))], releaseOf, (s) => s);
    const view = analyseMatrix(IDENTITY, [track!], (): RunRecord => run, dir, claims);
    expect(view.changePoints.map((c) => [c.caseId, c.older, c.newer])).toEqual([[CASES[0], '25.9.0', '26.0.0'], [CASES[1], '25.9.0', '26.0.0']]);
    const path = join(dir, 'releases.html');
    writeFileSync(path, pageReporter().render(view, { color: false, columns: 100 }));

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

    // A line per case through every release, a bar per measured step, two change points at one step labelled once with its engines, the newest shaded.
    const section = page.locator('section.track');
    expect(await section.locator('.rt-releases-line path').count()).toBe(CASES.length);
    expect(await section.locator('.rt-releases-point circle').count()).toBe(CASES.length * RELEASES.length);
    expect(await section.locator('.rt-releases-ci line').count()).toBe(CASES.length * (RELEASES.length - 1));
    expect(await section.locator('.rt-releases-change path').count()).toBe(2);
    expect(await section.locator('.rt-releases-engine text').allTextContents()).toEqual(['V8 engine-of-25.9.0 → V8 engine-of-26.0.0']);
    expect(await section.locator('.rt-releases-newest rect').count()).toBe(1);
    const ticks = await section.locator('svg [aria-label="x-axis tick label"] text').allTextContents();
    expect(ticks).toEqual(RELEASES);

    // The screenshot of the chart holds the first case's line colour and the change point's.
    const shot = await section.locator('.chart').screenshot();
    expect(await hasColour(shot, page, '#4e79a7')).toBe(true);
    expect(await hasColour(shot, page, '#1a9850')).toBe(true);

    // Claims × the releases checked, beside the chart: a word per claim and release in its colour, "—" where not checked; the flip with its bisect.
    const grid = section.locator('table.rt-releases-claims');
    expect(await grid.isVisible()).toBe(true);
    expect(await grid.locator('thead th').allTextContents()).toEqual(['claim', '25.9.0V8 engine-of-25.9.0', '26.0.0V8 engine-of-26.0.0']);
    expect(await grid.locator('tbody td.claim-word').allTextContents()).toEqual(['held', 'broken', 'held', 'held', 'undecided', '—']);
    expect(await grid.locator('td.claim-word.broken').evaluate((td) => getComputedStyle(td).backgroundColor)).toBe('rgb(254, 226, 226)');
    expect(await grid.locator('td.claim-word.held').first().getAttribute('title')).toBe('held: 2.00× faster [1.82–2.22]; claimed at least 1.5× faster; 6 units');
    const flips = await page.textContent('#claim-flips');
    expect(flips).toContain(`node × json-reviver: ${SAYS[0]} · node: parse: no reviver vs identity reviver (arrow): held on 25.9.0, broken on 26.0.0`);
    expect(flips).toContain("rtbench bisect node@25.9.0..node@26.0.0 json-reviver --filter '/^parse \\/ identity reviver \\(arrow\\) \\[size=10kb\\]$/'");
    expect(await grid.locator('b').count()).toBe(0);
    const claimsShot = await section.locator('.claims').screenshot();
    expect(await hasColour(claimsShot, page, '#cf222e')).toBe(true);
    expect(await hasColour(claimsShot, page, '#1a7f37')).toBe(true);

    // A case picked: its line alone, the change point still marked; a case without one: no mark.
    await page.selectOption('select[data-track]', CASES[0]!);
    expect(await section.locator('.rt-releases-line path').count()).toBe(1);
    expect(await section.locator('.rt-releases-change path').count()).toBe(1);
    await page.selectOption('select[data-track]', CASES[2]!);
    expect(await section.locator('.rt-releases-change path').count()).toBe(0);
    // A case name from a run is text, never markup.
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(errors).toEqual([]);
    await page.close();
  }, 300_000);
});
