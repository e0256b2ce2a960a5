/**
 * A case both ways: rtbench's table, and a plain loop of the same function
 * for a fixed long count in a fresh process, on every runtime of the table
 * (docs/how-a-number-is-made.md, "The collector's share"). The long loop is
 * the in-runtime loop's fixed-iteration job (core measure.ts measureFixed):
 * the case's first call, then exactly `calls` calls as one batch on the
 * host's command, timed by the host, no warmup, no sample sizing (`loop
 * CPU/op`: its main thread's CPU per call); `calls` makes the loop last about --loop-ms at
 * the table's figure. Tables and loops take turns (table, a loop process
 * per runtime, table, …: as many tables as loop processes, at least two),
 * so both sides see the machine alike: the table's figure is the tables'
 * geometric mean, and tables more than 20% apart (`tables`: the highest
 * over the lowest) mean the machine's load moved under the loops, so that
 * cell is not judged. Per cell it prints both per-operation figures, their
 * ratio, how far apart the first table's processes read (`processes`:
 * their 10th and 90th percentiles over the median), the table's collector's
 * share and its mark; a ratio within ±20%
 * is what an allocating case should read, and an allocation-free case's
 * figure should not move. `helpers` is the CPU the table's processes ran on
 * threads other than the main one, as a share of the main thread's (the
 * median over rounds; lockstep on Linux): concurrent marking and sweeping,
 * done while a process waited its turn, which no sample times and a long
 * loop may wait for (docs/lockstep.md, "Work the engine does between
 * samples"); `table×(1+helpers)÷loop` is the ratio with that work counted,
 * a bound. `1-core loop` is the same loop in a process held to one core
 * (taskset; `--pinned` processes, 1 by default): where it and the loop with
 * a free core are more than 20% apart, the case's cost depends on a core
 * free for its engine's helper threads, and a table between them (±20%)
 * is judged so. Each side's spread beside its figure: `table CI` (the first
 * table's 95% interval over processes, over its figure), `loops` (the long
 * loops' lowest and highest over their median) and `range` (the ratio
 * from those extremes): a ratio whose range crosses ±20% is not outside it
 * by more than the noise; the table is judged against the loops' median,
 * and fresh loops more than 20% apart are said beside the word (`loop not
 * fixed`: the loop is no fixed quantity for that case on that runtime,
 * long-loop-check/judge.ts). `main CPU/op` is the first table's main-thread CPU per call
 * (mainCpuPerCall): at the figure, the process itself did that much work a
 * call; below it, its samples waited or were preempted. `alone/op` is
 * the cell in a table of its runtime alone (`--alone 0` skips it), and
 * `table÷alone` what the set's company adds: a process among several waits
 * its turn while the others run through heaps of their own, and a case
 * that allocates can read higher for it (docs/lockstep.md, "The set's
 * company"); the judgement stays the table's.
 *
 *   npx tsx scripts/measure/lockstep/long-loop-check.ts                       the cases below, on the table's default runtimes
 *   npx tsx scripts/measure/lockstep/long-loop-check.ts --loop-ms 500 --processes 1 --pinned 0 --alone 0 -- --rounds 6 --max-rounds 6
 *   npx tsx scripts/measure/lockstep/long-loop-check.ts --case json-reviver "identity reviver (arrow) [size=10kb]"
 *   npx tsx scripts/measure/lockstep/long-loop-check.ts --case scripts/measure/lockstep/long-loop-check/allocating.mjs "records from a CSV line" -- --runtime bun
 *                                                            one runtime alone: its cell without the set's company
 *
 * Arguments after `--` go to every table (`pnpm bench`); real runs wait
 * for /tmp/rtbench-quiet to go.
 */
import { join } from 'node:path';
import { benchView } from '@rtbench/report';
import { bundleSuite, locateSuite } from '@rtbench/suite-loader';
import { pluginForSpec } from '@rtbench/runtime-registry';
import type { RunRecord } from '@rtbench/core/schema';
import { lockstepPreBatch, pacedJob } from '@rtbench/core/protocol';
import { cpuNsBetween, whichOnPath } from '@rtbench/process';
import { collectorShare, median, quantile } from '@rtbench/stats';
import { lockstepOf } from '../../../packages/measurer-records/src/index.ts';
import { benchRun, calibrationArgs, loadText, machineSpeedText, repoRoot } from '../../lib.ts';
import { aloneArgs, judged, tablesFigure } from './long-loop-check/judge.ts';

