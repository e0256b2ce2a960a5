/**
 * Calibration of `bench --compare` with its default settings, run through the
 * real CLI as a user would:
 *
 *   npx tsx scripts/measure/comparing/calibrate.ts [--runtime node] [--aa-reps 3] [--sensitivity-reps 3] [--effects 5,2,1] [--antagonist] [-- extra bench args]
 *   npx tsx scripts/measure/comparing/calibrate.ts --from <dir> [--aa-reps 2] [--sensitivity-reps 3] [--effects 5,2]   (the runs one saved before)
 *
 * --from reads the runs an earlier calibration saved in <dir> (it prints
 * the folder) and analyses them again with this checkout's statistics, as
 * `rtbench compare <run>` would: nothing is measured (wall times are the
 * runs' own).
 *
 * --antagonist runs scripts/antagonist.mjs beside every comparison;
 * arguments after -- go to every comparison (e.g. --sets-per-process 4).
 * Every A/A run also counts its host-clock alarms (all false on these cases).
 *
 * 1. A/A: the same variant against itself over the 21 "aa" cases of
 *    bench/calibration, several times. Every faster/slower verdict is false;
 *    the figure to check is their rate against the nominal 5%, before and
 *    after the Benjamini–Hochberg correction.
 * 2. Sensitivity: the "sensitivity / work" case with a known extra share of
 *    work (RTBENCH_CAL_EXTRA_PCT in the candidate's environment) against the
 *    plain case: how often each effect size is detected, what it is
 *    estimated at, and how long a one-case comparison takes.
 *
 * Not a test: it takes ~15 minutes on 2 cores, and its figures depend on the
 * machine. They go in the README.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ComparisonView as ComparisonReport } from '../../../packages/report/src/index.ts';
import { classify } from '../../../packages/stats/src/index.ts';
import { parseRun } from '@rtbench/core/schema';
import { clockAlarms, machineSpeedText, repoRoot, startAntagonist } from '../../lib.ts';


const dashes = process.argv.indexOf('--');
const own = dashes === -1 ? process.argv : process.argv.slice(0, dashes);
const extra = dashes === -1 ? [] : process.argv.slice(dashes + 1);

function arg(name: string, fallback: string): string {
  const i = own.indexOf(`--${name}`);
  return i >= 0 && own[i + 1] ? own[i + 1]! : fallback;
}

const runtime = arg('runtime', 'node');
const aaReps = Number(arg('aa-reps', '3'));
const sensitivityReps = Number(arg('sensitivity-reps', '3'));
const effects = arg('effects', '5,2,1').split(',').map(Number);
const fromDir = own.includes('--from') ? arg('from', '') : undefined;
const outDir = fromDir ?? mkdtempSync(join(tmpdir(), 'rtbench-calibrate-'));

interface Outcome {
  report: ComparisonReport;
  wallS: number;
  alarms: number;
}

function compare(args: string[], label: string): Outcome {
  const saved = join(outDir, `${label}.json`);
  if (fromDir) return analyse(saved, label);
  const cli = [join(repoRoot, 'packages/cli/bin/rtbench.mjs'), 'bench', 'calibration', ...args, ...extra, '--quiet', '--format', 'json', '--save', saved];
  const start = performance.now();
  const r = spawnSync(process.execPath, cli, { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 << 20 });
  const wallS = (performance.now() - start) / 1000;
  if (r.status !== 0) throw new Error(`${label}: rtbench exited ${r.status}\n${r.stderr}`);
  return { report: JSON.parse(r.stdout) as ComparisonReport, wallS, alarms: clockAlarms(parseRun(JSON.parse(readFileSync(saved, 'utf8')), saved)) };
}

/** A saved comparison analysed again through `rtbench compare <run>`. */
function analyse(saved: string, label: string): Outcome {
  const cli = [join(repoRoot, 'packages/cli/bin/rtbench.mjs'), 'compare', saved, '--quiet', '--format', 'json'];
  const r = spawnSync(process.execPath, cli, { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 << 20 });
  if (r.status !== 0 && !r.stdout) throw new Error(`${label}: rtbench compare exited ${r.status}\n${r.stderr}`);
  const run = parseRun(JSON.parse(readFileSync(saved, 'utf8')), saved);
  return { report: JSON.parse(r.stdout) as ComparisonReport, wallS: (run.timing?.wallMs ?? NaN) / 1000, alarms: clockAlarms(run) };
}

function display(args: string[]): string {
  return `pnpm bench calibration ${args.map((a) => (/\s/.test(a) ? `"${a}"` : a)).join(' ')}`;
}

const pct = (x: number, digits = 1): string => `${(x * 100).toFixed(digits)}%`;
const t0 = performance.now();
const antagonist = own.includes('--antagonist');
const stopNeighbour = antagonist ? startAntagonist() : undefined;
process.on('exit', () => stopNeighbour?.());
process.stdout.write(`rtbench calibration: runtime ${runtime}, ${aaReps} A/A repetitions, ${sensitivityReps} sensitivity repetitions per effect (${effects.join('%, ')}%)${antagonist ? ', beside the antagonist' : ''}${extra.length ? `, extra: ${extra.join(' ')}` : ''}\n`);
process.stdout.write(`run files in ${outDir}\n\n`);

