import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseRun } from '@rtbench/core/schema';
import { reporterFor, viewOfRun, unpairedComparisonView } from '@rtbench/report';
import { ownChromium } from '/work/wt-prof9/test/browser/chromium.ts';
import { hostileRun, withSampleTimesAndModes } from '/work/wt-prof9/packages/report/test/run-fixtures.ts';
const R = '/work/wt-prof9/results/';
const load = (n: string) => parseRun(JSON.parse(readFileSync(R + n, 'utf8')), R + n);
const dir = mkdtempSync(join(tmpdir(), 'prof9-'));
const bench = load('20261121-124315Z-json-reviver.json');
const b2 = { ...bench, id: bench.id + '-s', results: bench.results.map((r) => ({ ...r, rounds: r.rounds.map((x) => ({ ...x, samples: x.samples.map((s) => s * 1.1) })) })) };
const pages: [string, any][] = [
  ['bench', viewOfRun(bench)],
  ['compare', viewOfRun(load('20261121-125130Z-json-reviver-compare.json'))],
  ['multi', viewOfRun(load('20261121-130300Z-gc-pressure-compare.json'))],
  ['metrics', viewOfRun(load('20261122-093249Z-gc-pressure.json'))],
  ['unpaired', unpairedComparisonView({ run: bench, file: 'a' }, { run: b2, file: 'b' })],
  ['traces', viewOfRun(withSampleTimesAndModes(bench))],
  ['hostile', viewOfRun(hostileRun(bench))],
];
const b = await ownChromium();
for (const [name, view] of pages) {
  const t0 = Date.now();
  const html = reporterFor('html')!.render(view, {});
  const p = join(dir, name + '.html');
  writeFileSync(p, html);
  const t1 = Date.now();
  const page = await b.context.newPage();
  const cdp = await b.context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(pathToFileURL(p).href);
  await page.waitForSelector('body[data-ready="true"]');
  const m = (await cdp.send('Performance.getMetrics')).metrics.filter((x: any) => ['TaskDuration', 'ScriptDuration', 'LayoutDuration'].includes(x.name)).map((x: any) => `${x.name}=${x.value.toFixed(2)}`).join(' ');
  console.log(name, 'render', t1 - t0, 'ms; html', (html.length / 1e6).toFixed(2), 'MB; load', Date.now() - t1, 'ms;', m);
  await page.close();
}
await b.close();