interface CheckedCase {
  /** A suite name or a brought file. */
  target: string;
  /** The --filter that picks the one case. */
  filter: string;
  /** What it is, in the printout. */
  label: string;
}

const HERE = join(repoRoot, 'scripts/measure/lockstep/long-loop-check');
const CASES: CheckedCase[] = [
  { target: join(HERE, 'benchmark/util/text-encoder.js'), filter: "op='encode'", label: 'Node core file: encode (allocates)' },
  { target: join(HERE, 'benchmark/util/text-encoder.js'), filter: "op='encodeInto'", label: 'Node core file: encodeInto (allocates nothing)' },
  { target: join(HERE, 'allocating.mjs'), filter: 'records from a CSV line', label: 'mitata file: records from a CSV line (allocates)' },
  ...[
    'array of 256 numbers, pushed and mapped',
    'string of 200 parts, concatenated and searched',
    '4 KB byte array copied',
    '64 KB ArrayBuffer allocated',
    'retained set of 20k records, one replaced a call',
    'request-scoped context of 40 records',
  ].map((filter) => ({ target: join(HERE, 'allocating.mjs'), filter, label: `mitata file: ${filter} (allocates)` })),
  { target: 'json-reviver', filter: 'identity reviver (arrow) [size=10kb]', label: 'json-reviver: identity reviver (arrow), 10 KB' },
];

/** The loop's calls: about loopMs at the table's figure, within bounds that keep a sub-ns figure and a 10 ms one sane. */
function callsFor(tableNs: number, loopMs: number): number {
  return Math.max(1_000, Math.min(50_000_000, Math.round((loopMs * 1e6) / Math.max(1, tableNs))));
}

/** A long loop's figures per call: its wall time on the host's clock, and its main thread's CPU where the host reads it (Linux). */
interface LoopFigure {
  ns: number;
  cpuNs?: number;
}

/**
 * `calls` calls of the case in a fresh process of the variant, or a reason.
 * A fixed-iteration session (core execute.ts fixedLockstepAnswer: the case's
 * first call, then exactly `calls` calls on the host's command, no clock read
 * in the process): the host times the command's round trip and reads the
 * process's main-thread CPU around it.
 */
async function longLoop(run: RunRecord, variantId: string, caseId: string, target: string, calls: number, loopMs: number, wrap?: Wrap): Promise<LoopFigure | string> {
  const variant = run.variants.find((v) => v.id === variantId);
  if (!variant) return 'no such variant';
  const plugin = pluginForSpec(variant.spec);
  if (!plugin) return `no plug-in for ${variant.spec}`;
  const location = locateSuite(target);
  const bundlePath = (await bundleSuite(location.entry, location.name, plugin.name, plugin.bundle)).path;
  const session = plugin.startSession({
    target: await plugin.resolve(variant.spec),
    flags: plugin.translateFlags(variant.flags),
    bundlePath,
    job: pacedJob(caseId, { warmupMs: 0, timeMs: 0, minSamples: 1, maxSamples: 1, sampleMs: 0, fixedIterations: 1 }),
    timeoutMs: 60_000 + 20 * loopMs,
    ...(wrap ? { wrap } : {}),
  });
  const ready = await session.ready;
  const before = ready ? session.cpuTimes() : undefined;
  const reading = ready ? await session.sample(calls) : undefined;
  const cpu = cpuNsBetween(before, reading ? session.cpuTimes() : undefined);
  const outcome = await session.finish();
  if (reading) return { ns: reading.waitedNs / calls, ...(cpu ? { cpuNs: cpu.mainThreadNs / calls } : {}) };
  const error = outcome.messages.find((m) => m.type === 'error' || m.type === 'unsupported');
  return error && 'message' in error ? error.message : error && 'reason' in error ? error.reason : `no result (${outcome.stderr.trim().split('\n').at(-1) ?? ''})`;
}

/**
 * The main thread's CPU per call over a set (its timed batches and their
 * untimed pre-batches, which call the case as often per call), the median
 * over rounds. Beside the wall-time figure it tells a sample that waited or
 * was preempted (CPU below the figure) from a main thread that works more
 * per call than the long loop's (CPU at the figure). A runtime whose clock
 * is coarse spins on it between edges, and its CPU counts the spin.
 */
