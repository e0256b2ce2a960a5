/**
 * CPU per request in phases (views/cpu-per-request.ts, verdicts'
 * request-quantiles.ts and ratios.ts): a run saved with each process's
 * steady point pools its steady requests, shows the warm-up apart and marks
 * a process that never became steady; the verdicts read the same requests;
 * a run saved before phases reads as it always did.
 */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { DEFAULT_RATIO_OPTIONS, quantilePair, roundMedians } from '@rtbench/verdicts';
import { syntheticRequestRun } from '../../../test/request-synthetic.ts';
import { cpuPerRequestSection } from '../src/views/cpu-per-request.ts';
import { cpuPerRequestTerminal } from '../src/reporters/cpu-per-request.ts';

const plain = (s: string): string => s;
const WARMUP = 50;

/** Six processes of two arms whose first WARMUP requests cost 3× their steady ones (more than half of them); with phases, steady from there (the last round of each arm never). */
function warmingRun(phased: boolean): RunRecord {
  const run = syntheticRequestRun({ arms: [{ id: 'node', factor: 1 }, { id: 'bun', factor: 0.5 }], rounds: 6, requests: 81, requestSigma: 0.02, seed: 5 });
  for (const result of run.results) {
    for (const round of result.rounds) {
      round.samples = round.samples.map((ms, i) => (i < WARMUP ? ms * 3 : ms));
      if (phased) round.requests = { ...round.requests!, phases: round.round === 5 ? {} : { steadyFrom: WARMUP } };
    }
  }
  return run;
}

describe('CPU per request in phases', () => {
  it('pools the steady requests, shows the warm-up apart and marks a process never steady', () => {
    const run = warmingRun(true);
    const section = cpuPerRequestSection(run)!;
    const node = section.rows.find((r) => r.variantId === 'node')!;
    const steadyNode = run.results.find((r) => r.variantId === 'node')!.rounds[0]!.samples.slice(WARMUP);
    expect(node.distribution!.quantiles.p50.value).toBeLessThan(Math.max(...steadyNode) * 1.2);
    expect(node.phases).toMatchObject({ warmupRequests: WARMUP, unsteady: 1, processes: 6 });
    expect(node.phases!.warmupMs).toBeGreaterThan(WARMUP * 2 * node.distribution!.quantiles.p50.value);
    // The steady requests of five processes and the later half of the sixth's.
    expect(node.distribution!.requests).toBe(5 * (81 - WARMUP) + 40);
    const text = cpuPerRequestTerminal(section, 160, plain, plain).join('\n');
    expect(text).toContain('warm-up');
    expect(text).toContain('~ 1 of 6 never steady');
    expect(text).toContain('in three phases');
    expect(text.replace(/\s+/g, ' ')).toContain('requests: steady requests in processes');
  });

  it('a run saved before phases pools every request after the first, with no warm-up column', () => {
    const section = cpuPerRequestSection(warmingRun(false))!;
    const node = section.rows.find((r) => r.variantId === 'node')!;
    expect(node.phases).toBeUndefined();
    expect(node.distribution!.requests).toBe(6 * 80);
    const text = cpuPerRequestTerminal(section, 160, plain, plain).join('\n');
    expect(text).not.toContain('warm-up');
    expect(text).not.toContain('three phases');
  });

  it('the verdicts read the steady requests of a phased run and every request of an older one', () => {
    const phased = warmingRun(true).results.find((r) => r.variantId === 'node')!;
    const old = warmingRun(false).results.find((r) => r.variantId === 'node')!;
    const p50 = (r: typeof phased): number => quantilePair(r, r, 0.5, DEFAULT_RATIO_OPTIONS).baseline!.median;
    const steadyP50 = p50(phased);
    // Most of the old rounds' requests are warm-up at 3×: their p50 is the warm-up's.
    expect(p50(old)).toBeGreaterThan(steadyP50 * 2);
    const steadyMedian = roundMedians(phased).get(0)!;
    expect(steadyMedian).toBeCloseTo(quantilePair({ ...phased, rounds: [phased.rounds[0]!] }, phased, 0.5, DEFAULT_RATIO_OPTIONS).baseline!.median, 9);
    expect(roundMedians(old).get(0)!).toBeGreaterThan(steadyMedian * 2);
  });
});
