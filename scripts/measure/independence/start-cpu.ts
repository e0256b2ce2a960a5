/**
 * Where a case's process start goes, per runtime, in CPU (user + system of
 * the process and its threads, which a loaded machine disturbs far less
 * than wall time). Each start is a case's own process as the default
 * schedule starts it (a `serve` job, the flags of a lockstep process, the
 * suite's bundle), then its case opened as a fixed-iteration job, so that
 * `ready` follows the case's set-up, first call and digest with no warmup.
 * Per runtime, the median of N starts (lowest–highest) of:
 *
 *   boot     the runtime on an empty script (workerd: —, it runs no script alone)
 *   runner   the runner's bootstrap with the tiny suite loaded (its hello)
 *   suite    the suite's bundle loaded (its hello): less `runner`, what the suite's own code costs to load
 *   case     from the case's command to its `ready`: set-up, first call, digest
 *   life     the whole process, from start to exit (what the two cores pay for it)
 *
 * Each of runner, suite, case and life twice: `cold`, every start compiling
 * the bundle from source, and `cached`, started as the lockstep table starts a
 * case's process, loading the code an earlier start on the same bundle kept
 * (runtime-kit code-cache.ts; a runtime that keeps none reads the same twice).
 * The cache folders are emptied first and filled by one start each before the
 * runs. Before and after a change: the same command on both commits.
 *
 * `boot` and `life` are the children's CPU the kernel gives the script
 * (/proc/self/stat cutime + cstime, 10 ms ticks) around a process's whole
 * life; `runner`, `suite` and `case` are the process tree's threads read
 * from /proc (schedstat, ns) while it blocks on its input: at its hello the
 * reading is taken as the case's command is sent, a few microseconds late.
 *
 *   npx tsx scripts/measure/independence/start-cpu.ts [--runs 9] [--runtime node,deno,bun,workerd] [--suite json-reviver] [--case <id>]
 *
 * Run it on a quiet machine (`flock /tmp/rtbench-measure.lock …` on a shared one).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Job } from '@rtbench/core/protocol';
import { totalCpuNs, type WarmProcess } from '@rtbench/process';
import { DEFAULT_RUNTIMES, pluginForSpec } from '@rtbench/runtime-registry';
import type { RuntimePlugin, RuntimeTarget, TranslatedFlags } from '@rtbench/runtime-kit';
import { bundleSuite, locateSuite } from '@rtbench/suite-loader';
import { median } from '@rtbench/stats';
import { parseProcStat, TICKS_PER_S } from '../../../test/helpers/cpu-budget.ts';
import { loadText, machineSpeedText, repoRoot } from '../../lib.ts';

const USAGE = 'usage: npx tsx scripts/measure/independence/start-cpu.ts [--runs n] [--runtime node,deno,bun,workerd] [--suite <name>] [--case <id>]';
const { values } = parseArgs({ options: { runs: { type: 'string', default: '9' }, runtime: { type: 'string' }, suite: { type: 'string', default: 'json-reviver' }, case: { type: 'string' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const specs = values.runtime?.split(',') ?? [...DEFAULT_RUNTIMES];
const TINY = join(repoRoot, 'test', 'fixtures', 'tiny', 'index.ts');
const TIMEOUT_MS = 120_000;
/** The case's first call and digest, then one call on command: no calibration, no warmup (core measure.ts measureFixed). */
const FIXED: Job = { protocol: 1, kind: 'serve', options: { warmupMs: 0, timeMs: 0, minSamples: 1, maxSamples: 1, sampleMs: 0, fixedIterations: 1 } };

/** CPU seconds of this process's waited-for children so far (user + system). */
function childrenCpuS(): number {
  const { cutime, cstime } = parseProcStat(readFileSync('/proc/self/stat', 'utf8'));
  return (cutime + cstime) / TICKS_PER_S;
}

/** One runtime as a lockstep process runs it: its binary, and the flags that let it collect between cases. */
interface Started {
  plugin: RuntimePlugin;
  target: RuntimeTarget;
  flags: TranslatedFlags;
}

/** What one start of a case's process cost, in CPU seconds. */
interface StartCost {
  loadedS: number;
  caseS?: number;
  lifeS: number;
}

/** The runtime on an empty script: what it pays before any of rtbench's code; undefined for a runtime that runs no script alone. */
function bootS(runtime: Started, empty: string): number | undefined {
  const flags = runtime.flags.args;
  const args = { node: [...flags, empty], deno: ['run', ...flags, empty], bun: [...flags, empty] }[runtime.plugin.name];
  if (!args) return undefined;
  const before = childrenCpuS();
  const r = spawnSync(runtime.target.binary, args, { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...runtime.flags.env } });
  if (r.status !== 0) throw new Error(`${runtime.target.spec} on an empty script exited ${r.status}: ${r.stderr.toString().trim().split('\n').at(-1)}`);
  return childrenCpuS() - before;
}

/** The tree's CPU now, in seconds (the case's session reads the same process). */
const treeS = (reading: ReturnType<ReturnType<WarmProcess['open']>['cpuTimes']>): number | undefined => (reading ? totalCpuNs(reading) / 1e9 : undefined);