function mainCpuPerCall(rounds: RunRecord['results'][number]['rounds']): number | undefined {
  const perCall = rounds.flatMap((r) => {
    const cpuUs = lockstepOf(r)?.mainThreadCpuUs;
    const calls = r.samples.length * (r.iterationsPerSample + lockstepPreBatch(r.iterationsPerSample, median(r.samples) * r.iterationsPerSample, r.span));
    return cpuUs !== undefined && calls > 0 ? [(cpuUs * 1e3) / calls] : [];
  });
  return perCall.length ? median(perCall) : undefined;
}

/** The CPU of a cell's processes' other threads as a share of their main thread's, the median over rounds (undefined without the readings). */
function helperShare(rounds: RunRecord['results'][number]['rounds']): number | undefined {
  const shares = rounds.map(lockstepOf).flatMap((l) => (l?.processCpuUs !== undefined && l.mainThreadCpuUs ? [l.processCpuUs / l.mainThreadCpuUs - 1] : []));
  return shares.length ? median(shares) : undefined;
}

/**
 * How far apart the cell's processes read: the 10th and 90th percentiles of
 * their figures over the median ("0.62–1.71"). Far apart, a table's median
 * moves with which processes it drew, and two tables of the cell differ.
 */
function processSpread(roundFigures: readonly number[] | undefined): string {
  if (!roundFigures || roundFigures.length < 3) return '—';
  const sorted = [...roundFigures].sort((a, b) => a - b);
  const mid = median(sorted);
  return `${(quantile(sorted, 0.1) / mid).toFixed(2)}–${(quantile(sorted, 0.9) / mid).toFixed(2)}`;
}

/** A spread as its two ends over a figure ("0.97–1.04"). */
const around = (low: number, high: number, figure: number): string => `${(low / figure).toFixed(2)}–${(high / figure).toFixed(2)}`;

/**
 * Each side's spread, so a reader sees whether a ratio's distance from 1 is
 * outside the noise (the first table's own 95% interval over processes is
 * printed beside its figure): the long loops' lowest and highest (fresh
 * processes) over their median, and the ratio's range from the extremes:
 * the table's interval, scaled to the tables' figure, against the
 * loops' highest and lowest.
 */
function spreads(ci: readonly [number, number] | undefined, firstNs: number, tableNs: number, loops: readonly number[]): { loop: string; ratio: string } {
  const [lowLoop, highLoop] = [Math.min(...loops), Math.max(...loops)];
  const loop = loops.length > 1 ? around(lowLoop, highLoop, median(loops)) : '—';
  if (!ci) return { loop, ratio: '—' };
  const [low, high] = [(ci[0] / firstNs) * tableNs, (ci[1] / firstNs) * tableNs];
  return { loop, ratio: `${(low / highLoop).toFixed(2)}–${(high / lowLoop).toFixed(2)}` };
}

const ns = (x: number): string => (x >= 1e6 ? `${(x / 1e6).toPrecision(3)} ms` : x >= 1e3 ? `${(x / 1e3).toPrecision(3)} µs` : `${x.toPrecision(3)} ns`);

/** A program the loop's runtime runs under: taskset, for a loop held to one core. */
interface Wrap {
  command: string;
  args: string[];
}

/**
 * One core for the whole process where taskset is on PATH (Linux): its
 * engine's helper threads then take turns with the main thread instead of
 * running beside it. An allocating case whose helper thread frees what it
 * allocated (V8's ArrayBuffer sweeper) contends with it for the allocator
 * while both run at once: such a case's cost per call depends on whether a
 * core is free for the helper, and a loop on one core gives the other end.
 */
const taskset = whichOnPath('taskset');
const ONE_CORE: Wrap | undefined = taskset ? { command: taskset, args: ['-c', '0'] } : undefined;

/** One more fresh loop process of a cell, or why it failed (the cell's loops then say so). */
async function loopInto(cell: { calls: number; loops: LoopFigure[] | string }, run: RunRecord, variantId: string, caseId: string, target: string, loopMs: number): Promise<void> {
  if (typeof cell.loops === 'string') return;
  const got = await longLoop(run, variantId, caseId, target, cell.calls, loopMs);
  if (typeof got === 'string') cell.loops = got;
  else cell.loops.push(got);
}

