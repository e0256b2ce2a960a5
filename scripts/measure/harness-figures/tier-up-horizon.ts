/**
 * When does a case's speed step up, in calls, and does that depend on how long
 * a call is? The watched warmup holds a case short of its engine's tier-up
 * calls (30,000) for up to 1.5 s (runtime-kit engine.ts WarmupHorizon) because V8 moved
 * loops of ~5–20 µs a call to Turbofan only after ~27,000 calls
 * (docs/measurements/harness-figures.md, "Tier-up by calls"). This script asks the same of
 * longer calls: a plain program per (body, loop length) in a fresh process of
 * each runtime calls the body in ~1 ms batches through a harness-like loop,
 * for up to 40,000 calls or 3 s, and prints per row the call's final cost,
 * how much slower the calls were before the step (the first batches' median
 * over the last ones'), and the call and the time at which the last slow
 * stretch ended (two batches in a row over 1.3× the final cost).
 *
 *   flock /tmp/rtbench-measure.lock npx tsx scripts/measure/harness-figures/tier-up-horizon.ts [runtimes=node@26,node@24,deno,bun]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pluginForSpec } from '@rtbench/runtime-registry';
import { loadText, machineSpeedText } from '../../lib.ts';

const BODIES: Record<string, string> = {
  'sum of a Float64Array': `const a = new Float64Array(LEN).map((_, i) => i * 0.5);
    return () => { let s = 0; for (let i = 0; i < a.length; i++) s += a[i]; return s; };`,
  'objects: x * y': `const a = Array.from({ length: LEN }, (_, i) => ({ x: i, y: i % 7 }));
    return () => { let s = 0; for (let i = 0; i < a.length; i++) s += a[i].x * a[i].y; return s; };`,
  'charCodeAt over a string': `const t = 'abcdefghij'.repeat(LEN / 10);
    return () => { let h = 0; for (let i = 0; i < t.length; i++) h = (h * 31 + t.charCodeAt(i)) | 0; return h; };`,
  'Math.pow, non-integer': `const b = Array.from({ length: LEN / 10 }, (_, i) => 0.5 + (i % 97) / 30), e = Array.from({ length: LEN / 10 }, (_, i) => -3 + (i % 89) / 15);
    return () => { let s = 0; for (let i = 0; i < b.length; i++) s += Math.pow(b[i], e[i]); return s; };`,
  'Map get': `const m = new Map(Array.from({ length: 1000 }, (_, i) => [i, i]));
    return () => { let s = 0; for (let i = 0; i < LEN / 4; i++) s += m.get(i % 1000); return s; };`,
};
const LENGTHS = [3_000, 10_000, 20_000, 40_000, 80_000];
const MAX_CALLS = 40_000;
const MAX_MS = 3_000;

// The program: batches sized to ~1 ms, as the harness sizes its own, through one calling loop.
const program = (body: string, len: number): string => `
const make = () => { ${body.replaceAll('LEN', String(len))} };
const fn = make();
let sink = 0;
function batch(f, n) { for (let i = 0; i < n; i++) sink += f(); }
const trace = [];
let calls = 0, n = 1;
const start = performance.now();
while (calls < ${MAX_CALLS} && performance.now() - start < ${MAX_MS}) {
  const t0 = performance.now();
  batch(fn, n);
  const ms = performance.now() - t0;
  calls += n;
  trace.push([calls, (ms * 1e6) / n, performance.now() - start]);
  if (ms < 0.5) n *= 2; else if (ms > 2 && n > 1) n = Math.max(1, Math.round(n / 2));
}
console.log(JSON.stringify({ trace, sink: sink > 0 }));
`;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

interface Row {
  finalNs: number;
  before: number;
  /** Calls made and wall time spent when the last slow stretch ended (two batches in a row over 1.3× the final cost). */
  stepAt: number;
  stepMs: number;
  calls: number;
}

function analyse(trace: [number, number, number][]): Row {
  const last = trace.slice(-Math.max(5, Math.floor(trace.length / 10))).map(([, ns]) => ns);
  const finalNs = median(last);
  // The first batches after calibration (the first few grow n) against the end.
  const early = trace.slice(3, 8).map(([, ns]) => ns);
  // Two slow batches in a row: one alone may be a preemption.
  let stepAt = 0;
  let stepMs = 0;
  for (let i = 1; i < trace.length; i++) {
    if (trace[i]![1] > finalNs * 1.3 && trace[i - 1]![1] > finalNs * 1.3) [stepAt, , stepMs] = trace[i]!;
  }
  return { finalNs, before: early.length ? median(early) / finalNs : 1, stepAt, stepMs, calls: trace.at(-1)![0] };
}

const specs = (process.argv[2] ?? 'node@26,node@24,deno,bun').split(',');
const dir = mkdtempSync(join(tmpdir(), 'rtbench-tier-up-'));
console.log(`${new Date().toISOString()}, ${machineSpeedText()}; up to ${MAX_CALLS} calls or ${MAX_MS} ms per process`);
console.log('runtime | body | loop | final per call | first batches / final | slow until call | slow until ms | calls run');
for (const spec of specs) {
  const plugin = pluginForSpec(spec);
  if (!plugin) throw new Error(`no runtime for ${spec}`);
  const target = await plugin.resolve(spec);
  for (const [name, body] of Object.entries(BODIES)) {
    for (const len of LENGTHS) {
      const file = join(dir, `${name.replace(/\W+/g, '-')}-${len}.mjs`);
      writeFileSync(file, program(body, len));
      // Every runtime here runs a file given alone (deno too, without `run`: checked on deno 2.9).
      const r = spawnSync(target.binary, [file], { encoding: 'utf8', timeout: MAX_MS * 4 });
      if (r.status !== 0) {
        console.log(`${spec} | ${name} | ${len} | failed: ${(r.stderr || r.error?.message || '').split('\n')[0]}`);
        continue;
      }
      const row = analyse((JSON.parse(r.stdout) as { trace: [number, number, number][] }).trace);
      console.log(`${spec} | ${name} | ${len} | ${(row.finalNs / 1e3).toFixed(1)} µs | ${row.before.toFixed(2)}× | ${row.stepAt} | ${Math.round(row.stepMs)} | ${row.calls}`);
    }
  }
}
console.log(`done, load ${loadText()}`);
