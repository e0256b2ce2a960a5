/**
 * A brought mitata file both ways: rtbench's table of it, and mitata's own
 * figure of each case, the file run under mitata itself on the same runtime
 * binary. mitata times a case back to back in one process, every case of the
 * file in turn in that process (its `avg` per iteration, and its p50); rtbench
 * gives each case processes of its own and samples the runtimes in turn. The
 * ratio rtbench ÷ mitata per case and runtime says how far the two harnesses'
 * figures of the same code lie apart; the table's interval beside it says how
 * far rtbench's own processes did.
 *
 * mitata's output is its JSON format (the file's own `run()` is handed
 * `format: 'json'` by a module that re-exports mitata, installed beside a copy
 * of the file), so its measurement is untouched.
 *
 *   npx tsx scripts/mitata-own.ts [file] [--runtime node,bun,deno] [-- <rtbench bench options>]
 *   npx tsx scripts/mitata-own.ts scripts/long-loop-check/allocating.mjs -- --rounds 6 --max-rounds 6
 *
 * Runs rtbench under /tmp/rtbench-measure.lock and mitata after it, one
 * measurement at a time; prints the load before and after.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { benchView } from '@rtbench/report';
import { benchRun, loadText, repoRoot } from './lib.ts';

const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
const own = dashes < 0 ? argv : argv.slice(0, dashes);
const passed = dashes < 0 ? [] : argv.slice(dashes + 1);
const runtimeAt = own.indexOf('--runtime');
const runtimes = (runtimeAt < 0 ? 'node,bun,deno' : own[runtimeAt + 1]!).split(',');
const file = resolve(own.find((a, i) => !a.startsWith('--') && own[i - 1] !== '--runtime') ?? join(repoRoot, 'scripts/long-loop-check/allocating.mjs'));

/** mitata as the adapters package installs it: the same copy rtbench's mitata shim stands in for. */
const mitataEntry = createRequire(join(repoRoot, 'packages/adapters/package.json')).resolve('mitata');

/** A folder holding a copy of the file and a `mitata` that is mitata with `run()` printing its JSON format. */
function mitataFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-mitata-own-'));
  const pkg = join(dir, 'node_modules', 'mitata');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'mitata', type: 'module', main: 'index.mjs' }));
  const real = pathToFileURL(mitataEntry).href;
  writeFileSync(
    join(pkg, 'index.mjs'),
    `export * from ${JSON.stringify(real)};\nimport { run as mitataRun } from ${JSON.stringify(real)};\n` +
      `export const run = (opts = {}) => mitataRun({ ...opts, colors: false, format: { json: { samples: false, debug: false } }, print: (s) => process.stdout.write(s + '\\n') });\n`,
  );
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'mitata-own', type: 'module', private: true }));
  copyFileSync(file, join(dir, basename(file)));
  return dir;
}

interface MitataBenchmark {
  alias: string;
  runs: Array<{ stats?: { avg: number; p50: number } }>;
}

/** mitata's figures per case on one binary (ns), or the reason there are none. */
function mitataOn(runtime: string, binary: string, dir: string): Map<string, { avg: number; p50: number }> | string {
  const script = join(dir, basename(file));
  const args = runtime === 'deno' ? ['run', '-A', '--node-modules-dir=manual', script] : [script];
  // Under the measurement lock, as rtbench's run was: one measurement at a time on the machine.
  const [locker, ...command] = ['flock', LOCK, binary, ...args];
  const r = spawnSync(locker!, command, { cwd: dir, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) return `exit ${r.status}: ${(r.stderr || r.stdout).trim().split('\n').at(-1)}`;
  const json = r.stdout.slice(r.stdout.indexOf('{'));
  const { benchmarks } = JSON.parse(json) as { benchmarks: MitataBenchmark[] };
  return new Map(benchmarks.flatMap((b) => (b.runs[0]?.stats ? [[b.alias, b.runs[0].stats] as const] : [])));
}

const LOCK = '/tmp/rtbench-measure.lock';

const fmt = (ns: number): string => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(1)} ns`);

console.log(`# ${file} · ${new Date().toISOString()} · load ${loadText()}`);
const table = benchRun([file, '--runtime', runtimes.join(','), ...passed], LOCK);
if (table.status !== 0 && table.status !== 1) console.log(`rtbench exited ${table.status}`);
const binaries = new Map(table.run.variants.map((v) => [v.id, { runtime: v.runtime, binary: v.binary }]));
const dir = mitataFolder();
const mitataFigures = new Map<string, ReturnType<typeof mitataOn>>();
for (const [id, { runtime, binary }] of binaries) {
  if (!binary || runtime === 'workerd') {
    mitataFigures.set(id, 'mitata runs no Worker');
    continue;
  }
  mitataFigures.set(id, mitataOn(runtime, binary, dir));
}
console.log(`# after: load ${loadText()}; rtbench's run: ${table.path}`);
console.log('case · runtime · rtbench median [95% interval] · mitata avg · mitata p50 · rtbench ÷ mitata p50');
for (const c of benchView(table.run).cases) {
  for (const row of c.rows) {
    if (!row.stats) continue;
    const theirs = mitataFigures.get(row.variantId);
    const name = c.caseId.replace(/^.* \/ /, '');
    const figure = typeof theirs === 'string' ? undefined : theirs?.get(name) ?? theirs?.get(c.caseId);
    const interval = row.stats.ci ? ` [${fmt(row.stats.ci[0])}–${fmt(row.stats.ci[1])}]` : '';
    const mitata = figure ? `${fmt(figure.avg)} · ${fmt(figure.p50)} · ${(row.stats.median / figure.p50).toFixed(2)}` : typeof theirs === 'string' ? theirs : 'no such case under mitata';
    console.log(`${c.caseId} · ${row.variantId} · ${fmt(row.stats.median)}${interval} · ${mitata}`);
  }
}
console.log(`# mitata's copy of the file: ${dir} (${dirname(mitataEntry)})`);
