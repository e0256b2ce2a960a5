/**
 * Does a fresh node process ever run json-reviver's `stringify [size=10kb]`
 * at the ~70 µs a call some harness processes were sampled at (15–25 µs
 * otherwise; docs/warmup.md, "The learned horizon")? Each process
 * builds the suite's document, optionally first parses it ten times with one
 * of the suite's revivers (at 10 KB or 500 KB), then times JSON.stringify of
 * the 10 KB value in 40 blocks of 500 calls; one line a process, every
 * fourth block's µs a call.
 *
 *   flock /tmp/rtbench-measure.lock npx tsx scripts/noise/stringify-fresh.ts [repeats=3]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { binaries, loadavg } from './lib.ts';

const repeats = Number(process.argv[2] ?? 3);
const repoRoot = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'rtbench-stringify-'));
try {
  // The suite's own document generator, bundled for a bare node process.
  await build({
    stdin: { contents: `export { flightDocument, SIZES } from ${JSON.stringify(join(repoRoot, 'bench/json-reviver/document.ts'))};`, resolveDir: repoRoot, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    outfile: join(dir, 'document.mjs'),
    alias: { '@rtbench/core': join(repoRoot, 'packages/core/src/random.ts') },
    logLevel: 'warning',
  });
  writeFileSync(
    join(dir, 'probe.mjs'),
    `import { flightDocument, SIZES } from './document.mjs';
const ISO = /^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?Z$/;
const revivers = {
  none: undefined,
  date: (_k, v) => (typeof v === 'string' && ISO.test(v) ? new Date(v) : v),
  source: (_k, v, c) => (typeof v === 'number' && c?.source !== undefined && c.source.length > 15 ? BigInt(c.source) : v),
  element: (_k, v) => (Array.isArray(v) && v.length === 4 && v[0] === '$' ? { $$typeof: 'element', type: v[1], key: v[2], props: v[3] } : v),
  arrow: (_k, v) => v,
};
const [prior, size] = process.argv.slice(2);
const small = flightDocument(SIZES['10kb']);
if (prior !== 'nothing') { const text = size === '500kb' ? flightDocument(SIZES['500kb']) : small; for (let i = 0; i < 10; i++) JSON.parse(text, revivers[prior]); }
const value = JSON.parse(small);
const blocks = [];
for (let b = 0; b < 40; b++) { const t = performance.now(); for (let i = 0; i < 500; i++) JSON.stringify(value); blocks.push(((performance.now() - t) / 500) * 1000); }
console.log(blocks.filter((_, i) => i % 4 === 0).map((x) => x.toFixed(0)).join(' '));
`,
  );
  console.log(`node ${binaries.node}; load ${loadavg()}`);
  const priors = [['nothing', ''], ...['none', 'date', 'source', 'element', 'arrow'].flatMap((p) => [[p, '10kb'], [p, '500kb']])];
  const rates: number[] = [];
  for (let r = 0; r < repeats; r++) {
    for (const [prior, size] of priors) {
      const out = spawnSync(binaries.node, [join(dir, 'probe.mjs'), prior!, size!], { encoding: 'utf8' });
      if (out.status !== 0) throw new Error(`node exited with ${out.status}: ${out.stderr}`);
      const blocks = out.stdout.trim().split(' ').map(Number);
      rates.push(...blocks.slice(1));
      console.log(`${`${prior} ${size}`.padEnd(14)} µs a call: ${out.stdout.trim()}`);
    }
  }
  console.log(`${repeats * priors.length} processes; every fourth block past the first 2,000 calls: ${Math.min(...rates)}–${Math.max(...rates)} µs a call; load ${loadavg()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