/** One process started on the bundle, loaded, its case (if any) opened to ready and answered, then closed. */
async function startOnce(runtime: Started, bundlePath: string, caseId: string, codeCache: boolean): Promise<StartCost> {
  const lifeBefore = childrenCpuS();
  const warm = runtime.plugin.startWarm!({ target: runtime.target, flags: runtime.flags, bundlePath, job: FIXED, timeoutMs: TIMEOUT_MS, codeCache });
  await warm.loaded;
  if (!warm.usable) throw new Error(`${runtime.target.spec}: the process ended before it loaded ${bundlePath}`);
  const live = warm.open(caseId, TIMEOUT_MS);
  const loadedS = treeS(live.cpuTimes());
  const ready = await live.ready;
  const readyS = ready ? treeS(live.cpuTimes()) : undefined;
  if (ready) await live.sample(1);
  await live.finish();
  await warm.close();
  if (loadedS === undefined) throw new Error(`${runtime.target.spec}: no CPU reading of its process (Linux only)`);
  return { loadedS, ...(readyS !== undefined ? { caseS: readyS - loadedS } : {}), lifeS: childrenCpuS() - lifeBefore };
}

/** The first case a bundle lists, for a runtime. */
async function firstCase(runtime: Started, bundlePath: string): Promise<string> {
  const outcome = await runtime.plugin.runJob({ target: runtime.target, flags: runtime.flags, bundlePath, job: { protocol: 1, kind: 'list' }, timeoutMs: TIMEOUT_MS });
  const listed = outcome.messages.find((m) => m.type === 'cases');
  const id = listed?.type === 'cases' ? listed.cases[0]?.id : undefined;
  if (!id) throw new Error(`${runtime.target.spec}: ${bundlePath} listed no case`);
  return id;
}

/** "median (lowest–highest)" of seconds, or — where there is none. */
function spread(xs: readonly (number | undefined)[]): string {
  const known = xs.filter((x): x is number => x !== undefined).sort((a, b) => a - b);
  if (!known.length) return '—';
  return `${median(known).toFixed(3)} (${known[0]!.toFixed(3)}–${known.at(-1)!.toFixed(3)})`;
}

async function measureRuntime(spec: string, scratch: string): Promise<void> {
  const plugin = pluginForSpec(spec);
  if (!plugin?.startWarm) throw new Error(`${spec}: no plug-in that starts a warm process`);
  const collect = plugin.engine.collectFlags ?? [];
  const runtime: Started = { plugin, target: await plugin.resolve(spec), flags: plugin.translateFlags([...collect]) };
  const suite = locateSuite(values.suite);
  const suiteBundle = (await bundleSuite(suite.entry, suite.name, plugin.name, plugin.bundle)).path;
  const tinyBundle = (await bundleSuite(TINY, 'tiny', plugin.name, plugin.bundle)).path;
  const caseId = values.case ?? (await firstCase(runtime, suiteBundle));
  const tinyCase = await firstCase(runtime, tinyBundle);
  const empty = join(scratch, 'empty.mjs');
  writeFileSync(empty, '');
  for (const bundle of [tinyBundle, suiteBundle]) rmSync(`${bundle}.code-cache`, { recursive: true, force: true });
  await startOnce(runtime, tinyBundle, tinyCase, true);
  await startOnce(runtime, suiteBundle, caseId, true);
  const boot: (number | undefined)[] = [];
  const starts = { cold: { tiny: [] as StartCost[], real: [] as StartCost[] }, cached: { tiny: [] as StartCost[], real: [] as StartCost[] } };
  for (let i = 0; i < runs; i++) {
    boot.push(bootS(runtime, empty));
    for (const [mode, costs] of Object.entries(starts)) {
      costs.tiny.push(await startOnce(runtime, tinyBundle, tinyCase, mode === 'cached'));
      costs.real.push(await startOnce(runtime, suiteBundle, caseId, mode === 'cached'));
    }
  }
  const kb = (path: string): string => `${(statSync(path).size / 1024).toFixed(0)} KB`;
  console.log(`\n## ${spec} (${runtime.target.version}), case "${caseId}"; bundles: runner + tiny ${kb(tinyBundle)}, runner + ${suite.name} ${kb(suiteBundle)}`);
  console.log(`boot                 ${spread(boot)}`);
  for (const [mode, { tiny, real }] of Object.entries(starts)) {
    const name = (row: string): string => `${row} ${mode}`.padEnd(21);
    console.log(`${name('runner')}${spread(tiny.map((c) => c.loadedS))}`);
    console.log(`${name('suite')}${spread(real.map((c) => c.loadedS))}   less runner: ${(median(real.map((c) => c.loadedS)) - median(tiny.map((c) => c.loadedS))).toFixed(3)}`);
    console.log(`${name('case')}${spread(real.map((c) => c.caseS))}`);
    console.log(`${name('life')}${spread(real.map((c) => c.lifeS))}   (tiny suite: ${spread(tiny.map((c) => c.lifeS))})`);
  }
}

const scratch = mkdtempSync(join(tmpdir(), 'rtbench-start-cpu-'));
try {
  console.log(`# start CPU of a case's process (user+sys, s), median of ${runs} (lowest–highest); suite ${values.suite}; ${machineSpeedText()}`);
  for (const spec of specs) await measureRuntime(spec, scratch);
  console.log(`\nload at the end ${loadText()}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
