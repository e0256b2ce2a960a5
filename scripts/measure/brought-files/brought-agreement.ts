/**
 * rtbench beside the tools that run brought files on their own
 * (docs/measurements/brought-files.md, "Beside the tools they replace"): each step runs one
 * tool and keeps what it printed in --out, so that a long comparison can be
 * split into holds of the measurement lock; `report` prints the agreement.
 *
 *   Node core file, compare.js (node@24 old, node@26 new, its default 30 runs):
 *     flock /tmp/rtbench-measure.lock npx tsx scripts/measure/brought-files/brought-agreement.ts node-core compare <node>/benchmark/<area>/<file>.js --out dir [--part name] [--set k=v ...]
 *     flock /tmp/rtbench-measure.lock npx tsx scripts/measure/brought-files/brought-agreement.ts node-core rtbench <node>/benchmark/<area>/<file>.js --out dir [--set k=v ...] [-- rtbench options]
 *     flock /tmp/rtbench-measure.lock npx tsx scripts/measure/brought-files/brought-agreement.ts node-core aa <node>/benchmark/<area>/<file>.js --out dir [--set k=v ...]   (node@26 against itself)
 *     npx tsx scripts/measure/brought-files/brought-agreement.ts node-core report --out dir [--reference dir-of-a-longer-rtbench-run]
 *     npx tsx scripts/measure/brought-files/brought-agreement.ts node-core draws --out dir [--budgets 10x40,12x40] [--draws 300]   (smaller budgets drawn from a run's sets)
 *     npx tsx scripts/measure/brought-files/brought-agreement.ts node-core runs --out dir --runs dir2,dir3   (rtbench runs of one file side by side)
 *   node:bench file, `node --bench` on node@26:
 *     flock /tmp/rtbench-measure.lock npx tsx scripts/measure/brought-files/brought-agreement.ts node-bench run <file> --out dir
 *     npx tsx scripts/measure/brought-files/brought-agreement.ts node-bench report --out dir
 *   Deno.bench file, `deno bench` on deno:
 *     flock /tmp/rtbench-measure.lock npx tsx scripts/measure/brought-files/brought-agreement.ts deno-bench run <file> --out dir
 *     npx tsx scripts/measure/brought-files/brought-agreement.ts deno-bench report --out dir
 *     flock /tmp/rtbench-measure.lock npx tsx scripts/measure/brought-files/brought-agreement.ts deno-bench plain <file> --out dir   (a plain loop of the file's functions under deno run and inside deno bench)
 *
 * The statistics compared, from raw samples on both sides:
 * - compare.js: compare.R's test, a Welch two-sample t-test of the rates per
 *   configuration (decided at p < 0.05), beside rtbench's paired verdict;
 * - node --bench: the median of its samples' time per operation (its median
 *   rate inverted; its table's mean rate is shown as a time beside it) against
 *   rtbench's median (of the process medians);
 * - deno bench: it prints no median, so its samples are observed: a module
 *   imported before the file wraps each Deno.bench function and records every
 *   call (scripts/measure/brought-files/brought-agreement/deno-observe.js, in a second deno bench
 *   run); deno's samples are its last n calls (n as it reports it), or in its
 *   low-precision mode (a call under 10 µs) its last n batches of 10,000 calls.
 *   Its average, p75 and minimum are from the first, unobserved run.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { applyFdr, comparePaired, createRandom, DEFAULT_THRESHOLD, median, pairRounds, studentTQuantile, studentTTwoSided } from '../../../packages/stats/src/index.ts';
import { pairable } from '../../../packages/measurer-records/src/index.ts';
import type { RunRecord } from '@rtbench/core/schema';
import { repoRoot } from '../../lib.ts';

const CLI = [join(repoRoot, 'packages/cli/bin/rtbench.mjs')];

/** What a step records beside its output: when, at what load, how long, with which command. */
interface StepRecord {
  command: string;
  startedAt: string;
  wallMs: number;
  load: [number, number];
}

const load1 = (): number => Math.round(loadavg()[0]! * 100) / 100;
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

function fail(message: string): never {
  process.stderr.write(`brought-agreement: ${message}\n`);
  process.exit(2);
}

