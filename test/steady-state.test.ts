/**
 * Warmup that watches, on a real runtime: a case whose first 20,000 calls do
 * sixteen times the work of the rest is warmed until after its step, classified
 * `warmed` at a point past the step, and its samples are the fast level; a
 * second process opens it with the tier-up horizon waived only if the first
 * crossed that horizon flat. Two processes of node, each one set of 200 ms
 * of samples: a few seconds. No assertion is on time. The samples' own
 * halves are not asserted one level: a neighbour's burst on a shared machine
 * can move one half of 200 ms (CI once read warmed-late for that), and the
 * class then rightly says the samples stepped. So the saved class is checked
 * to be the classifier's reading of the saved series, and the step past the
 * warmup's early level, which no neighbour fakes, to be warmed at steadyAt.
 * That step is asserted with a margin no spread can close: the samples'
 * scale is at most about their own median (half of them lie between 0 and
 * it), and the slow level reads six to ten times that median; a step of
 * four times the work read under three times, and once not a step
 * (`flat`) at load 1.5, where the samples' spread was wide.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { classifyProcess, STEADY_STATE_DEFAULTS } from '@rtbench/stats';
import { fixture, runCliAsync, tempFile } from './helpers/cli.ts';

describe('a case with a slow first phase', () => {
  it('is sampled after its step and classified warmed where it settled', async () => {
    const out = tempFile('slow-start.json');
    const r = await runCliAsync(['bench', fixture('slow-start'), '--runtime', 'node', '--rounds', '2', '--max-rounds', '2', '--time', '400ms', '--save', out, '--quiet']);
    expect(r.status, r.stderr).toBe(0);
    const run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
    const round = run.results[0]!.rounds[0]!;
    const warmup = round.warmup!;
    expect(warmup.steadyAt, 'the watch found a steady state').toBeDefined();
    expect(warmup.steadyAt!.calls).toBeGreaterThan(20_000);
    expect(round.steadyState, 'the saved class is read from the saved series').toEqual(classifyProcess(warmup, round.samples));
    const unsplit = { ...STEADY_STATE_DEFAULTS, minSamplesToSplit: Number.POSITIVE_INFINITY };
    expect(classifyProcess(warmup, round.samples, unsplit)).toEqual({ class: 'warmed', calls: warmup.steadyAt!.calls, ms: warmup.steadyAt!.ms });
    // The series shows both levels: its first watched points are the slow phase, its samples the fast one.
    const slow = warmup.ns.filter((_, i) => warmup.calls[i]! > warmup.calibrationCalls && warmup.calls[i]! < 20_000);
    const sorted = [...round.samples].sort((a, b) => a - b);
    const median = sorted[sorted.length >> 1]!;
    expect(Math.min(...slow)).toBeGreaterThan(2 * median);
    expect(warmup.ns.length).toBeLessThanOrEqual(128);
    // The second process opened the case with the rate the first ran at: where the first crossed the tier-up horizon
    // flat, the second, at that rate, waived it. (Where the first saw a step there, the second may still waive it when
    // its own batches reach the known rate: steady-rule.ts TierUpHorizons learns the rate from any process's samples.)
    const first = warmup.tierUp;
    const second = run.results[0]!.rounds[1]!.warmup!.tierUp;
    if (first?.kind === 'crossed' && !first.stepped) expect(second).toEqual({ kind: 'waived' });
  });
});
