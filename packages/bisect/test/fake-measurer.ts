/**
 * A measurer whose truth is known: releases 0..n-1, a cost per release made
 * of planted steps, and per paired round ln(cost ratio) plus noise drawn from
 * a seeded generator. The noise is a contaminated normal: most rounds with
 * standard deviation `sd`, a share `outliers` with three times it (a round
 * whose processes caught a busy neighbour), which is what lockstep rounds on
 * this shared machine look like at their worst (docs/lockstep.md: per-set
 * ratios within ±2–5%).
 */
import { createRandom } from '@rtbench/stats';
import type { Measure, StepRequest } from '../src/index.ts';

export interface FakeOptions {
  releases: number;
  /** Steps: at `at` (between release at-1 and at) the cost is multiplied by `factor`. */
  changes: { at: number; factor: number }[];
  sd: number;
  outliers: number;
  seed: number;
  /** Releases that cannot run. */
  broken?: number[];
}

export function fakeMeasurer(o: FakeOptions): Measure & { requests: StepRequest[]; rounds: () => number } {
  const random = createRandom(o.seed);
  const normal = (): number => {
    // Box–Muller; 1 - u keeps the logarithm finite.
    const u = 1 - random();
    const v = random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  const logCost = (i: number): number => o.changes.reduce((s, c) => s + (i >= c.at ? Math.log(c.factor) : 0), 0);
  const requests: StepRequest[] = [];
  let rounds = 0;
  const measure = async (r: StepRequest) => {
    requests.push(r);
    for (const b of [r.older, r.newer]) if (o.broken?.includes(b)) return { kind: 'cannot-run' as const, release: b, reason: 'the case throws' };
    const truth = logCost(r.newer) - logCost(r.older);
    rounds += r.rounds;
    const logRatios = Array.from({ length: r.rounds }, () => truth + normal() * o.sd * (random() < o.outliers ? 3 : 1));
    return { kind: 'measured' as const, logRatios };
  };
  return Object.assign(measure, { requests, rounds: () => rounds });
}
