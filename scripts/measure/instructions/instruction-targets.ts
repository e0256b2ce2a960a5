/**
 * Instruction counts' targets (issue 27; docs/instructions.md), through the real CLI, each figure printed:
 *   1. the suite on node, deno, bun and workerd (--measure instructions): its wall time (target ≤ 10 min for
 *      json-reviver's 16 cases at 3 rounds) and the spread of each case × runtime's per-op count over the rounds
 *      (largest distance from the median; target ≤ 0.5%), with the largest per engine (the threshold its verdicts need);
 *   2. A/A (--compare node@26 node@26 --measure instructions): every case "equivalent";
 *   3. node@24 vs node@26 in counts: the same decided directions as the counts this instrument gave before
 *      (the 8 json-reviver 10 kB cases, docs/instructions.md); --with-time adds the lockstep time verdicts beside them.
 * Run under the measure lock, one step per hold if a step is long:
 *   npx tsx scripts/measure/instructions/instruction-targets.ts [--filter 10kb] [--rounds 3] [--only 1,2,3] [--with-time] [--save-dir DIR]
 * (--save-dir keeps each run's file: step-1.json, step-2.json, …)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pairedComparisonView } from '@rtbench/report';
import { benchRun, loadText, machineSpeedText, pct } from '../../lib.ts';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
};
const filter = arg('filter', '');
const rounds = arg('rounds', '3');
const only = new Set(arg('only', '1,2,3').split(',').filter(Boolean));
const withTime = process.argv.includes('--with-time');
const saveDir = arg('save-dir', '');
// Made before the first step, so a run's file is never lost for want of its folder.
if (saveDir) mkdirSync(saveDir, { recursive: true });
const keep = (name: string, run: unknown): void => {
  if (saveDir) writeFileSync(join(saveDir, `${name}.json`), JSON.stringify(run));
};
/** The verdict threshold of instruction runs (plan.ts INSTRUCTION_DEFAULTS). */
const COUNT_THRESHOLD = 0.005;
/** The per-op count's target spread between rounds. */
const SPREAD_TARGET = 0.005;
/** node@26 vs node@24 in counts before this instrument's changes (docs/instructions.md, 2026-11-22 and 2026-11-23). */
const NODE_24_26_DIRECTIONS: Readonly<Record<string, 'faster' | 'slower'>> = {
  'parse / no reviver [size=10kb]': 'faster',
  'parse / identity reviver (arrow) [size=10kb]': 'faster',
  'parse / identity reviver (function) [size=10kb]': 'faster',
  'parse / identity reviver declaring a context parameter [size=10kb]': 'slower',
  'parse / source-context reviver [size=10kb]': 'slower',
  'parse / date-reviving reviver [size=10kb]': 'faster',
  'parse / element-building reviver (flight-like) [size=10kb]': 'faster',
  'stringify / JSON.stringify [size=10kb]': 'faster',
};
const ENGINE: Readonly<Record<string, string>> = { node: 'V8', deno: 'V8', workerd: 'V8', bun: 'JSC' };
const scope = filter ? ['--filter', filter] : [];
const minutes = (ms: number): string => `${(ms / 60000).toFixed(1)} min`;
const countWord = (verdict: string): string => (verdict === 'faster' ? 'fewer' : verdict === 'slower' ? 'more' : verdict);