/** A cell's long loops: the figures of each fresh process, or why they failed. */
async function loopsOf(run: RunRecord, variantId: string, caseId: string, target: string, calls: number, loopMs: number, processes: number, wrap?: Wrap): Promise<LoopFigure[] | string> {
  const loops: LoopFigure[] = [];
  for (let p = 0; p < processes; p++) {
    const got = await longLoop(run, variantId, caseId, target, calls, loopMs, wrap);
    if (typeof got === 'string') return got;
    loops.push(got);
  }
  return loops;
}

/**
 * The table and the long loops in turn (table, loops, table, loops, …: as
 * many tables as loop processes, at least two), so that both sides of a cell
 * see the machine alike: a shared machine's load moves over minutes, and a
 * runtime's fresh loops move with it. Tables more than 20% apart mean the
 * load moved more than the band, and the cell is not judged.
 */
async function check(c: CheckedCase, benchArgs: readonly string[], loopMs: number, processes: number, pinned: number, alone: boolean): Promise<void> {
  const first = benchRun([c.target, '--filter', c.filter, ...benchArgs]);
  const bc = benchView(first.run).cases[0];
  if (!bc || benchView(first.run).cases.length !== 1) {
    console.log(`${c.label}: the filter picked ${benchView(first.run).cases.length} cases (${first.path})`);
    return;
  }
  const rows = bc.rows.filter((row) => row.stats);
  const loops = new Map<string, { calls: number; loops: LoopFigure[] | string; oneCore: LoopFigure[] | string }>();
  const tables = new Map(rows.map((row) => [row.variantId, [row.stats!.median]]));
  const paths = [first.path];
  const tableCount = Math.max(2, processes);
  for (const row of rows) {
    const oneCore = ONE_CORE && pinned > 0 ? await loopsOf(first.run, row.variantId, bc.caseId, c.target, callsFor(row.stats!.median, loopMs), loopMs, pinned, ONE_CORE) : 'no taskset on PATH, or --pinned 0';
    loops.set(row.variantId, { calls: callsFor(row.stats!.median, loopMs), loops: [], oneCore });
  }
  for (let p = 0; p < Math.max(processes, tableCount - 1); p++) {
    if (p < processes) for (const row of rows) await loopInto(loops.get(row.variantId)!, first.run, row.variantId, bc.caseId, c.target, loopMs);
    if (p + 1 >= tableCount) continue;
    const table = benchRun([c.target, '--filter', c.filter, ...benchArgs]);
    paths.push(table.path);
    for (const r of benchView(table.run).cases[0]?.rows ?? []) if (r.stats) tables.get(r.variantId)?.push(r.stats.median);
  }
  const aloneNs = alone && bc.rows.length > 1 ? aloneFigures(first.run, c, benchArgs) : new Map<string, number | undefined>();
  console.log(`${c.label} — ${bc.caseId} (${paths.length} tables, the first ${(first.wallMs / 1000).toFixed(0)} s: ${paths.join(', ')}; load ${loadText()})`);
  console.log(`  ${'runtime'.padEnd(10)} ${'table/op'.padStart(10)} ${'table CI'.padStart(9)} ${'alone/op'.padStart(10)} ${'table÷alone'.padStart(11)} ${'tables'.padStart(8)} ${'processes'.padStart(10)} ${'gc share'.padStart(9)} ${'mark'.padStart(4)} ${'helpers'.padStart(8)} ${'main CPU/op'.padStart(12)} ${'long loop/op'.padStart(13)} ${'loop CPU/op'.padStart(12)} ${'loops'.padStart(9)} ${'1-core loop'.padStart(12)} ${'calls'.padStart(10)} ${'table÷loop'.padStart(10)} ${'range'.padStart(9)} ${'table×(1+helpers)÷loop'.padStart(23)}`);
  for (const row of bc.rows) {
    const cell = loops.get(row.variantId);
    if (!row.stats || !cell) {
      console.log(`  ${row.variantId.padEnd(10)} ${row.note ?? 'no figure'}`);
      continue;
    }
    const taken = tablesFigure(tables.get(row.variantId) ?? [row.stats.median]);
    const tableNs = taken.ns;
    const drift = taken.apart.toFixed(2);
    const shareOf = collectorShare(row.result.rounds);
    const share = shareOf === undefined ? '—' : `${(100 * shareOf).toFixed(0)}%`;
    const mark = row.byCollection ? 'g' : '';
    const helpers = helperShare(row.result.rounds);
    const helpersText = helpers === undefined ? '—' : `${(100 * helpers).toFixed(0)}%`;
    const cpu = mainCpuPerCall(row.result.rounds);
    const lone = aloneNs.get(row.variantId);
    const lead = `  ${row.variantId.padEnd(10)} ${ns(tableNs).padStart(10)} ${(row.stats.ci ? around(row.stats.ci[0], row.stats.ci[1], row.stats.median) : '—').padStart(9)} ${(lone === undefined ? '—' : ns(lone)).padStart(10)} ${(lone === undefined ? '—' : (tableNs / lone).toFixed(2)).padStart(11)} ${drift.padStart(8)} ${processSpread(row.stats.roundMedians).padStart(10)} ${share.padStart(9)} ${mark.padStart(4)} ${helpersText.padStart(8)} ${(cpu === undefined ? '—' : ns(cpu)).padStart(12)}`;
    if (typeof cell.loops === 'string' || !cell.loops.length) {
      console.log(`${lead}  long loop failed: ${typeof cell.loops === 'string' ? cell.loops : 'no result'}`);
      continue;
    }
    const loopNs = median(cell.loops.map((l) => l.ns));
    const loopCpu = cell.loops.every((l) => l.cpuNs !== undefined) ? ns(median(cell.loops.map((l) => l.cpuNs!))) : '—';
    const ratio = tableNs / loopNs;
    const oneCoreNs = typeof cell.oneCore === 'string' || !cell.oneCore.length ? undefined : median(cell.oneCore.map((l) => l.ns));
    // Tables more than 20% apart: the load moved under the loops, and no ratio of them says much.
    const within = taken.moved ? 'load moved: not judged' : judged({ tableNs, loops: cell.loops.map((l) => l.ns), ...(oneCoreNs === undefined ? {} : { oneCoreNs }) });
    const bound = helpers === undefined ? '—' : ((tableNs * (1 + helpers)) / loopNs).toFixed(2);
    const spread = spreads(row.stats.ci, row.stats.median, tableNs, cell.loops.map((l) => l.ns));
    console.log(`${lead} ${ns(loopNs).padStart(13)} ${loopCpu.padStart(12)} ${spread.loop.padStart(9)} ${(oneCoreNs === undefined ? '—' : ns(oneCoreNs)).padStart(12)} ${cell.calls.toExponential(1).padStart(10)} ${ratio.toFixed(2).padStart(10)} ${spread.ratio.padStart(9)} ${bound.padStart(23)}  ${within}`);
  }
}

