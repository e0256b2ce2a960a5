/** CPU per request at its edges (request-distribution.ts): a request at the limit, no limit, exactly enough processes, an interval's level. */
import { describe, expect, it } from 'vitest';
import { MIN_PROCESSES, requestDistribution } from '../src/index.ts';

/** A process: a first request of 10, then warm requests of 1, 2, 3 and 4. */
const steps = (): number[] => [10, 1, 2, 3, 4];

describe('requestDistribution at its edges', () => {
  it('counts a request over the limit only when it is above it: one at the limit is within', () => {
    const d = requestDistribution([steps(), steps()], { limit: 3 });
    expect(d.overLimit).toEqual({ value: 0.25, count: 2 });
  });

  it('says nothing of a limit when none is given', () => {
    expect(requestDistribution([steps(), steps(), steps()])).not.toHaveProperty('overLimit');
  });

  it('gives an interval from exactly MIN_PROCESSES processes; below that, each figure keeps its value alone', () => {
    const enough = requestDistribution(Array.from({ length: MIN_PROCESSES }, steps));
    expect(enough.quantiles.p50.ci).toBeDefined();
    const few = requestDistribution(Array.from({ length: MIN_PROCESSES - 1 }, steps), { limit: 3 });
    expect(few.quantiles.max).toEqual({ value: 4 });
    expect(few.first).toEqual({ value: 10 });
    expect(few.overLimit).toEqual({ value: 0.25, count: 2 });
  });

  it('reads the interval at its level: a 50% interval is ordered and lies within the 95% one', () => {
    const processes = [1, 1.5, 2, 2.5, 3, 4].map((base) => [10 * base, base, base * 1.1, base * 0.9]);
    const [lo50, hi50] = requestDistribution(processes, { confidence: 0.5 }).quantiles.p50.ci!;
    const [lo95, hi95] = requestDistribution(processes, { confidence: 0.95 }).quantiles.p50.ci!;
    expect(lo50).toBeLessThan(hi50);
    expect(lo95).toBeLessThanOrEqual(lo50);
    expect(hi95).toBeGreaterThanOrEqual(hi50);
    expect(hi95 - lo95).toBeGreaterThan(hi50 - lo50);
  });
});