/** Runs a command, its stdout to `stdoutFile`, and writes `<name>.step.json` beside it. */
function timedStep(name: string, out: string, program: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; stdoutFile?: string } = {}): void {
  const startedAt = new Date().toISOString();
  const loadBefore = load1();
  const started = performance.now();
  const r = spawnSync(program, args, { cwd: options.cwd ?? repoRoot, env: options.env ?? process.env, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, stdio: ['ignore', 'pipe', 'inherit'] });
  const wallMs = performance.now() - started;
  if (options.stdoutFile) writeFileSync(options.stdoutFile, r.stdout);
  if (r.status !== 0) fail(`${name}: ${program} ${args.join(' ')} exited with ${r.status ?? r.signal}`);
  const record: StepRecord = { command: [program, ...args].join(' '), startedAt, wallMs, load: [loadBefore, load1()] };
  writeFileSync(join(out, `${name}.step.json`), `${JSON.stringify(record, null, 2)}\n`);
  process.stderr.write(`${name}: ${(wallMs / 1000).toFixed(1)} s, load ${record.load.join(' → ')} (${startedAt})\n`);
}

const readStep = (out: string, name: string): StepRecord => JSON.parse(readFileSync(join(out, `${name}.step.json`), 'utf8')) as StepRecord;

/** The binary rtbench runs for a spec (`rtbench runtimes --json`). */
function binaryOf(spec: string): string {
  const r = spawnSync(process.execPath, [...CLI, 'runtimes', '--json'], { cwd: repoRoot, encoding: 'utf8' });
  const found = (JSON.parse(r.stdout) as { spec: string; binary?: string }[]).find((x) => x.spec === spec)?.binary;
  return found ?? fail(`rtbench does not have ${spec}`);
}

function formatNs(ns: number): string {
  if (!Number.isFinite(ns)) return '—';
  if (ns >= 1e6) return `${(ns / 1e6).toPrecision(3)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toPrecision(3)} µs`;
  return `${ns.toPrecision(3)} ns`;
}

const stepLine = (label: string, s: StepRecord): string => `${label}: ${(s.wallMs / 1000).toFixed(1)} s, from ${s.startedAt.slice(11, 19)} UTC, load ${s.load.join(' → ')}\n  ${s.command}`;

// ------------------------------------------------------------ Node core files

/** compare.R's figures for one configuration: Welch's t-test on the rates of the two binaries. */
interface WelchResult {
  /** mean(new) / mean(old) − 1: positive is faster (a rate). */
  change: number;
  /** Half-width of the 95% interval of that change. */
  halfWidth: number;
  p: number;
  runs: [number, number];
}

function welch(oldRates: number[], newRates: number[]): WelchResult {
  const [m1, m2] = [mean(oldRates), mean(newRates)];
  const variance = (xs: number[], m: number): number => xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1);
  const [a, b] = [variance(oldRates, m1) / oldRates.length, variance(newRates, m2) / newRates.length];
  const se = Math.sqrt(a + b);
  // Welch–Satterthwaite, rounded down for the exact two-sided p-value.
  const df = Math.max(1, Math.floor((a + b) ** 2 / (a ** 2 / (oldRates.length - 1) + b ** 2 / (newRates.length - 1))));
  const t = (m2 - m1) / se;
  return { change: m2 / m1 - 1, halfWidth: (studentTQuantile(0.975, df) * se) / m1, p: se > 0 ? studentTTwoSided(t, df) : 0, runs: [oldRates.length, newRates.length] };
}

