/**
 * Native flame graphs (`--profile native`, perf) in the HTML report, from one
 * real profiled comparison made through the CLI — json-reviver's arrow
 * reviver on node@24 and node@26, the README's worked example, kept short —
 * opened in headless Chromium: the native section draws an icicle per
 * variant with V8's own JSON.parse frames by name, says what perf resolved
 * and the samples behind the shares, and the differential view names the
 * engine functions whose share moved most. perf comes from Debian's
 * linux-perf, installed when the test may. No assertion is on time.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProfileManifest, type ProfileManifest } from '@rtbench/core/profile-manifest';
import { TIMED_LOOP } from '../../packages/profile/src/native-frames.ts';
import { program } from '../helpers/system-programs.ts';
import { runCli } from '../helpers/cli.ts';
import { launchChromium, type Browser } from './chromium.ts';
import { frameTitles, openReport } from './flame-page.ts';

const perf = await program('perf');

let browser: Browser;
let dir: string;
let page: string;
let manifest: ProfileManifest;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rtbench-flame-native-test-'));
  const runPath = join(dir, 'run.json');
  page = join(dir, 'page.html');
  const bench = runCli(
    [
      'bench', 'json-reviver', '--filter', 'identity reviver (arrow) [size=10kb]', '--compare', 'node@24', 'node@26',
      '--rounds', '1', '--time', '50ms', '--warmup', '10ms', '--fixed-warmup', '--quiet', '--profile', 'native', '--save', runPath, '--html', page,
    ],
    { RTBENCH_PERF: perf },
  );
  if (bench.status !== 0) throw new Error(`bench --profile native failed (${bench.status}): ${bench.stderr}`);
  const manifestPath = runPath.replace(/\.json$/, '.profiles/profiles.json');
  manifest = parseProfileManifest(JSON.parse(readFileSync(manifestPath, 'utf8')), manifestPath);
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('native flame graphs of node@24 → node@26 on the arrow reviver', () => {
  it('saves a native tree per variant, what perf resolved, and where the time moved between engine functions', () => {
    expect(manifest.profiles).toEqual([]);
    expect(manifest.native?.map((p) => [p.variantId, p.status, p.file])).toEqual([
      ['node@24', 'ok', expect.stringMatching(/\.native\.cpuprofile$/)],
      ['node@26', 'ok', expect.stringMatching(/\.native\.cpuprofile$/)],
    ]);
    for (const p of manifest.native!) expect(p.resolution).toMatchObject({ periodUs: 250, unresolvedShare: expect.any(Number) });
    const movers = manifest.nativeDiffs?.[0]?.movers ?? [];
    expect(movers.slice(0, 3).some((m) => m.name.startsWith('v8::internal::') && m.category === 'engine'), JSON.stringify(movers.slice(0, 5))).toBe(true);
  });

  it("draws V8's own frames in each icicle, says what was resolved, and lists the engine functions that moved", async () => {
    const { page: p, errors, requests } = await openReport(browser, page);
    try {
      const section = 'article.case[data-case="c0"] .flames-native';
      const flames = await p.$$eval(`${section} .flame`, (els) => els.map((e) => (e as HTMLElement).dataset.variant));
      expect(flames).toEqual(['v0', 'v1']);
      for (const v of flames) {
        const titles = await frameTitles(p, `${section} .flame[data-variant="${v}"]`, 'rt-flame-frame');
        // The reviver's parse (the internalizer runs only with a reviver), not the harness's JSON.parse of its protocol lines.
        const json = titles.find((t) => /^v8::internal::JsonParseInternalizer::/.test(t));
        expect(json, `${v}: ${titles.slice(0, 20).join(' | ')}`).toMatch(/\ncategory: engine\ntotal [\d.]+ ms \([\d.]+%\)/);
        const resolution = await p.$eval(`${section} .flame[data-variant="${v}"] .flame-resolution`, (e) => e.textContent);
        expect(resolution).toMatch(/^\d+ samples every 250 µs of CPU · .*node's binary carries its symbols/);
      }
      const diff = `${section} .flame-diff-view[data-baseline="v0"][data-candidate="v1"]`;
      const diffTitles = await frameTitles(p, diff, 'rt-flame-diff-frame');
      expect(diffTitles.some((t) => t.startsWith('v8::internal::') && /\nchange: [+−][\d.]+ pt$/.test(t))).toBe(true);
      // The two arms' trees line up: both start at the case's timed loop (the harness's frames, which the two
      // releases' JITs inline differently, merged into one), so node@26's is matched to node@24's, not shown as new.
      const timed = diffTitles.find((t) => t.startsWith(`${TIMED_LOOP}\n`));
      expect(timed, diffTitles.slice(0, 5).join(' | ')).toBeDefined();
      expect(Number(/, node@24 ([\d.]+)% \(self/.exec(timed!)?.[1]), timed).toBeGreaterThan(50);
      const firstMovers = await p.$$eval(`${diff} .flame-movers tbody tr td:first-child`, (tds) => tds.slice(0, 3).map((td) => td.textContent ?? ''));
      expect(firstMovers.some((n) => n.startsWith('v8::internal::')), firstMovers.join(' | ')).toBe(true);
      expect(errors).toEqual([]);
      expect(requests).toEqual([]);
    } finally {
      await p.close();
    }
  });
});
