/**
 * Cross-validation against the real libraries: the same mitata- or
 * tinybench-style file, run by the real library on node and by rtbench on
 * the same node binary, and the ratio of medians per case.
 *
 *   npx tsx scripts/measure/brought-files/cross-validate.ts [file ...] [--rounds n] [--time 1s]
 *
 * Default files: examples/mitata-json.mjs, examples/mitata-collections.mjs,
 * examples/tinybench-strings.mjs, examples/tinybench-arrays.ts.
 *
 * What is compared: mitata's p50 (the median over its samples, each the mean
 * of a batch of calls), tinybench's latency p50 (the median of single calls,
 * each timed alone), and rtbench's median/op (the median of ten processes'
 * medians of ~1 ms batches). The real library runs unchanged: the file's own
 * `run()` / `bench.run()` is taken over only to print its results as JSON.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import type { RunRecord } from '@rtbench/core/schema';
import { caseId } from '@rtbench/core/suite';
import { loadText, machineSpeedText, repoRoot } from '../../lib.ts';

const DEFAULT_FILES = ['examples/mitata-json.mjs', 'examples/mitata-collections.mjs', 'examples/tinybench-strings.mjs', 'examples/tinybench-arrays.ts'];
const MARKER = '@@reference ';
/** Where the real libraries are installed (devDependencies of @rtbench/adapters). */
const REFERENCE_MODULES = join(repoRoot, 'packages', 'adapters', 'node_modules');

/** Wraps the real library so the file's own run() also prints its results as one JSON line; everything else is the library's. */
const SHIMS: Record<'mitata' | 'tinybench', string> = {
  mitata: `
export * from ${JSON.stringify(join(REFERENCE_MODULES, 'mitata', 'src', 'main.mjs'))};
import { run as realRun } from ${JSON.stringify(join(REFERENCE_MODULES, 'mitata', 'src', 'main.mjs'))};
export async function run(opts = {}) {
  const result = await realRun({ ...opts, format: 'quiet' });
  const cases = [];
  for (const trial of result.benchmarks) {
    const group = result.layout[trial.group]?.name ?? undefined;
    for (const r of trial.runs) {
      if (!r.stats) continue;
      const hidden = Object.fromEntries(Object.entries(r.args).filter(([k]) => !trial.alias.includes('$' + k)));
      cases.push({ group, name: r.name, params: hidden, medianNs: r.stats.p50, meanNs: r.stats.avg });
    }
  }
  console.log(${JSON.stringify(MARKER)} + JSON.stringify(cases));
  return result;
}`,
  tinybench: `
import { Bench as RealBench } from ${JSON.stringify(join(REFERENCE_MODULES, 'tinybench', 'dist', 'index.js'))};
export * from ${JSON.stringify(join(REFERENCE_MODULES, 'tinybench', 'dist', 'index.js'))};
export class Bench extends RealBench {
  async run() {
    const tasks = await super.run();
    const cases = tasks.filter((t) => t.result.latency).map((t) => ({ group: this.name, name: t.name, params: {}, medianNs: t.result.latency.p50 * 1e6, meanNs: t.result.latency.mean * 1e6 }));
    console.log(${JSON.stringify(MARKER)} + JSON.stringify(cases));
    return tasks;
  }
}`,
};

interface ReferenceCase {
  group: string | undefined;
  name: string;
  params: Record<string, string | number | boolean>;
  medianNs: number;
  meanNs: number;
}

function parseArgs(argv: string[]): { files: string[]; rounds: string; time: string } {
  const files: string[] = [];
  let rounds = '10';
  let time = '1s';
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--rounds') rounds = argv[++i]!;
    else if (argv[i] === '--time') time = argv[++i]!;
    else files.push(argv[i]!);
  }
  return { files: files.length ? files : DEFAULT_FILES, rounds, time };
}