/** compare.js's CSV: `"binary", "filename", "configuration", rate, time` (quotes in a configuration doubled). */
function parseCompareCsv(text: string): Map<string, { old: number[]; new: number[] }> {
  const byConfiguration = new Map<string, { old: number[]; new: number[] }>();
  for (const line of text.split('\n').slice(1)) {
    const m = /^"(old|new)", "[^"]*", "((?:[^"]|"")*)", ([^,]+), /.exec(line);
    if (!m) continue;
    const configuration = m[2]!.replace(/""/g, '"');
    const entry = byConfiguration.get(configuration) ?? { old: [], new: [] };
    entry[m[1] as 'old' | 'new'].push(Number(m[3]));
    byConfiguration.set(configuration, entry);
  }
  return byConfiguration;
}

const stars = (p: number): string => (p < 0.001 ? '***' : p < 0.01 ? '**' : p < 0.05 ? '*' : '');

function nodeCore(step: string, args: Options): void {
  const out = args.out;
  if (step === 'compare') {
    const file = resolve(args.file ?? fail('node-core compare needs the file'));
    const benchmarkDir = dirname(dirname(file));
    if (!existsSync(join(benchmarkDir, 'compare.js'))) fail(`${benchmarkDir} has no compare.js: name a file in <node>/benchmark/<area>/`);
    const sets = args.set.flatMap((s) => ['--set', s]);
    const part = `compare-${args.part ?? 'all'}`;
    timedStep(part, out, binaryOf('node@26'), ['compare.js', '--old', binaryOf('node@24'), '--new', binaryOf('node@26'), '--no-progress', ...sets, '--filter', basename(file), basename(dirname(file))], { cwd: benchmarkDir, stdoutFile: join(out, `${part}.csv`) });
    return;
  }
  if (step === 'rtbench' || step === 'aa') {
    const file = resolve(args.file ?? fail(`node-core ${step} needs the file`));
    const sets = args.set.flatMap((s) => ['--set', s]);
    // aa: node@26 against itself, the same budget: every decided configuration is a false verdict.
    const [arms, name] = step === 'aa' ? [['node@26', 'node@26'], 'aa'] : [['node@24', 'node@26'], 'rtbench'];
    timedStep(name, out, process.execPath, [...CLI, 'run', file, '--compare', ...arms, ...sets, ...args.rest, '--format', 'json', '-o', join(out, `${name}-view.json`), '--save', join(out, `${name}-run.json`), '--quiet']);
    return;
  }
  if (step === 'runs') return acrossRuns([out, ...(args.runs ?? '').split(',').filter(Boolean).map((d) => resolve(d))]);
  const parts = readdirSync(out).filter((f) => /^compare-.*\.csv$/.test(f));
  if (!parts.length) fail(`${out} has no compare-*.csv: run the compare step first`);
  const rates = new Map<string, { old: number[]; new: number[] }>();
  for (const part of parts) for (const [k, v] of parseCompareCsv(readFileSync(join(out, part), 'utf8'))) rates.set(k, v);
  if (step === 'draws') return draws(out, rates, args);
  const compareSteps = parts.map((p) => readStep(out, p.replace(/\.csv$/, '')));
  const rtStep = readStep(out, 'rtbench');
  const cases = comparisonsIn(join(out, 'rtbench-view.json'));
  console.log('| configuration | compare.js: rate change, stars, 95% CI half-width (runs) | rtbench: time ratio (95% CI), verdict |');
  console.log('|---|--:|--:|');
  let decidedByCompare = 0;
  let decidedByRtbench = 0;
  let agree = 0;
  let missed = 0;
  for (const [configuration, r] of rates) {
    const w = welch(r.old, r.new);
    const c = cases.get(configuration);
    const compareDecides = w.p < 0.05;
    const rtDecides = c?.verdict === 'faster' || c?.verdict === 'slower';
    if (compareDecides) decidedByCompare++;
    if (rtDecides) decidedByRtbench++;
    // A rate up (change > 0) is a time down (ratio < 1).
    if (compareDecides && rtDecides && w.change > 0 === (c.verdict === 'faster')) agree++;
    else if (compareDecides) missed++;
    const cmp = `${w.change >= 0 ? '+' : '−'}${Math.abs(w.change * 100).toFixed(1)}% ${stars(w.p) || `(p ${w.p.toFixed(2)})`}, ±${(w.halfWidth * 100).toFixed(1)}% (${w.runs.join('/')})`;
    const rt = c ? `${c.ratio.toFixed(3)} (${c.ci[0].toFixed(3)}–${c.ci[1].toFixed(3)}) ${c.verdict}${c.verdict === 'inconclusive' ? ` (q ${c.qValue.toFixed(3)})` : ''}` : 'not in the rtbench run';
    console.log(`| \`${configuration}\` | ${cmp} | ${rt} |`);
  }
  const compareMs = compareSteps.reduce((a, s) => a + s.wallMs, 0);
  console.log(`\n${rates.size} configurations; compare.js decides ${decidedByCompare}, rtbench decides ${decidedByRtbench}; of compare.js's decided, rtbench decides ${agree} in the same direction${missed ? `, ${missed} not or the other way` : ''}`);
  console.log(`wall time: compare.js ${(compareMs / 1000).toFixed(0)} s, rtbench ${(rtStep.wallMs / 1000).toFixed(0)} s: rtbench / compare.js = ${(rtStep.wallMs / compareMs).toFixed(2)}`);
  for (const s of compareSteps) console.log(stepLine('compare.js', s));
  console.log(stepLine('rtbench', rtStep));
  if (existsSync(join(out, 'aa-view.json'))) {
    const aa = [...comparisonsIn(join(out, 'aa-view.json')).values()].filter((c) => c !== undefined);
    const falseVerdicts = aa.filter((c) => c.verdict === 'faster' || c.verdict === 'slower').length;
    const covering = aa.filter((c) => c.ci[0] <= 1 && 1 <= c.ci[1]).length;
    const widest = Math.max(...aa.map((c) => Math.max(c.ci[1] - 1, 1 - c.ci[0])));
    console.log(`\nA/A (node@26 against itself, the same budget): ${falseVerdicts} of ${aa.length} configurations decided (each a false verdict); the 95% CI holds 1 in ${covering} of ${aa.length}; widest reach from 1: ±${(widest * 100).toFixed(1)}%`);
    console.log(stepLine('A/A', readStep(out, 'aa')));
  }
  if (args.reference) {
    // A run with a larger budget stands in for the true ratio: how often does this run's interval hold it?
    const reference = comparisonsIn(join(args.reference, 'rtbench-view.json'));
    let held = 0;
    let compared = 0;
    const outside: string[] = [];
    for (const [id, c] of cases) {
      const ref = reference.get(id);
      if (!c || !ref) continue;
      compared++;
      if (c.ci[0] <= ref.ratio && ref.ratio <= c.ci[1]) held++;
      else outside.push(`\`${id}\`: ${ref.ratio.toFixed(3)} outside ${c.ci[0].toFixed(3)}–${c.ci[1].toFixed(3)} by ${((ref.ratio < c.ci[0] ? c.ci[0] / ref.ratio : ref.ratio / c.ci[1]) * 100 - 100).toFixed(1)}%`);
    }
    console.log(`\ncoverage: this run's 95% CI holds the ratio of the reference run (${args.reference}) in ${held} of ${compared} configurations${outside.length ? `; ${outside.join('; ')}` : ''}`);
  }
}

/**
 * A smaller budget read off a larger run: draws of `--rounds` of its sets
 * (each cut to its first `--turns` turns), judged as the comparison judges
 * them (signed-rank CI, the 1% threshold, Benjamini–Hochberg across the
 * configurations). Prints, per budget, how often every configuration
 * compare.js decides is decided the same way, and each one's share. Draws
 * share sets, so the shares read high as --rounds nears the run's sets.
 */
function draws(out: string, rates: Map<string, { old: number[]; new: number[] }>, args: Options): void {
  const run = JSON.parse(readFileSync(join(out, 'rtbench-run.json'), 'utf8')) as RunRecord;
  const [baseline, candidate] = run.variants.map((v) => v.id);
  const configurations = [...rates.keys()];
  const decidedByCompare = configurations.map((k) => {
    const w = welch(rates.get(k)!.old, rates.get(k)!.new);
    return w.p < 0.05 ? (w.change > 0 ? 'faster' : 'slower') : undefined;
  });
  const budgets = (args.budgets ?? '10x40,12x30,12x40,14x40').split(',').map((b) => b.split('x').map(Number) as [number, number]);
  const count = Number(args.draws ?? 300);
  const random = createRandom(1);
  console.log(`${run.suite}: ${count} draws per budget from ${out}/rtbench-run.json; compare.js decides ${decidedByCompare.filter(Boolean).length} of ${configurations.length}`);
  for (const [rounds, turns] of budgets) {
    const pairs = configurations.map((id) => {
      const cut = (v: string | undefined) => run.results.find((r) => r.caseId === id && r.variantId === v)!.rounds.map((r) => pairable({ ...r, samples: r.samples.slice(0, turns) }));
      return pairRounds(cut(baseline), cut(candidate));
    });
    let all = 0;
    const each = configurations.map(() => 0);
    for (let d = 0; d < count; d++) {
      const judged = applyFdr(
        pairs.map((p) => {
          const order = p.baseline.map((_, i) => i);
          for (let i = order.length - 1; i > 0; i--) {
            const j = Math.floor(random() * (i + 1));
            [order[i], order[j]] = [order[j]!, order[i]!];
          }
          const chosen = order.slice(0, rounds);
          return comparePaired(chosen.map((i) => p.baseline[i]!), chosen.map((i) => p.candidate[i]!), { threshold: DEFAULT_THRESHOLD });
        }),
      );
      const same = judged.map((c, i) => decidedByCompare[i] !== undefined && c.qValue < 0.05 && c.verdict === decidedByCompare[i]);
      same.forEach((x, i) => (each[i]! += x ? 1 : 0));
      if (decidedByCompare.every((v, i) => v === undefined || same[i])) all++;
    }
    const shares = configurations.map((_, i) => (decidedByCompare[i] ? (each[i]! / count).toFixed(2) : '·')).join(' ');
    console.log(`${rounds} sets of ${turns} turns: all decided the same way in ${((100 * all) / count).toFixed(0)}% of draws; each (· compare.js undecided): ${shares}`);
  }
}

/**
 * Several rtbench runs of one file side by side: each configuration's ratio
 * and interval per run, and how many pairs of runs have intervals that do
 * not overlap (the machine moved the ratio between runs by more than one
 * run's interval holds).
 */
function acrossRuns(dirs: string[]): void {
  const runs = dirs.map((d) => comparisonsIn(join(d, 'rtbench-view.json')));
  console.log(`runs: ${dirs.join(', ')}`);
  let apart = 0;
  for (const id of runs[0]!.keys()) {
    const cells = runs.map((r) => r.get(id));
    let disjoint = 0;
    for (let i = 0; i < cells.length; i++) for (let j = i + 1; j < cells.length; j++) if (cells[i] && cells[j] && (cells[i]!.ci[1] < cells[j]!.ci[0] || cells[j]!.ci[1] < cells[i]!.ci[0])) disjoint++;
    if (disjoint) apart++;
    const shown = cells.map((c) => (c ? `${c.ratio.toFixed(3)} (${c.ci[0].toFixed(3)}–${c.ci[1].toFixed(3)})` : '—')).join(' | ');
    console.log(`| \`${id}\` | ${shown} | ${disjoint ? `${disjoint} pair${disjoint > 1 ? 's' : ''} apart` : ''} |`);
  }
  console.log(`\n${apart} of ${runs[0]!.size} configurations have intervals that do not overlap between some two runs`);
}

interface ViewComparison {
  ratio: number;
  ci: [number, number];
  verdict: string;
  qValue: number;
}

/** The comparisons of a `--format json` view of a comparison, by configuration. */
function comparisonsIn(path: string): Map<string, ViewComparison | undefined> {
  const view = JSON.parse(readFileSync(path, 'utf8')) as { sections: { cases: { caseId: string; comparison?: ViewComparison }[] }[] };
  return new Map(view.sections[0]!.cases.map((c) => [c.caseId, c.comparison]));
}

// ---------------------------------------------------- node:bench and Deno.bench

/** rtbench's figures for a case from a saved run: its headline median, the mean of all samples, the process medians' range. */
function rtbenchFigures(run: RunRecord, caseId: string): { median: number; mean: number; low: number; high: number; callsPerSample: number } | undefined {
  const r = run.results.find((x) => x.caseId === caseId);
  if (!r?.stats) return undefined;
  const processMedians = r.rounds.map((x) => median(x.samples));
  const callsPerSample = Math.round(median(r.rounds.map((x) => x.iterationsPerSample)));
  return { median: r.stats.median, mean: mean(r.rounds.flatMap((x) => x.samples)), low: Math.min(...processMedians), high: Math.max(...processMedians), callsPerSample };
}

/** The median of the means of consecutive runs of `size` calls: one-call samples read as rtbench's batches. */
function medianOfBatches(calls: number[], size: number): number {
  const means: number[] = [];
  for (let i = 0; i + size <= calls.length; i += size) means.push(mean(calls.slice(i, i + size)));
  return median(means);
}

function agreementLine(ratios: number[]): string {
  const within = ratios.filter((r) => r >= 1 / 1.1 && r <= 1.1).length;
  return `${within} of ${ratios.length} cases within 10% (rtbench's median / the tool's median, from 1/1.1 to 1.1)`;
}

/** node --bench's name for a record, as rtbench names the case: suites, then the name and its params. */
function nodeBenchId(namePath: string[], params: Record<string, unknown>): string {
  const keys = Object.keys(params).sort();
  const name = `${namePath.at(-1)!}${keys.length ? ` [${keys.map((k) => `${k}=${JSON.stringify(params[k])}`).join(', ')}]` : ''}`;
  return namePath.length > 1 ? `${namePath.slice(0, -1).join(' > ')} / ${name}` : name;
}

function nodeBench(step: string, args: Options): void {
  const out = args.out;
  if (step === 'run') {
    const file = resolve(args.file ?? fail('node-bench run needs the file'));
    timedStep('node-bench', out, binaryOf('node@26'), ['--experimental-bench', '--bench', '--bench-reporter=json', file], { stdoutFile: join(out, 'node-bench.jsonl') });
    timedStep('rtbench', out, process.execPath, [...CLI, 'run', file, '--runtime', 'node@26', ...args.rest, '--quiet', '--save', join(out, 'rtbench-run.json')]);
    return;
  }
  const run = JSON.parse(readFileSync(join(out, 'rtbench-run.json'), 'utf8')) as RunRecord;
  console.log('| case | `node --bench`: median (1 / mean rate), samples | rtbench: median (process medians), mean | rtbench / node --bench, medians |');
  console.log('|---|--:|--:|--:|');
  const ratios: number[] = [];
  for (const line of readFileSync(join(out, 'node-bench.jsonl'), 'utf8').trim().split('\n')) {
    const record = JSON.parse(line) as { type: string; data: { namePath: string[]; params: Record<string, unknown>; samples: { operations: number; duration_ns: string }[] } };
    if (record.type !== 'bench:complete') continue;
    const perOp = record.data.samples.map((s) => Number(s.duration_ns) / s.operations);
    const meanRate = mean(perOp.map((t) => 1e9 / t));
    const id = nodeBenchId(record.data.namePath, record.data.params);
    const ours = rtbenchFigures(run, id);
    const theirs = median(perOp);
    const ratio = ours ? ours.median / theirs : NaN;
    if (theirs >= 1000 && Number.isFinite(ratio)) ratios.push(ratio);
    console.log(`| ${id} | ${formatNs(theirs)} (${formatNs(1e9 / meanRate)}), ${perOp.length} | ${ours ? `${formatNs(ours.median)} (${formatNs(ours.low)}–${formatNs(ours.high)}), ${formatNs(ours.mean)}` : 'not in the rtbench run'} | ${Number.isFinite(ratio) ? ratio.toFixed(3) : '—'} |`);
  }
  console.log(`\n${agreementLine(ratios)}, cases of 1 µs or more`);
  console.log(stepLine('node --bench', readStep(out, 'node-bench')));
  console.log(stepLine('rtbench', readStep(out, 'rtbench')));
}

interface DenoBenchResult {
  n: number;
  min: number;
  avg: number;
  p75: number;
  highPrecision: boolean;
}
type DenoBenchJson = { benches: { group: string | null; name: string; results: { ok?: DenoBenchResult }[] }[] };

/** deno bench's samples from the observed calls: its last n calls, or in its low-precision mode the means of its last n batches of 10,000. */
function denoSamples(calls: number[], result: Pick<DenoBenchResult, 'n' | 'highPrecision'>): number[] {
  if (result.highPrecision) return calls.slice(-result.n);
  const batch = 10_000;
  const samples: number[] = [];
  for (let end = calls.length; end - batch >= 0 && samples.length < result.n; end -= batch) samples.unshift(mean(calls.slice(end - batch, end)));
  return samples;
}

function denoBench(step: string, args: Options): void {
  const out = args.out;
  if (step === 'run') {
    const file = resolve(args.file ?? fail('deno-bench run needs the file'));
    const deno = binaryOf('deno');
    // deno finds the file's deno.json from its working directory, so both runs start in the file's folder.
    timedStep('deno-bench', out, deno, ['bench', '--json', '--no-check', file], { cwd: dirname(file), stdoutFile: join(out, 'deno-bench.json') });
    const observer = join(out, 'deno-observe.js');
    cpSync(join(import.meta.dirname, 'brought-agreement', 'deno-observe.js'), observer);
    const entry = join(out, 'observed.js');
    writeFileSync(entry, `import ${JSON.stringify(observer)};\nimport ${JSON.stringify(file)};\n`);
    const calls = join(out, 'deno-calls.json');
    timedStep('deno-bench-observed', out, deno, ['bench', '--json', '--no-check', `--allow-write=${out}`, '--allow-env=RTBENCH_OBSERVE_OUT', entry], { cwd: dirname(file), env: { ...process.env, RTBENCH_OBSERVE_OUT: calls }, stdoutFile: join(out, 'deno-bench-observed.json') });
    timedStep('rtbench', out, process.execPath, [...CLI, 'run', file, '--runtime', 'deno', ...args.rest, '--quiet', '--save', join(out, 'rtbench-run.json')]);
    return;
  }
  if (step === 'plain') return plainLoops(args);
  const run = JSON.parse(readFileSync(join(out, 'rtbench-run.json'), 'utf8')) as RunRecord;
  const plain = JSON.parse(readFileSync(join(out, 'deno-bench.json'), 'utf8')) as DenoBenchJson;
  const observed = JSON.parse(readFileSync(join(out, 'deno-bench-observed.json'), 'utf8')) as DenoBenchJson;
  const calls = JSON.parse(readFileSync(join(out, 'deno-calls.json'), 'utf8')) as Record<string, number[]>;
  console.log(
    "| case | `deno bench`: avg (min, p75) | `deno bench`, observed: median of its samples (samples, mode) | rtbench: median (process medians), mean; calls per sample | rtbench / deno bench, medians | deno's one-call samples as rtbench's batches: median, rtbench / that | rtbench mean / deno avg |",
  );
  console.log('|---|--:|--:|--:|--:|--:|--:|');
  const ratios: number[] = [];
  for (const bench of plain.benches) {
    const id = bench.group ? `${bench.group} / ${bench.name}` : bench.name;
    const ok = bench.results[0]?.ok;
    const seen = observed.benches.find((b) => b.name === bench.name && b.group === bench.group)?.results[0]?.ok;
    const ours = rtbenchFigures(run, id);
    if (!ok || !seen || !calls[id] || !ours) {
      console.log(`| ${id} | ${ok ? formatNs(ok.avg) : 'failed'} | — | ${ours ? formatNs(ours.median) : 'not in the rtbench run'} | — | — | — |`);
      continue;
    }
    const samples = denoSamples(calls[id], seen);
    const theirs = median(samples);
    const ratio = ours.median / theirs;
    if (theirs >= 1000) ratios.push(ratio);
    const batched = seen.highPrecision ? medianOfBatches(samples, ours.callsPerSample) : NaN;
    console.log(
      `| ${id} | ${formatNs(ok.avg)} (${formatNs(ok.min)}, ${formatNs(ok.p75)}) | ${formatNs(theirs)} (${samples.length}, ${seen.highPrecision ? 'one call each' : 'batches of 10,000 calls'}) | ${formatNs(ours.median)} (${formatNs(ours.low)}–${formatNs(ours.high)}), ${formatNs(ours.mean)}; ${ours.callsPerSample} | ${ratio.toFixed(3)} | ${Number.isFinite(batched) ? `${formatNs(batched)}, ${(ours.median / batched).toFixed(3)}` : '—'} | ${(ours.mean / ok.avg).toFixed(3)} |`,
    );
  }
  console.log(`\n${agreementLine(ratios)}, cases of 1 µs or more`);
  for (const [name, label] of [['deno-bench', 'deno bench'], ['deno-bench-observed', 'deno bench, observed'], ['rtbench', 'rtbench']] as const) console.log(stepLine(label, readStep(out, name)));
}

/** The outermost deno.json above a file (a workspace's root), for `deno run` of a script outside it. */
function outermostDenoConfig(dir: string): string | undefined {
  let found: string | undefined;
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, 'deno.json'))) found = join(d, 'deno.json');
    if (dirname(d) === d) return found;
  }
}

