/** A handler's CPU per request net of the empty handler served by the same processes: a shift by the server's median, resampled by process. */
import { describe, expect, it } from 'vitest';
import { MIN_PROCESSES, netDistribution, requestDistribution } from '../src/index.ts';

/** A process's requests: a cold first one, then `n` at `base` with every 50th at `base + 6`. */
const handler = (base: number, n = 200): number[] => [base * 10, ...Array.from({ length: n }, (_, i) => ((i + 2) % 50 === 0 ? base + 6 : base))];
const empty = (server: number, n = 50): number[] => [server * 5, ...Array.from({ length: n }, (_, i) => server * (1 + 0.01 * (i % 3)))];

describe('netDistribution', () => {
  const bases = [1.0, 1.04, 0.97, 1.02, 0.99];
  const servers = [0.5, 0.52, 0.48, 0.51, 0.49];

  it("is the handler's quantiles less the empty handler's pooled median, the first requests left out", () => {
    const net = netDistribution(bases.map((b) => handler(b)), servers.map((s) => empty(s)));
    const gross = requestDistribution(bases.map((b) => handler(b)));
    const server = requestDistribution(servers.map((s) => empty(s))).quantiles.p50.value;
    expect(net.server.value).toBeCloseTo(server, 12);
    expect(net.p50.value).toBeCloseTo(gross.quantiles.p50.value - server, 12);
    expect(net.p99.value).toBeCloseTo(gross.quantiles.p99.value - server, 12);
    expect(net.processes).toBe(5);
    for (const e of [net.p50, net.p99, net.server]) {
      expect(e.ci![0]).toBeLessThanOrEqual(e.value);
      expect(e.ci![1]).toBeGreaterThanOrEqual(e.value);
    }
  });

  it('from: where each process steadied; fewer processes than MIN_PROCESSES give no interval; unmatched processes are refused', () => {
    const steadied = netDistribution([[9, 5, 5, 1, 1, 1]], [[2, 0.2, 0.2]], { from: [3] });
    expect(steadied.p50.value).toBeCloseTo(0.8, 12);
    expect(steadied.p50.ci).toBeUndefined();
    expect(MIN_PROCESSES).toBeGreaterThan(1);
    expect(() => netDistribution([handler(1)], [])).toThrow(RangeError);
    expect(() => netDistribution([[1]], [[1, 1]])).toThrow(/no process served more than one request/);
  });
});
