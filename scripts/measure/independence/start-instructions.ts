/**
 * Instructions a case's own process executes in its whole life, per runtime,
 * counted by callgrind (all threads; counts do not depend on the machine's
 * load, so two commits can be set side by side beside other work). Each start
 * is a case's process as the default schedule starts it (a `serve` job, the
 * flags of a lockstep process, the suite's bundle, the case opened as a
 * fixed-iteration job: set-up, first call, digest and one call, no warmup),
 * then closed. Printed twice: `cold`, the bundle compiled from source, and
 * `cached`, loading the code an earlier start on the same bundle kept
 * (runtime-kit code-cache.ts), as a lockstep table's case process does.
 *
 *   npx tsx scripts/measure/independence/start-instructions.ts [--runs 2] [--runtime node,deno,bun,workerd] [--suite json-reviver] [--case <id>] [--inline-map]
 *
 * `--inline-map`: the bundle as it was before its source map moved beside it
 * (host source-map-file.ts), the map inline at its end, in a scratch folder:
 * what an inline map costs a start, on one commit.
 *
 * Before and after a change: the same command on both commits. Under valgrind
 * a start takes 10–60 s; the counts vary by about a percent between starts
 * (the engines' threads).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Job } from '@rtbench/core/protocol';
import { mapBeside } from '@rtbench/host/programs';
import { findValgrind, parseCallgrindTotals } from '@rtbench/host/tools';
import { DEFAULT_RUNTIMES, pluginForSpec } from '@rtbench/runtime-registry';
import type { RuntimePlugin, RuntimeTarget, TranslatedFlags } from '@rtbench/runtime-kit';
import { bundleSuite, loadSuite, locateSuite } from '@rtbench/suite-loader';
import { median } from '@rtbench/stats';

const { values } = parseArgs({ options: { 'inline-map': { type: 'boolean', default: false }, runs: { type: 'string', default: '2' }, runtime: { type: 'string' }, suite: { type: 'string', default: 'json-reviver' }, case: { type: 'string' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  process.stderr.write('usage: npx tsx scripts/measure/independence/start-instructions.ts [--runs n] [--runtime node,deno,bun,workerd] [--suite <name>] [--case <id>] [--inline-map]\n');
  process.exit(2);
}
const TIMEOUT_MS = 600_000;
/** The case's first call and digest, then one call on command (as start-cpu.ts starts it). */
const FIXED: Job = { protocol: 1, kind: 'serve', options: { warmupMs: 0, timeMs: 0, minSamples: 1, maxSamples: 1, sampleMs: 0, fixedIterations: 1 } };
const valgrind = findValgrind();

interface Started {
  plugin: RuntimePlugin;
  target: RuntimeTarget;
  flags: TranslatedFlags;
}

/** callgrind on the whole process, every thread's count in one total. */
function callgrindWrap(outFile: string, logFile: string): { command: string; args: string[] } {
  return { command: valgrind, args: ['--tool=callgrind', '--smc-check=all-non-file', `--callgrind-out-file=${outFile}`, `--log-file=${logFile}`, '--dump-line=no'] };
}

/** One case process's instructions, started, its case answered once, closed. */
async function countOnce(runtime: Started, bundlePath: string, caseId: string, codeCache: boolean, scratch: string): Promise<number> {
  const outFile = join(scratch, `callgrind.${Date.now()}.out`);
  const wrap = callgrindWrap(outFile, join(scratch, 'valgrind.log'));
  const warm = runtime.plugin.startWarm!({ target: runtime.target, flags: runtime.flags, bundlePath, job: FIXED, timeoutMs: TIMEOUT_MS, codeCache, wrap });
  await warm.loaded;
  if (!warm.usable) throw new Error(`${runtime.target.spec}: the process ended before it loaded ${bundlePath}: ${readFileSync(join(scratch, 'valgrind.log'), 'utf8').slice(-400)}`);
  const live = warm.open(caseId, TIMEOUT_MS);
  if (await live.ready) await live.sample(1);
  await live.finish();
  await warm.close();
  const count = parseCallgrindTotals(readFileSync(outFile, 'utf8'));
  rmSync(outFile, { force: true });
  if (!count) throw new Error(`${runtime.target.spec}: callgrind wrote no totals`);
  return count.instructions;
}

/** A copy of the bundle in `scratch` with its map (beside it) inline at its end, as the bundler writes an inline map. */
function withInlineMap(bundlePath: string, scratch: string): string {
  const copy = join(scratch, basename(bundlePath));
  const map = readFileSync(mapBeside(bundlePath)).toString('base64');
  // The bundle ends where the bundler's code ended, before the newline that led its map's comment.
  writeFileSync(copy, `${readFileSync(bundlePath, 'utf8')}\n//# sourceMappingURL=data:application/json;base64,${map}\n`);
  return copy;
}

const millions = (xs: number[]): string => {
  const sorted = [...xs].sort((a, b) => a - b);
  return `${(median(sorted) / 1e6).toFixed(1)} M (${(sorted[0]! / 1e6).toFixed(1)}–${(sorted.at(-1)! / 1e6).toFixed(1)})`;
};

async function measureRuntime(spec: string, scratch: string): Promise<void> {
  const plugin = pluginForSpec(spec);
  if (!plugin?.startWarm) throw new Error(`${spec}: no plug-in that starts a warm process`);
  const runtime: Started = { plugin, target: await plugin.resolve(spec), flags: plugin.translateFlags([...(plugin.engine.collectFlags ?? [])]) };
  const suite = locateSuite(values.suite);
  const built = (await bundleSuite(suite.entry, suite.name, plugin.name, plugin.bundle)).path;
  const bundlePath = values['inline-map'] ? withInlineMap(built, scratch) : built;
  // The suite's first case as the host lists it (json-reviver's cases are the same on every runtime).
  const caseId = values.case ?? (await loadSuite(suite)).cases[0]!.id;
  rmSync(`${bundlePath}.code-cache`, { recursive: true, force: true });
  // The cache filled by one start, as the table's first process of a bundle fills it.
  await countOnce(runtime, bundlePath, caseId, true, scratch);
  const counts = { cold: [] as number[], cached: [] as number[] };
  for (let i = 0; i < runs; i++) for (const mode of ['cold', 'cached'] as const) counts[mode].push(await countOnce(runtime, bundlePath, caseId, mode === 'cached', scratch));
  console.log(`${`${spec} ${runtime.target.version}`.padEnd(26)} cold ${millions(counts.cold).padEnd(26)} cached ${millions(counts.cached)}`);
}

const scratch = mkdtempSync(join(tmpdir(), 'rtbench-start-instructions-'));
try {
  const how = values['inline-map'] ? ', the source map inline' : '';
  console.log(`# instructions of a case's process, its whole life (callgrind, all threads), median of ${runs} (lowest–highest); suite ${values.suite}${how}`);
  for (const spec of values.runtime?.split(',') ?? [...DEFAULT_RUNTIMES]) {
    // A runtime that cannot be counted (workerd ends without callgrind's dump) is said, and the others still counted.
    await measureRuntime(spec, scratch).catch((error: Error) => console.log(`${spec.padEnd(26)} not counted: ${error.message}`));
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