/**
 * Which figure is the code's: the file's functions in a plain loop timed as
 * deno bench times them (plain-loop.js), three times under `deno run`, twice
 * more keeping its samples in an array of 10⁷ elements as deno bench does,
 * and twice inside deno bench's own process (in-deno-bench.js); and deno bench's
 * own cost per sample when it times each call alone (deno-sample-cost.js).
 * Prints the medians per benchmark beside rtbench's and deno bench's, from
 * the run step's files in --out when they are there.
 */
function plainLoops(args: Options): void {
  const out = args.out;
  const file = resolve(args.file ?? fail('deno-bench plain needs the file'));
  const deno = binaryOf('deno');
  const config = outermostDenoConfig(dirname(file));
  const configArgs = config ? ['--config', config] : [];
  const script = (name: string): string => join(import.meta.dirname, 'brought-agreement', name);
  const jsonLine = (text: string): Record<string, number> => JSON.parse(/\{.*\}/.exec(text)?.[0] ?? fail(`no result in: ${text.slice(0, 300)}`)) as Record<string, number>;
  const startedAt = new Date().toISOString();
  const loadBefore = load1();
  const runs: Record<string, number>[] = [];
  for (let i = 0; i < 3; i++) {
    const r = spawnSync(deno, ['run', '-A', ...configArgs, script('plain-loop.js'), file], { cwd: dirname(file), encoding: 'utf8' });
    runs.push(jsonLine(r.stdout + r.stderr));
  }
  // The same loop keeping its samples in a 10⁷-element array made before the file loads, as deno bench does.
  const withArray: Record<string, number>[] = [];
  for (let i = 0; i < 2; i++) {
    const r = spawnSync(deno, ['run', '-A', ...configArgs, script('plain-loop.js'), file, 'big'], { cwd: dirname(file), encoding: 'utf8' });
    withArray.push(jsonLine(r.stdout + r.stderr));
  }
  const inside: Record<string, number>[] = [];
  for (let i = 0; i < 2; i++) {
    const r = spawnSync(deno, ['bench', '-A', '--no-check', ...configArgs, script('in-deno-bench.js')], { cwd: dirname(file), encoding: 'utf8', env: { ...process.env, RTBENCH_PLAIN_FILE: file, NO_COLOR: '1' } });
    inside.push(jsonLine(r.stdout + r.stderr));
  }
  const cost = spawnSync(deno, ['bench', '--json', '--no-check', script('deno-sample-cost.js')], { cwd: import.meta.dirname, encoding: 'utf8' });
  writeFileSync(join(out, 'plain.json'), `${JSON.stringify({ startedAt, load: [loadBefore, load1()], runs, withArray, inside, cost: JSON.parse(cost.stdout) }, null, 1)}\n`);
  const run = existsSync(join(out, 'rtbench-run.json')) ? (JSON.parse(readFileSync(join(out, 'rtbench-run.json'), 'utf8')) as RunRecord) : undefined;
  const benchJson = existsSync(join(out, 'deno-bench.json')) ? (JSON.parse(readFileSync(join(out, 'deno-bench.json'), 'utf8')) as DenoBenchJson) : undefined;
  console.log(`plain loops, from ${startedAt.slice(11, 19)} UTC, load ${loadBefore} → ${load1()}`);
  console.log('| case | a plain loop, `deno run` (3 processes) | the same, with a 10⁷-element sample array (2) | the same loop inside `deno bench` (2) | `deno bench`: avg (min) | rtbench: median |');
  console.log('|---|--:|--:|--:|--:|--:|');
  const ms = (x: number | undefined): string => (x === undefined ? '—' : formatNs(x * 1e6));
  for (const id of Object.keys(runs[0]!)) {
    const bench = benchJson?.benches.find((b) => (b.group ? `${b.group} / ${b.name}` : b.name) === id)?.results[0]?.ok;
    const ours = run ? rtbenchFigures(run, id) : undefined;
    console.log(`| ${id} | ${runs.map((r) => ms(r[id])).join(', ')} | ${withArray.map((r) => ms(r[id])).join(', ')} | ${inside.map((r) => ms(r[id])).join(', ')} | ${bench ? `${formatNs(bench.avg)} (${formatNs(bench.min)})` : '—'} | ${ours ? formatNs(ours.median) : '—'} |`);
  }
  for (const b of (JSON.parse(cost.stdout) as DenoBenchJson).benches) {
    const ok = b.results[0]?.ok;
    if (ok) console.log(`deno bench, ${b.name}: avg ${formatNs(ok.avg)}, min ${formatNs(ok.min)}, p75 ${formatNs(ok.p75)} (${ok.highPrecision ? 'each call timed alone' : 'batches'})`);
  }
}

