/**
 * Is each cell a property of its case? Every case of the suites (and brought
 * files) named, measured as the default table measures it (all four
 * runtimes, `bench --self-check`), and again on its runtime alone and in a
 * long loop, which the self-check does through the CLI: per case × runtime
 * the three figures, table ÷ alone (with the self-check's 95% interval, over
 * processes and the halves alone before and after the table, and what it
 * reads: company, within or undecided) and table ÷ loop, then per target how far each
 * runtime's halves alone lie apart, how many cells lie within ±10% of alone
 * and ±20% of the loop, and every decided cross-runtime verdict of the
 * table whose direction the cells alone reverse
 * (docs/measurements/independence.md).
 *
 *   npx tsx scripts/measure/independence/independence.ts                       the mission's suites
 *   npx tsx scripts/measure/independence/independence.ts gc-pressure examples/mitata-json.mjs -- --runtime node,bun
 *   npx tsx scripts/measure/independence/independence.ts --repeat 2 gc-pressure  each target measured twice, back to back
 *   npx tsx scripts/measure/independence/independence.ts --brought             five brought files of other projects' shapes (BROUGHT_FILES)
 *   npx tsx scripts/measure/independence/independence.ts examples/mitata-json.mjs -- --filter parse --rounds 2 --time 20ms   a quick end-to-end pass
 *
 * With --repeat 2 or more it also prints the floor the ±10% is read
 * against: each table beside the next table and each case alone beside the
 * next alone. A cell whose table ÷ alone lies outside ±10% no more often
 * than two tables of the same cases lie apart is moved by the minutes
 * between the runs, not by its company; a cell that lies outside on the
 * same side in every repeat is the company's. Likewise a reversed verdict
 * counts when every repeat reverses it.
 *
 * A target that is a file runs through `rtbench run`, a suite through
 * `rtbench bench`. Arguments after `--` go to every run. Each run waits for
 * the measurement lock (/tmp/rtbench-measure.lock) and holds it alone; started
 * under that lock itself, the script runs them as they come.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunRecord } from '@rtbench/core/schema';
import { benchView, formatDuration, formatRatio, ratioWithCi } from '@rtbench/report';
import { ALONE_TOLERANCE, companyRows, LOOP_TOLERANCE, type CompanyRow } from '../../../packages/verdicts/src/index.ts';
import { isDecided, loadText, machineSpeedText, readRun, repoRoot, tableRatios, underLock } from '../../lib.ts';

const MISSION_SUITES = ['json-reviver', 'gc-pressure', 'buffer-concat', 'streams', 'trig', 'ssr'];
/** --brought: five files in the shapes other projects write (mitata, tinybench, vitest's bench(), benchmark.js, Deno.bench), each run as it is. */
const BROUGHT_FILES = ['examples/mitata-json.mjs', 'examples/tinybench-arrays.ts', 'examples/vitest-strings.bench.ts', 'examples/benchmark-js-find.cjs', 'examples/deno-text.bench.ts'];
const LOCK = '/tmp/rtbench-measure.lock';

const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
const ours = dashes < 0 ? argv : argv.slice(0, dashes);
const passed = dashes < 0 ? [] : argv.slice(dashes + 1);
const repeatAt = ours.indexOf('--repeat');
const repeats = repeatAt < 0 ? 1 : Number(ours[repeatAt + 1]);
if (!Number.isInteger(repeats) || repeats < 1) throw new Error(`--repeat ${ours[repeatAt + 1]}: a whole number of 1 or more`);
const named = (repeatAt < 0 ? ours : ours.filter((_, i) => i !== repeatAt && i !== repeatAt + 1)).flatMap((t) => (t === '--brought' ? BROUGHT_FILES : [t]));
const targets = named.length ? named : MISSION_SUITES;
for (const t of targets) if (t.startsWith('-')) throw new Error(`${t}: not an option of this script (--repeat N, --brought; the run's own go after --)`);

