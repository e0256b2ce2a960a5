/**
 * Instruction counts' own figures (docs/instructions.md), through the real CLI:
 *   1. run-to-run spread of the per-op count, per case and runtime, over the rounds
 *      of a four-runtime run (target ≤ 0.5%), and its wall time (a figure: run it under the measure lock; the whole
 *      suite in two halves, --filter 10kb and --filter 500kb, if one would hold the lock too long);
 *   2. A/A (--compare node@26 node@26 --measure instructions): every case "equivalent";
 *   3. node@24 vs node@26 in counts and in time (lockstep defaults): do the decided directions agree?
 * Run: npx tsx scripts/instruction-targets.ts [--filter 10kb] [--rounds 3] [--skip 1,2,3] [--save-dir DIR]
 * (--save-dir keeps each run's file: step-1.json, step-2.json, …)
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pairedComparisonView } from '@rtbench/report';
import { benchRun, pct } from './lib.ts';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
};
const filter = arg('filter', '');
const rounds = arg('rounds', '3');
const skip = new Set(arg('skip', '').split(',').filter(Boolean));
const saveDir = arg('save-dir', '');
const keep = (name: string, run: unknown): void => {
  if (saveDir) writeFileSync(join(saveDir, `${name}.json`), JSON.stringify(run));
};
/** The verdict threshold of instruction runs (plan.ts INSTRUCTION_DEFAULTS). */
const COUNT_THRESHOLD = 0.005;
const load = (): string => loadavg().map((x) => x.toFixed(1)).join(' ');
const scope = filter ? ['--filter', filter] : [];

console.log(`${new Date().toISOString()}  load ${load()}`);
if (!skip.has('1')) {
  console.log(`\n1. pnpm bench json-reviver ${scope.join(' ')} --measure instructions --rounds ${rounds} (four runtimes)`);
  const r = benchRun(['json-reviver', ...scope, '--measure', 'instructions', '--rounds', rounds]);
  keep('step-1', r.run);
  let worst = 0;
  let within = 0;
  let cells = 0;
  const byRuntime = new Map<string, number[]>();
  for (const res of r.run.results) {
    const xs = res.rounds.map((x) => x.samples[0]!);
    if (xs.length < 2) {
      console.log(`  ${res.caseId} · ${res.variantId}: ${res.status} ${res.failures.map((f) => f.message).join('; ').slice(0, 160)}`);
      continue;
    }
    const mid = [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    const spread = Math.max(...xs.map((x) => Math.abs(x / mid - 1)));
    cells++;
    if (spread <= 0.005) within++;
    worst = Math.max(worst, spread);
    byRuntime.set(res.variantId, [...(byRuntime.get(res.variantId) ?? []), spread]);
    console.log(`  ${`${res.caseId} · ${res.variantId}`.padEnd(72)} ${xs.map((x) => x.toFixed(0)).join(' ')}  ±${pct(spread, 3)}`);
  }
  for (const [runtime, spreads] of byRuntime) console.log(`  ${runtime}: ±${pct(Math.min(...spreads), 3)} to ±${pct(Math.max(...spreads), 3)} over ${spreads.length} cases`);
  console.log(`  per-op counts within ±0.5% of their median over the rounds: ${within} of ${cells}; largest ±${pct(worst, 3)}; wall ${(r.wallMs / 60000).toFixed(1)} min; load ${load()}`);
}

function verdicts(name: string, args: string[], threshold?: number): { wallMs: number; byCase: Map<string, { verdict: string; ratio: number; ci: [number, number] }> } {
  const r = benchRun(['json-reviver', ...scope, ...args]);
  keep(name, r.run);
  const view = pairedComparisonView(r.run, threshold !== undefined ? { threshold } : {});
  const byCase = new Map<string, { verdict: string; ratio: number; ci: [number, number] }>();
  for (const row of view.sections[0]!.cases) if (row.comparison) byCase.set(row.caseId, { verdict: row.comparison.verdict, ratio: row.comparison.ratio, ci: row.comparison.ci });
  return { wallMs: r.wallMs, byCase };
}

if (!skip.has('2')) {
  console.log(`\n2. A/A: --compare node@26 node@26 --measure instructions --rounds ${rounds}`);
  const aa = verdicts('step-2', ['--compare', 'node@26', 'node@26', '--measure', 'instructions', '--rounds', rounds], COUNT_THRESHOLD);
  let equivalent = 0;
  for (const [id, c] of aa.byCase) {
    if (c.verdict === 'equivalent') equivalent++;
    console.log(`  ${id.padEnd(64)} ${c.ratio.toFixed(5)} [${c.ci[0].toFixed(5)}–${c.ci[1].toFixed(5)}] ${c.verdict}`);
  }
  console.log(`  equivalent: ${equivalent} of ${aa.byCase.size}; wall ${(aa.wallMs / 60000).toFixed(1)} min; load ${load()}`);
}

if (!skip.has('3')) {
  console.log(`\n3. node@24 vs node@26: instruction counts (--rounds ${rounds}) and time (lockstep, --compare defaults)`);
  const counts = verdicts('step-3-counts', ['--compare', 'node@24', 'node@26', '--measure', 'instructions', '--rounds', rounds], COUNT_THRESHOLD);
  const time = verdicts('step-3-time', ['--compare', 'node@24', 'node@26']);
  let agree = 0;
  let decidedBoth = 0;
  for (const [id, c] of counts.byCase) {
    const t = time.byCase.get(id);
    const decided = (v: string | undefined): boolean => v === 'faster' || v === 'slower';
    if (t && decided(c.verdict) && decided(t.verdict)) {
      decidedBoth++;
      if (c.verdict === t.verdict) agree++;
    }
    console.log(`  ${id.padEnd(64)} counts ${c.ratio.toFixed(3)} ${c.verdict.padEnd(12)} time ${t ? `${t.ratio.toFixed(3)} ${t.verdict}` : '—'}`);
  }
  console.log(`  both decided: ${decidedBoth}; same direction: ${agree}; wall ${(counts.wallMs / 60000).toFixed(1)} min (counts), ${(time.wallMs / 60000).toFixed(1)} min (time); load ${load()}`);
}