// ------------------------------------------------------------------ arguments

interface Options {
  out: string;
  file?: string;
  part?: string;
  /** node-core report: a folder whose rtbench run (a larger budget) stands in for the true ratios. */
  reference?: string;
  /** node-core runs: other folders of rtbench runs of the same file, comma-separated. */
  runs?: string;
  /** node-core draws: budgets as sets x turns, comma-separated (default 10x40,12x30,12x40,14x40), and draws per budget. */
  budgets?: string;
  draws?: string;
  set: string[];
  /** After `--`: passed to `rtbench run`. */
  rest: string[];
}

function parseOptions(argv: string[]): Options {
  const options: Options = { out: '', set: [], rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      options.rest = argv.slice(i + 1);
      break;
    }
    if (a === '--out') options.out = resolve(argv[++i] ?? fail('--out needs a folder'));
    else if (a === '--part') options.part = argv[++i];
    else if (a === '--runs') options.runs = argv[++i];
    else if (a === '--budgets') options.budgets = argv[++i];
    else if (a === '--draws') options.draws = argv[++i];
    else if (a === '--reference') options.reference = resolve(argv[++i] ?? fail('--reference needs a folder'));
    else if (a === '--set') options.set.push(argv[++i] ?? fail('--set needs key=value'));
    else if (a.startsWith('-')) fail(`unknown option ${a}`);
    else options.file = a;
  }
  if (!options.out) fail('--out <folder> is required: each step keeps its output there');
  mkdirSync(options.out, { recursive: true });
  return options;
}

const [kind, step, ...rest] = process.argv.slice(2);
const steps: Record<string, [string[], (step: string, o: Options) => void]> = {
  'node-core': [['compare', 'rtbench', 'aa', 'report', 'draws', 'runs'], nodeCore],
  'node-bench': [['run', 'report'], nodeBench],
  'deno-bench': [['run', 'report', 'plain'], denoBench],
};
const chosen = steps[kind ?? ''];
if (!chosen || !chosen[0].includes(step ?? '')) fail('usage: brought-agreement.ts node-core compare|rtbench|aa|report|draws|runs | node-bench run|report | deno-bench run|report|plain <file> --out <folder> (see the comment at the top)');
chosen[1](step!, parseOptions(rest));