function rtbenchRun(file: string, rounds: string, time: string): RunRecord {
  const out = join(mkdtempSync(join(tmpdir(), 'rtbench-xval-')), 'run.json');
  const r = spawnSync(process.execPath, [join(repoRoot, 'packages/cli/bin/rtbench.mjs'), 'run', file, '--runtime', 'node', '--rounds', rounds, '--time', time, '--quiet', '--save', out], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (!existsSync(out)) throw new Error(`rtbench run ${file} saved no run (exit ${r.status})`);
  return JSON.parse(readFileSync(out, 'utf8')) as RunRecord;
}

async function referenceRun(file: string, nodeBinary: string): Promise<ReferenceCase[]> {
  const dir = join(repoRoot, '.rtbench-cache', 'cross-validate');
  mkdirSync(dir, { recursive: true });
  const shimPaths = Object.fromEntries(
    Object.entries(SHIMS).map(([name, source]) => {
      const path = join(dir, `${name}-shim.mjs`);
      writeFileSync(path, source);
      return [name, path];
    }),
  );
  const result = await build({
    entryPoints: [resolve(file)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'esnext',
    // mitata imports bun:jsc and its optional hardware counters lazily, behind runtime checks.
    external: ['node:*', 'bun:*', '@mitata/counters'],
    logLevel: 'silent',
    plugins: [{ name: 'real-library', setup: (b) => b.onResolve({ filter: /^(mitata|tinybench)$/ }, (a) => ({ path: shimPaths[a.path]! })) }],
  });
  // Next to the file, so that a file reading data relative to itself still finds it.
  const bundle = join(dir, `reference-${file.replace(/[^a-z0-9.]+/gi, '-')}.mjs`);
  writeFileSync(bundle, result.outputFiles[0]!.text);
  const r = spawnSync(nodeBinary, [bundle], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 });
  const lines = r.stdout.split('\n').filter((l) => l.startsWith(MARKER));
  if (!lines.length) throw new Error(`the reference run of ${file} printed no results (exit ${r.status}):\n${r.stderr}`);
  return lines.flatMap((l) => JSON.parse(l.slice(MARKER.length)) as ReferenceCase[]);
}

function formatNs(ns: number): string {
  if (!Number.isFinite(ns)) return '—';
  if (ns >= 1e6) return `${(ns / 1e6).toPrecision(3)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toPrecision(3)} µs`;
  return `${ns.toPrecision(3)} ns`;
}

async function main(): Promise<void> {
  const { files, rounds, time } = parseArgs(process.argv.slice(2));
  console.log(`# cross-validation ${new Date().toISOString()}  ${machineSpeedText()}  (rtbench: --rounds ${rounds} --time ${time})`);
  const ratios: number[] = [];
  for (const file of files) {
    const run = rtbenchRun(file, rounds, time);
    const variant = run.variants[0]!;
    const reference = await referenceRun(file, variant.binary!);
    const library = /from ['"]tinybench['"]/.test(readFileSync(file, 'utf8')) ? 'tinybench' : 'mitata';
    console.log(`\n## ${file} — ${library} vs rtbench on ${variant.id} (${variant.version})`);
    console.log(`| case | ${library} median | rtbench median | rtbench / ${library} |`);
    console.log('|---|--:|--:|--:|');
    for (const ref of reference) {
      const id = caseId(ref.group, ref.name, ref.params);
      const result = run.results.find((r) => r.caseId === id);
      const ours = result?.stats?.median ?? NaN;
      const ratio = ours / ref.medianNs;
      if (Number.isFinite(ratio)) ratios.push(ratio);
      console.log(`| ${id} | ${formatNs(ref.medianNs)} | ${formatNs(ours)} | ${Number.isFinite(ratio) ? ratio.toFixed(3) : '—'} |`);
    }
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  const within10 = ratios.filter((r) => r >= 0.9 && r <= 1.1).length;
  console.log(`\n${ratios.length} cases; ratio median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(3)}, range ${sorted[0]?.toFixed(3)}–${sorted.at(-1)?.toFixed(3)}; within ±10%: ${within10} of ${ratios.length}`);
  console.log(`load average at the end: ${loadText()}`);
}

await main();
