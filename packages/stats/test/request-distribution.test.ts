/** CPU per request over processes: quantiles of the warm requests, the first request apart, the share over a limit, intervals over processes. */
import { describe, expect, it } from 'vitest';
import { createRandom, MIN_PROCESSES, REQUEST_QUANTILES, requestDistribution } from '../src/index.ts';
import { quantileSorted } from '../src/quantile.ts';

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

describe('requestDistribution against pooling and sorting every resample', () => {
  /** What a resample's figures are by definition: its processes' warm requests pooled and sorted, drawn with the same random numbers. */
  function byDefinition(processes: number[][], limit: number, seed: number): { quantiles: number[][]; over: number[] } {
    const random = createRandom(seed);
    const quantiles: number[][] = REQUEST_QUANTILES.map(() => []);
    const over: number[] = [];
    for (let b = 0; b < 2000; b++) {
      const drawn = processes.map(() => processes[Math.min(processes.length - 1, Math.floor(random() * processes.length))]!.slice(1));
      const pool = Float64Array.from(drawn.flat()).sort();
      REQUEST_QUANTILES.forEach((x, i) => quantiles[i]!.push(quantileSorted(pool, x.q)));
      over.push(pool.filter((ms) => ms > limit).length / pool.length);
    }
    return { quantiles, over };
  }
  const interval = (values: number[]): [number, number] => {
    const sorted = Float64Array.from(values).sort();
    return [quantileSorted(sorted, 0.025), quantileSorted(sorted, 0.975)];
  };

  it('gives the same intervals, with processes of unlike sizes, ties across processes and quantiles that read one rank', () => {
    const random = createRandom(3);
    // Four processes of 2 to 40 requests on a coarse grid (ties), and a pool small enough that p50 and p90 read neighbouring ranks.
    for (const sizes of [[3, 2, 4], [41, 7, 2, 19]]) {
      const processes = sizes.map((n) => Array.from({ length: n }, () => Math.round(random() * 8) / 2));
      const d = requestDistribution(processes, { limit: 2, seed: 11 });
      const expected = byDefinition(processes, 2, 11);
      REQUEST_QUANTILES.forEach((x, i) => expect(d.quantiles[x.name].ci).toEqual(interval(expected.quantiles[i]!)));
      expect(d.overLimit!.ci).toEqual(interval(expected.over));
    }
  });
});