console.log(`${new Date().toISOString()}  ${machineSpeedText()}`);
if (only.has('1')) {
  console.log(`\n1. pnpm bench json-reviver ${scope.join(' ')} --measure instructions --rounds ${rounds} (node, deno, bun, workerd)`);
  const r = benchRun(['json-reviver', ...scope, '--measure', 'instructions', '--rounds', rounds]);
  keep('step-1', r.run);
  let within = 0;
  let cells = 0;
  const failed: string[] = [];
  const byRuntime = new Map<string, number[]>();
  for (const res of r.run.results) {
    const xs = res.rounds.map((x) => x.samples[0]!);
    if (xs.length < Number(rounds)) {
      failed.push(`${res.caseId} · ${res.variantId}`);
      console.log(`  ${res.caseId} · ${res.variantId}: ${res.status}, ${xs.length} rounds: ${res.failures.map((f) => f.message).join('; ').slice(0, 200)}`);
      continue;
    }
    const mid = [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    const spread = Math.max(...xs.map((x) => Math.abs(x / mid - 1)));
    cells++;
    if (spread <= SPREAD_TARGET) within++;
    byRuntime.set(res.variantId, [...(byRuntime.get(res.variantId) ?? []), spread]);
    console.log(`  ${`${res.caseId} · ${res.variantId}`.padEnd(72)} ${xs.map((x) => x.toFixed(0)).join(' ')}  ±${pct(spread, 3)}`);
  }
  const byEngine = new Map<string, number>();
  for (const [runtime, spreads] of byRuntime) {
    const worst = Math.max(...spreads);
    const engine = ENGINE[runtime.replace(/@.*/, '')] ?? runtime;
    byEngine.set(engine, Math.max(byEngine.get(engine) ?? 0, worst));
    console.log(`  ${runtime}: ±${pct(Math.min(...spreads), 3)} to ±${pct(worst, 3)} over ${spreads.length} cases; within ±${pct(SPREAD_TARGET, 1)}: ${spreads.filter((s) => s <= SPREAD_TARGET).length}`);
  }
  console.log(`  largest spread per engine: ${[...byEngine].map(([e, s]) => `${e} ±${pct(s, 3)}`).join(', ')}`);
  console.log(`  per-op counts within ±${pct(SPREAD_TARGET, 1)} of their median over the rounds: ${within} of ${cells + failed.length} cells${failed.length ? ` (${failed.length} failed)` : ''}`);
  console.log(`  wall ${minutes(r.wallMs)} (target ≤ 10 min for the whole suite at 3 rounds); load ${loadText()}`);
}

function verdicts(name: string, args: string[], threshold?: number): { wallMs: number; byCase: Map<string, { verdict: string; ratio: number; ci: [number, number] }> } {
  const r = benchRun(['json-reviver', ...args]);
  keep(name, r.run);
  const view = pairedComparisonView(r.run, threshold !== undefined ? { threshold } : {});
  const byCase = new Map<string, { verdict: string; ratio: number; ci: [number, number] }>();
  for (const row of view.sections[0]!.cases) if (row.comparison) byCase.set(row.caseId, { verdict: row.comparison.verdict, ratio: row.comparison.ratio, ci: row.comparison.ci });
  return { wallMs: r.wallMs, byCase };
}

if (only.has('2')) {
  console.log(`\n2. A/A: pnpm bench json-reviver ${scope.join(' ')} --compare node@26 node@26 --measure instructions --rounds ${rounds}`);
  const aa = verdicts('step-2', [...scope, '--compare', 'node@26', 'node@26', '--measure', 'instructions', '--rounds', rounds], COUNT_THRESHOLD);
  let equivalent = 0;
  for (const [id, c] of aa.byCase) {
    if (c.verdict === 'equivalent') equivalent++;
    console.log(`  ${id.padEnd(64)} ${c.ratio.toFixed(5)} [${c.ci[0].toFixed(5)}–${c.ci[1].toFixed(5)}] ${c.verdict}`);
  }
  console.log(`  equivalent: ${equivalent} of ${aa.byCase.size}; wall ${minutes(aa.wallMs)}; load ${loadText()}`);
}

if (only.has('3')) {
  console.log(`\n3. node@24 vs node@26: pnpm bench json-reviver --filter 10kb --compare node@24 node@26 --measure instructions --rounds ${rounds}${withTime ? ', and in time (lockstep, --compare defaults)' : ''}`);
  const counts = verdicts('step-3-counts', ['--filter', '10kb', '--compare', 'node@24', 'node@26', '--measure', 'instructions', '--rounds', rounds], COUNT_THRESHOLD);
  const time = withTime ? verdicts('step-3-time', ['--filter', '10kb', '--compare', 'node@24', 'node@26']) : undefined;
  let same = 0;
  for (const [id, c] of counts.byCase) {
    const before = NODE_24_26_DIRECTIONS[id];
    if (before && c.verdict === before) same++;
    const t = time?.byCase.get(id);
    console.log(`  ${id.padEnd(64)} ${c.ratio.toFixed(3)} ${countWord(c.verdict).padEnd(12)} before: ${before ? countWord(before) : '—'}${t ? `   time ${t.ratio.toFixed(3)} ${t.verdict}` : ''}`);
  }
  console.log(`  same decided direction as before: ${same} of ${Object.keys(NODE_24_26_DIRECTIONS).length}; wall ${minutes(counts.wallMs)}${time ? ` (counts), ${minutes(time.wallMs)} (time)` : ''}; load ${loadText()}`);
}