/**
 * Each runtime of the table in a table of its own (a variant with flags is
 * left out: `--runtime` names a spec): its cell's figure without the set's
 * company, by variant.
 */
function aloneFigures(run: RunRecord, c: CheckedCase, benchArgs: readonly string[]): Map<string, number | undefined> {
  const figures = new Map<string, number | undefined>();
  for (const variant of run.variants) {
    if (variant.flags.length || variant.unavailable) continue;
    const lone = benchRun([c.target, '--filter', c.filter, ...aloneArgs(benchArgs, variant.spec)]);
    figures.set(variant.id, benchView(lone.run).cases[0]?.rows[0]?.stats?.median);
  }
  return figures;
}

const args = calibrationArgs(['check', ...process.argv.slice(2)]);
const loopMs = args.flag('--loop-ms', 2000);
const processes = args.flag('--processes', 3);
const pinned = args.flag('--pinned', 1);
const alone = args.flag('--alone', 1) > 0;
const caseAt = args.rest.indexOf('--case');
const cases = caseAt >= 0 ? [{ target: args.rest[caseAt + 1]!, filter: args.rest[caseAt + 2]!, label: `${args.rest[caseAt + 1]}: ${args.rest[caseAt + 2]}` }] : CASES;
console.log(`long loop against the table: ${processes} fresh process(es) of about ${loopMs} ms per cell, and ${ONE_CORE ? pinned : 0} on one core; ${machineSpeedText()}`);
for (const c of cases) await check(c, args.benchArgs, loopMs, processes, pinned, alone);
