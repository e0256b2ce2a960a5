/**
 * Every suite in bench/ runs end to end on one runtime with a minimal budget,
 * so a broken case (a throw, a hang, a digest that changes between calls'
 * processes) fails CI. Figures from these runs mean nothing; only outcomes,
 * so each process warms a case for 1 ms (its calibration, and on until its
 * batches fill half a sample) and takes three samples (--fixed-warmup, a
 * smoke run): the watched warmup, waiting for an engine's tier-up calls, was
 * most of these runs. Several suites share one CLI start (`rtbench bench a b
 * c`: one after another, a saved run each): a start is about 0.4 CPU-s of its
 * own. The starts run side by side: their start-ups and load runs wait.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { listSuites } from '@rtbench/suite-loader';
import { runCliAsync, tempFile, type CliResult } from './helpers/cli.ts';
import { program } from './helpers/system-programs.ts';
import { expectEveryCaseRan } from './helpers/every-case.ts';

const RUNTIME = 'node@26';
/** Suites with a test job of their own, named in their README: next-page builds a Next.js app on first use (minutes of CPU). */
const OWN_TEST_JOB = ['next-page'];
/**
 * Suites a runtime test file already runs in part on node, with this file's check of every case there: here only the
 * rest. http-hello: packages/cli/test/host-timed.test.ts runs hello world, json echo and the framework app (six loads
 * of about two seconds each, with wrk).
 */
const RUN_IN_PART_ELSEWHERE: Record<string, string> = { 'http-hello': 'relay' };
/**
 * Suites in a start of their own: cold-start's 19 node starts one after another are the file's longest run (the other
 * starts finish beside it); a --filter applies to every suite of a start.
 */
const ALONE = ['cold-start', ...Object.keys(RUN_IN_PART_ELSEWHERE)];
/**
 * The rest, shared by SHARED_STARTS starts as evenly as their runs' CPU allows (the costliest first, dealt in turn); a
 * suite not listed goes last. Two: each ends about when cold-start does (a third started more CPU, no sooner end).
 */
const SHARED_STARTS = 2;
const COSTLIEST_FIRST = ['buffer-concat', 'streams', 'request-tail', 'json-reviver', 'relay-served', 'trig', 'calibration', 'gc-pressure', 'request-relay', 'harness'];
const costRank = (name: string): number => (COSTLIEST_FIRST.includes(name) ? COSTLIEST_FIRST.indexOf(name) : COSTLIEST_FIRST.length);
const suites = listSuites()
  .map((s) => s.name)
  .filter((name) => !OWN_TEST_JOB.includes(name));
const shared = suites.filter((name) => !ALONE.includes(name)).sort((a, b) => costRank(a) - costRank(b));
const starts: string[][] = [...ALONE.filter((name) => suites.includes(name)).map((name) => [name]), ...[...Array(SHARED_STARTS).keys()].map((n) => shared.filter((_, i) => i % SHARED_STARTS === n))];

/** Each start's run, begun before the tests so that every start runs from the file's beginning, and its --save folder. */
const runs = new Map<string, { folder: string; result: Promise<CliResult> }>();

beforeAll(async () => {
  // http-hello's load comes from wrk (installed by the test set-up): without it the case warns that autocannon generated the load.
  const wrk = await program('wrk');
  for (const start of starts) {
    const folder = dirname(tempFile('runs'));
    // One suite's --save names its file; several suites' a folder, each run saved there as <suite>.json.
    const save = start.length === 1 ? join(folder, `${start[0]}.json`) : folder;
    const env: Record<string, string> = start.includes('http-hello') ? { RTBENCH_WRK: wrk } : {};
    const only = start.length === 1 ? RUN_IN_PART_ELSEWHERE[start[0]!] : undefined;
    const filter = only === undefined ? [] : ['--filter', only];
    const result = runCliAsync(['bench', ...start, ...filter, '--runtime', RUNTIME, '--time', '5ms', '--rounds', '1', '--warmup', '1ms', '--fixed-warmup', '--save', save, '--quiet'], env);
    for (const name of start) runs.set(name, { folder, result });
  }
});

describe.concurrent('every suite runs on one runtime', () => {
  it('finds the suites, and each is in one start', () => {
    expect(suites).toEqual(expect.arrayContaining(['buffer-concat', 'gc-pressure', 'json-reviver', 'request-relay', 'streams', 'trig']));
    expect(starts.flat().sort()).toEqual([...suites].sort());
  });

  it.each(suites)('%s: every case has a result or a declared unsupported, no digest mismatch', async (name) => {
    const { folder, result } = runs.get(name)!;
    const r = await result;
    const out = join(folder, `${name}.json`);
    const run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
    expect(run.suite).toBe(name);
    expect(run.status, `${r.stdout}\n${r.stderr}`).toBe('complete');
    // A fixed warmup, not watched: no floor recorded, no process's warmup series, no sample grown to span collections
    // (a smoke run, and its record says so).
    expect(run.options.warmupMinMs).toBeUndefined();
    expect(run.results.flatMap((x) => x.rounds).filter((round) => round.warmup !== undefined || round.span !== undefined)).toEqual([]);
    if (run.options.measurer === 'lockstep') expect(run.options.measuredBy?.rounds).toContain('fixed warmup (a smoke run');
    expectEveryCaseRan(run, RUNTIME);
    // The start's exit code: 0 once every suite of it ran whole.
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  });
});
