/**
 * Is each cell a property of its case? Every case of the suites (and brought
 * files) named, measured as the default table measures it (all four
 * runtimes, `bench --self-check`), and again on its runtime alone and in a
 * long loop, which the self-check does through the CLI: per case × runtime
 * the three figures, table ÷ alone and table ÷ loop, then per target how
 * many cells lie within ±10% of alone and ±20% of the loop, and every
 * decided cross-runtime verdict of the table whose direction the cells
 * alone reverse (docs/measurements/independence.md).
 *
 *   npx tsx scripts/independence.ts                       the mission's suites
 *   npx tsx scripts/independence.ts gc-pressure examples/mitata-json.mjs -- --runtime node,bun
 *
 * A target that is a file runs through `rtbench run`, a suite through
 * `rtbench bench`. Arguments after `--` go to every run. Each run waits for
 * the measurement lock (/tmp/rtbench-measure.lock) and holds it alone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunRecord } from '@rtbench/core/schema';
import { benchView, formatDuration } from '@rtbench/report';
import { ALONE_TOLERANCE, companyRows, LOOP_TOLERANCE, type CompanyRow } from '../packages/verdicts/src/index.ts';
import { isDecided, loadText, readRun, repoRoot, tableRatios } from './lib.ts';

const MISSION_SUITES = ['json-reviver', 'gc-pressure', 'buffer-concat', 'streams', 'trig', 'ssr'];
const LOCK = '/tmp/rtbench-measure.lock';

const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
const named = dashes < 0 ? argv : argv.slice(0, dashes);
const passed = dashes < 0 ? [] : argv.slice(dashes + 1);
const targets = named.length ? named : MISSION_SUITES;

/** The table and its self-check's runs, saved in a folder of the script's own. */
function measure(target: string): { table: RunRecord; alone: RunRecord[]; loop: RunRecord | undefined; wallS: number } {
  const out = join(mkdtempSync(join(tmpdir(), 'rtbench-independence-')), 'table.json');
  const command = existsSync(join(repoRoot, target)) && !existsSync(join(repoRoot, 'bench', target)) ? 'run' : 'bench';
  const started = performance.now();
  // Waits for the measurement lock and holds it for this run alone (lib.ts benchRun does the same).
  const [file, ...args] = ['flock', LOCK, process.execPath, join(repoRoot, 'packages/cli/bin/rtbench.mjs'), command, target, '--self-check', '--quiet', '--save', out, ...passed];
  const r = spawnSync(file!, args, {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const wallS = (performance.now() - started) / 1e3;
  if (!existsSync(out)) throw new Error(`${target}: no run saved (exit ${r.status})`);
  const folder = out.replace(/\.json$/, '.self-check');
  const runs = existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.json')) : [];
  return {
    table: readRun(out),
    alone: runs.filter((f) => f.startsWith('alone-')).map((f) => readRun(join(folder, f))),
    loop: runs.includes('loop.json') ? readRun(join(folder, 'loop.json')) : undefined,
    wallS,
  };
}

/** The verdicts the table decided against its baseline that the cells alone reverse: the alone figures' ratio on the other side of 1. */
function reversed(table: RunRecord, rows: readonly CompanyRow[]): string[] {
  const baseline = table.variants.find((v) => !v.unavailable)?.id;
  const out: string[] = [];
  for (const [key, cell] of tableRatios(benchView(table))) {
    if (!isDecided(cell.verdict)) continue;
    const [caseId, variantId] = key.split(' · ') as [string, string];
    const alone = rows.find((r) => r.caseId === caseId && r.variantId === variantId)?.aloneNs;
    const base = rows.find((r) => r.caseId === caseId && r.variantId === baseline)?.aloneNs;
    if (alone === undefined || base === undefined) continue;
    if (cell.ratio < 1 !== alone / base < 1) out.push(`${caseId} · ${variantId}: table ${cell.ratio.toFixed(3)} (${cell.verdict}), alone ${(alone / base).toFixed(3)}`);
  }
  return out;
}

const within = (a: number, b: number | undefined, tolerance: number): boolean => b !== undefined && Math.abs(a / b - 1) <= tolerance;

console.log(`# independence: ${new Date().toISOString()}, load ${loadText()}, ${targets.length} targets${passed.length ? `, bench args ${passed.join(' ')}` : ''}`);
let cells = 0;
let alone = 0;
let loop = 0;
const flips: string[] = [];
for (const target of targets) {
  const { table, alone: aloneRuns, loop: loopRun, wallS } = measure(target);
  const rows = companyRows(table, aloneRuns, loopRun);
  console.log(`\n## ${target} (table and self-check ${wallS.toFixed(0)} s, load after ${loadText()})`);
  console.log('| case | runtime | table/op | alone/op | loop/op | table÷alone | table÷loop | |');
  console.log('|---|---|--:|--:|--:|--:|--:|---|');
  for (const r of rows) {
    const ratio = (x: number | undefined): string => (x === undefined ? '—' : (r.tableNs / x).toFixed(3));
    const marks = [r.company ? 'company' : '', r.apartFromLoop ? 'loop' : ''].filter(Boolean).join(' ');
    console.log(`| ${r.caseId} | ${r.variantId} | ${formatDuration(r.tableNs)} | ${r.aloneNs === undefined ? '—' : formatDuration(r.aloneNs)} | ${r.loopNs === undefined ? '—' : formatDuration(r.loopNs)} | ${ratio(r.aloneNs)} | ${ratio(r.loopNs)} | ${marks} |`);
  }
  const here = {
    cells: rows.length,
    alone: rows.filter((r) => within(r.tableNs, r.aloneNs, ALONE_TOLERANCE)).length,
    loop: rows.filter((r) => within(r.tableNs, r.loopNs, LOOP_TOLERANCE)).length,
    flips: reversed(table, rows),
  };
  console.log(`\n${target}: ${here.alone} of ${here.cells} cells within ±${ALONE_TOLERANCE * 100}% of alone, ${here.loop} within ±${LOOP_TOLERANCE * 100}% of the loop; ${here.flips.length} decided verdicts reversed alone${here.flips.length ? `: ${here.flips.join('; ')}` : ''}`);
  cells += here.cells;
  alone += here.alone;
  loop += here.loop;
  flips.push(...here.flips);
}
console.log(`\nall: ${alone} of ${cells} cells within ±${ALONE_TOLERANCE * 100}% of alone, ${loop} within ±${LOOP_TOLERANCE * 100}% of the loop; ${flips.length} decided verdicts reversed alone; load ${loadText()}`);
