/**
 * The README's pictures of the HTML report, taken from saved runs in results/
 * with the same headless Chromium as the browser test:
 *
 *   flock /tmp/rtbench-measure.lock npx tsx test/browser/screenshots.ts [file.png …]
 *
 * (with file names: only those pictures, and only the runs they need)
 * writes docs/img/html-report-{overview,case,forest,phone}.png, and
 * docs/img/html-report-flame{,-reviver-native}.png from two profiled comparisons it makes
 * first (the profile-hot fixture; json-reviver's arrow reviver on node@24 and
 * node@26 under perf, `--profile native`: half a minute of node, hence the lock).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { parseRun } from '@rtbench/core/schema';
import { reporterFor, viewOfRun } from '@rtbench/report';
import { ownChromium } from './chromium.ts';

const ROOT = join(import.meta.dirname, '../..');
const OUT = join(ROOT, 'docs/img');

interface Shot {
  /** A run in results/, or a page made here. */
  run?: string;
  page?: string;
  file: string;
  /** What to capture; `clipHeight` crops it from the top. */
  selector: string;
  clipHeight?: number;
  /** Window width (default 1100 px). */
  width?: number;
}

const SHOTS: Shot[] = [
  { run: '20261121-124315Z-json-reviver.json', file: 'html-report-overview.png', selector: 'main', clipHeight: 900 },
  { run: '20261122-093249Z-gc-pressure.json', file: 'html-report-case.png', selector: 'article.case[data-case="c0"]' },
  { run: '20261121-130300Z-gc-pressure-compare.json', file: 'html-report-forest.png', selector: '#overview .section[data-candidate="v1"]' },
  { run: '20261121-130300Z-gc-pressure-compare.json', file: 'html-report-phone.png', selector: 'main', clipHeight: 1100, width: 420 },
  { page: 'profiled.html', file: 'html-report-flame.png', selector: 'article.case[data-case="c0"] .flames' },
  { page: 'reviver.html', file: 'html-report-flame-reviver-native.png', selector: 'article.case[data-case="c0"] .flames-native' },
];

const only = process.argv.slice(2);
const shots = only.length ? SHOTS.filter((s) => only.includes(s.file)) : SHOTS;
if (shots.length < only.length) throw new Error(`no such picture among ${SHOTS.map((s) => s.file).join(', ')}`);
const needs = (page: string): boolean => shots.some((s) => s.page === `${page}.html`);
const dir = mkdtempSync(join(tmpdir(), 'rtbench-shots-'));
// The flame graphs need a run with profiles beside it: a comparison whose arms differ only in one helper's work.
function profiledPage(name: string, args: string[], kinds = 'cpu'): void {
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'packages/cli/bin/rtbench.mjs'), 'bench', ...args, '--quiet', '--profile', kinds, '--save', join(dir, `${name}.json`), '--html', join(dir, `${name}.html`)],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
  );
  if (r.status !== 0) throw new Error(`the profiled run ${name} failed: ${r.stderr}`);
}
if (needs('profiled')) profiledPage('profiled', [join(ROOT, 'test/fixtures/profile-hot/index.ts'), '--compare', 'node', 'node PROFILE_HOT_SLOW=4', '--rounds', '2', '--time', '50ms', '--warmup', '10ms']);
// The README's worked example: the arrow reviver, node@24 against node@26, in the engine's own frames.
if (needs('reviver')) profiledPage('reviver', ['json-reviver', '--filter', 'identity reviver (arrow) [size=10kb]', '--compare', 'node@24', 'node@26', '--rounds', '4'], 'native');
const browser = await ownChromium({ width: 1100, height: 900 });
try {
  mkdirSync(OUT, { recursive: true });
  for (const shot of shots) {
    let page_ = join(dir, shot.page ?? '');
    if (shot.run) {
      const path = join(ROOT, 'results', shot.run);
      const html = reporterFor('html')!.render(viewOfRun(parseRun(JSON.parse(readFileSync(path, 'utf8')), path), { file: `results/${shot.run}` }), {});
      page_ = join(dir, shot.run.replace('.json', '.html'));
      writeFileSync(page_, html);
    }
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: shot.width ?? 1100, height: 900 });
    await page.goto(pathToFileURL(page_).href);
    await page.waitForSelector('body[data-ready="true"]');
    // The filter bar sticks to the top while scrolling; in a still picture it would cover what is below it.
    await page.addStyleTag({ content: '.filters { position: static !important; }' });
    const box = await page.locator(shot.selector).boundingBox();
    if (!box) throw new Error(`${shot.selector} is not on the page`);
    const clip = { x: Math.max(0, box.x - 8), y: Math.max(0, box.y - 8), width: box.width + 16, height: Math.min(box.height, shot.clipHeight ?? Infinity) + 16 };
    await page.screenshot({ path: join(OUT, shot.file), clip, fullPage: true });
    await page.close();
    process.stdout.write(`${join('docs/img', shot.file)}\n`);
  }
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
