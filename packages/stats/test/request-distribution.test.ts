/** CPU per request over processes: quantiles of the warm requests, the first request apart, the share over a limit, intervals over processes. */
import { describe, expect, it } from 'vitest';
import { MIN_PROCESSES, requestDistribution } from '../src/index.ts';

/** A process's requests: a cold first one, then `n` warm ones at `base` with every 50th at `base + 6`. */
function process(first: number, base: number, n = 250): number[] {
  return [first, ...Array.from({ length: n }, (_, i) => ((i + 2) % 50 === 0 ? base + 6 : base))];
}

describe('requestDistribution', () => {
  it('a planted tail: p50 is the handler, p99 the tail, the share over the limit 2% in every resample; the first request stands apart', () => {
    const processes = [process(20, 1.0), process(22, 1.02), process(18, 0.98), process(25, 1.01), process(21, 0.99)];
    const d = requestDistribution(processes, { limit: 5 });
    expect(d.processes).toBe(5);
    expect(d.requests).toBe(1250);
    expect(d.quantiles.p50.value).toBeCloseTo(1.0, 5);
    expect(d.quantiles.p99.value).toBeGreaterThan(6.9);
    expect(d.quantiles.max.value).toBeCloseTo(7.02, 5);
    // Five planted tails in each process's 250 warm requests; the cold first request (over the limit) is not among them.
    expect(d.overLimit).toMatchObject({ value: 0.02, count: 25, ci: [0.02, 0.02] });
    expect(d.first.value).toBe(21);
    expect(d.first.ci![0]).toBeLessThanOrEqual(21);
    expect(d.first.ci![1]).toBeGreaterThanOrEqual(21);
  });

  it('the interval is over processes: one process unlike the others widens it, however many requests each serves', () => {
    const alike = [process(5, 1), process(5, 1), process(5, 1), process(5, 1)];
    const unlike = [...alike.slice(0, 3), process(5, 2)];
    const [lo, hi] = requestDistribution(unlike).quantiles.p50.ci!;
    expect(lo).toBe(1);
    expect(hi).toBe(2);
    expect(requestDistribution(alike).quantiles.p50.ci).toEqual([1, 1]);
  });

  it('gives no interval with fewer processes than it needs, and refuses processes of one request', () => {
    const few = Array.from({ length: MIN_PROCESSES - 1 }, () => process(3, 1));
    expect(requestDistribution(few).quantiles.p50.ci).toBeUndefined();
    expect(() => requestDistribution([[3], [4]])).toThrow(/more than one request/);
  });

  it('is the same for the same seed', () => {
    const processes = [process(20, 1.0), process(22, 1.3), process(18, 0.9)];
    expect(requestDistribution(processes, { limit: 1.1, seed: 7 })).toEqual(requestDistribution(processes, { limit: 1.1, seed: 7 }));
  });
});
