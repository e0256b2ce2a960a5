/**
 * Every suite in bench/ runs end to end on one runtime with a minimal budget,
 * so a broken case (a throw, a hang, a digest that changes between calls'
 * processes) fails CI. Figures from these runs mean nothing; only outcomes,
 * so each process warms a case for 1 ms (its calibration, and on until its
 * batches fill half a sample) and takes three samples (--fixed-warmup, a
 * smoke run): the watched warmup, waiting for an engine's tier-up calls, was
 * most of these runs. The suites run side by side: their start-ups and load
 * runs wait.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { listSuites } from '@rtbench/suite-loader';
import { runCliAsync, tempFile } from './helpers/cli.ts';
import { program } from './helpers/system-programs.ts';
import { expectEveryCaseRan } from './helpers/every-case.ts';

const RUNTIME = 'node@26';
/**
 * The suites whose runs take longest (in a clean clone's run), started first: vitest runs five of a file's
 * concurrent tests at a time (maxConcurrency), and the file would otherwise end on trig's run alone.
 */
const LONGEST_FIRST = ['trig', 'http-hello', 'cold-start', 'request-tail', 'calibration', 'buffer-concat'];
const startOrder = (name: string): number => (LONGEST_FIRST.includes(name) ? LONGEST_FIRST.indexOf(name) : LONGEST_FIRST.length);
/** Suites with a test job of their own, named in their README: next-page builds a Next.js app on first use (minutes of CPU). */
const OWN_TEST_JOB = ['next-page'];
/** Suites a runtime test file runs whole on node (the newest, as here) and the other runtimes: every case ok, one digest. */
const RUN_WHOLE_ELSEWHERE = ['ssr']; // test/ssr.test.ts
/**
 * Suites a runtime test file already runs in part on node, with this file's check of every case there: here only the
 * rest. http-hello: packages/cli/test/host-timed.test.ts runs hello world, json echo and the framework app (six loads
 * of about two seconds each, with wrk).
 */
const RUN_IN_PART_ELSEWHERE: Record<string, string> = { 'http-hello': 'relay' };
const suites = listSuites()
  .map((s) => s.name)
  .filter((name) => !OWN_TEST_JOB.includes(name) && !RUN_WHOLE_ELSEWHERE.includes(name))
  .sort((a, b) => startOrder(a) - startOrder(b));

describe.concurrent('every suite runs on one runtime', () => {
  it('finds the suites', () => {
    expect(suites).toEqual(expect.arrayContaining(['buffer-concat', 'gc-pressure', 'json-reviver', 'request-relay', 'streams', 'trig']));
  });

  it.each(suites)('%s: every case has a result or a declared unsupported, no digest mismatch', async (name) => {
    const out = tempFile(`${name}.json`);
    // http-hello's load comes from wrk (installed by the test set-up): without it the case warns that autocannon generated the load.
    const env: Record<string, string> = name === 'http-hello' ? { RTBENCH_WRK: await program('wrk') } : {};
    const filter = RUN_IN_PART_ELSEWHERE[name] === undefined ? [] : ['--filter', RUN_IN_PART_ELSEWHERE[name]];
    const r = await runCliAsync(['bench', name, ...filter, '--runtime', RUNTIME, '--time', '5ms', '--rounds', '1', '--warmup', '1ms', '--fixed-warmup', '--save', out, '--quiet'], env);
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    const run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
    expect(run.status).toBe('complete');
    // A fixed warmup, not watched: no floor recorded, no process's warmup series, no sample grown to span collections
    // (a smoke run, and its record says so).
    expect(run.options.warmupMinMs).toBeUndefined();
    expect(run.results.flatMap((x) => x.rounds).filter((round) => round.warmup !== undefined || round.span !== undefined)).toEqual([]);
    if (run.options.measurer === 'lockstep') expect(run.options.measuredBy?.rounds).toContain('fixed warmup (a smoke run');
    expectEveryCaseRan(run, RUNTIME);
  });
});