/** The table and its self-check's runs, saved in a folder of the script's own. */
function measure(target: string): { table: RunRecord; alone: RunRecord[][]; loop: RunRecord | undefined; wallS: number } {
  const out = join(mkdtempSync(join(tmpdir(), 'rtbench-independence-')), 'table.json');
  const command = existsSync(join(repoRoot, target)) && !existsSync(join(repoRoot, 'bench', target)) ? 'run' : 'bench';
  const started = performance.now();
  // Waits for the measurement lock and holds it for this run alone, unless the script was started under it (lib.ts).
  const [file, ...args] = underLock(LOCK, [process.execPath, join(repoRoot, 'packages/cli/bin/rtbench.mjs'), command, target, '--self-check', '--quiet', '--save', out, ...passed]);
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
  // A half is its first run and, where the first run's spread asked for more, its top-up (alone-<runtime>-more-before).
  const halves = new Map<string, RunRecord[]>();
  for (const f of runs.filter((name) => name.startsWith('alone-'))) {
    const half = f.replace(/-more-before\.json$/, '-before.json');
    halves.set(half, [...(halves.get(half) ?? []), readRun(join(folder, f))]);
  }
  return {
    table: readRun(out),
    alone: [...halves.values()],
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

type Measured = ReturnType<typeof measure> & { rows: CompanyRow[] };

/** One repeat's table of cells, its counts, and its reversed verdicts. */
function printRepeat(target: string, m: Measured, label: string): { alone: number; loop: number; flips: string[] } {
  console.log(`\n## ${target}${label} (table and self-check ${m.wallS.toFixed(0)} s, load after ${loadText()})`);
  console.log('| case | runtime | table/op | alone/op | loop/op | table÷alone | table÷loop | |');
  console.log('|---|---|--:|--:|--:|--:|--:|---|');
  for (const r of m.rows) {
    // Table ÷ alone as the self-check prints it: over processes, with its 95% interval (verdicts company.ts aloneRatio).
    const alone = !r.alone ? '—' : r.alone.ci ? ratioWithCi(r.alone.ratio, r.alone.ci) : formatRatio(r.alone.ratio);
    const loop = r.loopNs === undefined ? '—' : (r.tableNs / r.loopNs).toFixed(3);
    const marks = [r.reading ?? '', r.machineMoved ? 'machine' : '', r.apartFromLoop ? 'loop' : ''].filter(Boolean).join(' ');
    console.log(`| ${r.caseId} | ${r.variantId} | ${formatDuration(r.tableNs)} | ${r.aloneNs === undefined ? '—' : formatDuration(r.aloneNs)} | ${r.loopNs === undefined ? '—' : formatDuration(r.loopNs)} | ${alone} | ${loop} | ${marks} |`);
  }
  const here = {
    alone: m.rows.filter((r) => within(r.tableNs, r.aloneNs, ALONE_TOLERANCE)).length,
    loop: m.rows.filter((r) => within(r.tableNs, r.loopNs, LOOP_TOLERANCE)).length,
    flips: reversed(m.table, m.rows),
  };
  const marked = m.rows.filter((r) => r.company).length;
  const decidedWithin = m.rows.filter((r) => r.reading === 'within').length;
  const undecided = m.rows.filter((r) => r.reading === 'undecided').length;
  // What the interval carries for the minutes between runs: each runtime's halves alone, their scatter pooled over its cases (company.ts halvesSpread).
  const spreads = [...new Map(m.rows.flatMap((r) => (r.alone?.betweenRuns === undefined ? [] : [[r.variantId, r.alone.betweenRuns] as const]))).entries()];
  if (spreads.length) console.log(`\nhalves alone apart (log sd, pooled over cases): ${spreads.map(([v, sd]) => `${v} ${(sd * 100).toFixed(1)}%`).join(', ')}`);
  console.log(`\n${target}${label}: ${here.alone} of ${m.rows.length} cells within ±${ALONE_TOLERANCE * 100}% of alone, ${marked} marked company (the interval wholly outside), ${decidedWithin} within (wholly inside), ${undecided} undecided, ${here.loop} within ±${LOOP_TOLERANCE * 100}% of the loop; ${here.flips.length} decided verdicts reversed alone${here.flips.length ? `: ${here.flips.join('; ')}` : ''}`);
  return here;
}

const key = (r: CompanyRow): string => `${r.caseId} · ${r.variantId}`;

/** How many of the cells two figures of each (by cell) put within ±ALONE_TOLERANCE of each other, and the range of their ratios. */
function agreement(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): string {
  const ratios = [...a].flatMap(([cell, x]) => (b.has(cell) ? [x / b.get(cell)!] : []));
  if (!ratios.length) return 'no cell in both';
  const inside = ratios.filter((q) => Math.abs(q - 1) <= ALONE_TOLERANCE).length;
  return `${inside} of ${ratios.length} within ±${ALONE_TOLERANCE * 100}% (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`;
}

/** The floor: tables against tables, alone against alone, and the cells every repeat puts apart from alone on one side. */
function printFloor(target: string, ms: readonly Measured[]): { company: string[]; flips: string[] } {
  const tables = ms.map((m) => new Map(m.rows.map((r) => [key(r), r.tableNs])));
  const alones = ms.map((m) => new Map(m.rows.flatMap((r) => (r.aloneNs === undefined ? [] : [[key(r), r.aloneNs] as const]))));
  console.log(`\n### ${target}: the floor, ${ms.length} repeats back to back`);
  for (let i = 1; i < ms.length; i++) {
    console.log(`- table ${i} beside table ${i + 1}: ${agreement(tables[i - 1]!, tables[i]!)}`);
    console.log(`- alone ${i} beside alone ${i + 1}: ${agreement(alones[i - 1]!, alones[i]!)}`);
  }
  const side = (r: CompanyRow): number => (r.aloneNs === undefined || within(r.tableNs, r.aloneNs, ALONE_TOLERANCE) ? 0 : Math.sign(r.tableNs / r.aloneNs - 1));
  const sides = new Map<string, number[]>();
  for (const m of ms) for (const r of m.rows) sides.set(key(r), [...(sides.get(key(r)) ?? []), side(r)]);
  const company = [...sides].filter(([, s]) => s.length === ms.length && s[0] !== 0 && s.every((x) => x === s[0])).map(([cell, s]) => `${cell} (${s[0]! > 0 ? 'above' : 'below'})`);
  const flipSets = ms.map((m) => new Set(reversed(m.table, m.rows).map((f) => f.slice(0, f.indexOf(': table')))));
  const flips = [...flipSets[0]!].filter((cell) => flipSets.every((s) => s.has(cell)));
  console.log(`- apart from alone on one side in every repeat: ${company.length}${company.length ? `: ${company.join('; ')}` : ''}`);
  console.log(`- decided verdicts reversed alone in every repeat: ${flips.length}${flips.length ? `: ${flips.join('; ')}` : ''}`);
  return { company, flips };
}

console.log(`# independence: ${new Date().toISOString()}, ${machineSpeedText()}, ${targets.length} targets${repeats > 1 ? `, ${repeats} repeats each` : ''}${passed.length ? `, bench args ${passed.join(' ')}` : ''}`);
let cells = 0;
let alone = 0;
let loop = 0;
const flips: string[] = [];
const steady: { company: string[]; flips: string[] } = { company: [], flips: [] };
for (const target of targets) {
  const ms: Measured[] = [];
  for (let i = 0; i < repeats; i++) {
    const m = measure(target);
    ms.push({ ...m, rows: companyRows(m.table, m.alone, m.loop) });
    const here = printRepeat(target, ms[i]!, repeats > 1 ? `, repeat ${i + 1}` : '');
    cells += ms[i]!.rows.length;
    alone += here.alone;
    loop += here.loop;
    flips.push(...here.flips);
  }
  if (repeats > 1) {
    const floor = printFloor(target, ms);
    steady.company.push(...floor.company);
    steady.flips.push(...floor.flips);
  }
}
console.log(`\nall: ${alone} of ${cells} cells within ±${ALONE_TOLERANCE * 100}% of alone, ${loop} within ±${LOOP_TOLERANCE * 100}% of the loop; ${flips.length} decided verdicts reversed alone; load ${loadText()}`);
if (repeats > 1) console.log(`every repeat: ${steady.company.length} cells apart from alone on one side, ${steady.flips.length} decided verdicts reversed`);