// ------------------------------------------------------------------ A/A
const aaArgs = ['--filter', 'aa /', '--compare', runtime, runtime];
process.stdout.write(`A/A: ${display(aaArgs)}\n`);
let comparisons = 0;
let excludesOne = 0;
let rawClaims = 0;
let fdrClaims = 0;
let equivalent = 0;
const aaWall: number[] = [];
let aaAlarms = 0;
const absEstimates: number[] = [];
for (let rep = 1; rep <= aaReps; rep++) {
  const { report, wallS, alarms } = compare(aaArgs, `aa-${rep}`);
  aaWall.push(wallS);
  aaAlarms += alarms;
  let repRaw = 0;
  let repFdr = 0;
  let repExcl = 0;
  for (const row of report.sections[0]!.cases) {
    const c = row.comparison;
    if (!c) throw new Error(`A/A: "${row.caseId}" was not compared: ${row.note}`);
    comparisons++;
    absEstimates.push(Math.abs(Math.log(c.ratio)));
    const ci = c.ci;
    if (ci[0] > 1 || ci[1] < 1) repExcl++;
    // Before FDR: the verdict from the raw interval (applyFdr keeps ratio and CI as they were).
    const raw = c.n >= 6 ? classify(Math.log(c.ratio), [Math.log(ci[0]), Math.log(ci[1])], c.threshold) : 'inconclusive';
    if (raw === 'faster' || raw === 'slower') repRaw++;
    if (c.verdict === 'faster' || c.verdict === 'slower') repFdr++;
    if (c.verdict === 'equivalent') equivalent++;
  }
  excludesOne += repExcl;
  rawClaims += repRaw;
  fdrClaims += repFdr;
  const g = report.sections[0]!.geomean!;
  process.stdout.write(
    `  rep ${rep}: ${report.sections[0]!.cases.length} cases, CI excludes 1: ${repExcl}, false faster/slower: ${repRaw} before FDR, ${repFdr} after; ` +
      `geomean ${g.ratio.toFixed(3)} (${g.ci[0].toFixed(3)}–${g.ci[1].toFixed(3)}); host-clock alarms ${alarms}; ${wallS.toFixed(0)} s\n`,
  );
}
absEstimates.sort((a, b) => a - b);
const medianAbs = absEstimates[absEstimates.length >> 1] ?? 0;

// ------------------------------------------------------------------ sensitivity
interface EffectRow {
  effect: number;
  detected: number;
  reps: number;
  ratios: string[];
  wall: number[];
}
const rows: EffectRow[] = [];
process.stdout.write('\nsensitivity:\n');
for (const effect of effects) {
  const args = ['--filter', 'sensitivity', '--compare', `${runtime} RTBENCH_CAL_EXTRA_PCT=0`, `${runtime} RTBENCH_CAL_EXTRA_PCT=${effect}`];
  process.stdout.write(`  +${effect}%: ${display(args)}\n`);
  const row: EffectRow = { effect, detected: 0, reps: sensitivityReps, ratios: [], wall: [] };
  for (let rep = 1; rep <= sensitivityReps; rep++) {
    const { report, wallS } = compare(args, `sensitivity-${effect}-${rep}`);
    const c = report.sections[0]!.cases[0]!.comparison!;
    if (c.verdict === 'slower') row.detected++;
    row.ratios.push(`${c.ratio.toFixed(3)} (${c.ci[0].toFixed(3)}–${c.ci[1].toFixed(3)}) ${c.verdict}`);
    row.wall.push(wallS);
    process.stdout.write(`    rep ${rep}: ${row.ratios[row.ratios.length - 1]}; ${wallS.toFixed(1)} s\n`);
  }
  rows.push(row);
}

// ------------------------------------------------------------------ summary
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
const oneCase = rows.flatMap((r) => r.wall);
const smallest = [...rows].sort((a, b) => a.effect - b.effect).find((r) => r.detected === r.reps);
process.stdout.write(`
## Calibration figures (${new Date().toISOString().slice(0, 10)}, ${runtime}, at the end ${machineSpeedText()}; defaults: 20 lockstep sets, 100 ms of sampling per process and set, warmup ≥ 150 ms, 1% threshold)

| A/A (same variant twice) | value |
|---|--:|
| comparisons (cases × repetitions) | ${comparisons} |
| CI excludes 1 (raw test, nominal 5%) | ${excludesOne} (${pct(excludesOne / comparisons)}) |
| false faster/slower before FDR | ${rawClaims} (${pct(rawClaims / comparisons)}) |
| false faster/slower after FDR | ${fdrClaims} (${pct(fdrClaims / comparisons)}) |
| equivalent (CI inside ±1%) | ${equivalent} (${pct(equivalent / comparisons)}) |
| median absolute A/A estimate | ${pct(Math.exp(medianAbs) - 1, 2)} |
| wall time, 21 cases | ${aaWall.map((w) => `${w.toFixed(0)} s`).join(', ')} |
| host-clock alarms (all false) | ${aaAlarms} |

| extra work | detected (slower) | estimates (95% CI) |
|---|--:|---|
${rows.map((r) => `| +${r.effect}% | ${r.detected}/${r.reps} | ${r.ratios.join('; ')} |`).join('\n')}

Smallest effect detected in every repetition: ${smallest ? `+${smallest.effect}%` : 'none of those tried'}.
One-case comparison wall time (2 arms × 20 sets, including bundling): median ${median(oneCase).toFixed(1)} s, max ${Math.max(...oneCase).toFixed(1)} s.
Total calibration time: ${((performance.now() - t0) / 60000).toFixed(1)} min.
`);
