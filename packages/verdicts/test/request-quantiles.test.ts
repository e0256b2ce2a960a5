/**
 * Paired verdicts on quantiles of CPU per request (request-quantiles.ts):
 * a tail that grew is found at p99 and not at p50, the interval counts
 * process pairs (never requests), and A/A tables of synthetic processes
 * decide a cell no more often than the nominal level allows.
 */
import { describe, expect, it } from 'vitest';
import { applyFdr } from '@rtbench/stats';
import type { CaseResult } from '@rtbench/core/schema';
import { syntheticRequestRun } from '../../../test/request-synthetic.ts';
import { isRequestResult, quantilePair, quantilePairs } from '../src/request-quantiles.ts';

const OPTIONS = { threshold: 0.01, confidence: 0.95 };

function arms(candidate: { factor: number; tailFactor?: number }, o: { rounds?: number; seed?: number } = {}): [CaseResult, CaseResult] {
  const run = syntheticRequestRun({ arms: [{ id: 'a', factor: 1 }, { id: 'b', ...candidate }], rounds: o.rounds ?? 10, seed: o.seed ?? 1 });
  return [run.results[0]!, run.results[1]!];
}

describe('quantile verdicts of CPU per request', () => {
  it('a tail 50% heavier is slower at p99 and not decided at p50; the interval is over process pairs', () => {
    const [b, c] = arms({ factor: 1, tailFactor: 1.5 });
    const [p50, p99] = quantilePairs(b, c, OPTIONS);
    expect(p50!.quantile).toBe('p50');
    expect(p99!.pair.raw!.verdict).toBe('slower');
    expect(p99!.pair.raw!.ratio).toBeGreaterThan(1.2);
    expect(['faster', 'slower']).not.toContain(p50!.pair.raw!.verdict);
    // 10 rounds of 200 requests: 10 process pairs are the units.
    expect(p99!.pair.raw!.units).toBe(10);
    expect(p99!.pair.baseline).toMatchObject({ rounds: 10 });
  });

  it('every request 20% dearer is slower at both quantiles', () => {
    const [b, c] = arms({ factor: 1.2 });
    for (const { pair } of quantilePairs(b, c, OPTIONS)) expect(pair.raw!.verdict).toBe('slower');
  });

  it('the first request of a process is left out: a tenfold first request moves no quantile', () => {
    const [b, c] = arms({ factor: 1 });
    const colder = { ...c, rounds: c.rounds.map((r) => ({ ...r, samples: [r.samples[0]! * 100, ...r.samples.slice(1)] })) };
    expect(quantilePair(b, colder, 0.99, OPTIONS).raw!.ratio).toBe(quantilePair(b, c, 0.99, OPTIONS).raw!.ratio);
  });

  it('rounds without warm requests pair with nothing, and a case of other rounds is no request case', () => {
    const [b, c] = arms({ factor: 1 }, { rounds: 3 });
    const served = { ...c, rounds: c.rounds.map((r) => ({ ...r, samples: r.samples.slice(0, 1) })) };
    expect(quantilePair(b, served, 0.5, OPTIONS).note).toBe('no process pair in which both arms served requests');
    expect(isRequestResult({ ...b, rounds: b.rounds.map(({ requests: _r, ...r }) => r) })).toBe(false);
    expect(isRequestResult(b)).toBe(true);
  });

  it('A/A: of 400 tables (p50 and p99 of one case, FDR across both), at most 8% decide a cell', () => {
    let decided = 0;
    const tables = 400;
    for (let seed = 1; seed <= tables; seed++) {
      const [b, c] = arms({ factor: 1 }, { seed: seed * 7919, rounds: 10 });
      const cells = applyFdr(quantilePairs(b, c, OPTIONS).map((x) => x.pair.raw!), { alpha: 0.05 });
      if (cells.some((x) => x.verdict === 'faster' || x.verdict === 'slower' || x.verdict === 'small')) decided++;
    }
    // Nominal 5%; the bound leaves room for the Monte-Carlo error of 400 tables (±1.1%). Requests as units would decide far more.
    expect(decided / tables).toBeLessThanOrEqual(0.08);
  });
});
