/**
 * The target cell of scripts/request-loop.ts with its interval: a runtime's
 * ratio to the base runtime by the request path, over the same ratio by the
 * in-process loop (each call's p50, less the same process's empty handler).
 * Its unit is the round: one round serves every runtime's processes of both
 * paths in turn, so a resample draws whole rounds with replacement, the same
 * rounds for every runtime and path, and a stretch of the machine that
 * slowed one round moves both sides of the ratio alike.
 */
import { median } from '../packages/stats/src/index.ts';
import { createRandom } from '../packages/stats/src/random.ts';
import { percentileInterval } from '../packages/stats/src/bootstrap.ts';

/** One runtime's steady samples of each path, per round (index i: round i). */
export interface PathRounds {
  request: readonly (readonly number[])[];
  call: readonly (readonly number[])[];
  /** The empty handler's requests in the call path's processes. */
  callEmpty: readonly (readonly number[])[];
}

/** The target's band: request ÷ loop within ±15%. */
export const BAND: readonly [number, number] = [0.85, 1.15];

export type CellVerdict = 'within' | 'outside' | 'undecided';

export interface Cell {
  /** Each path's ratio to the base runtime, and their quotient. */
  request: number;
  loop: number;
  value: number;
  /** The percentile-bootstrap interval of the quotient over rounds; absent with fewer than 3 rounds. */
  ci?: [number, number];
  verdict: CellVerdict;
}

/** Fewer rounds than this give no interval, and no verdict but undecided. */
const MIN_ROUNDS = 3;

/** Within: the whole interval inside the band; outside: the whole interval beyond one of its edges; else undecided. */
export function cellVerdict(ci: readonly [number, number] | undefined, band: readonly [number, number] = BAND): CellVerdict {
  if (!ci) return 'undecided';
  if (ci[0] >= band[0] && ci[1] <= band[1]) return 'within';
  return ci[1] < band[0] || ci[0] > band[1] ? 'outside' : 'undecided';
}

const pooledMedian = (rounds: readonly (readonly number[])[], picked: readonly number[]): number => median(picked.flatMap((i) => rounds[i] ?? []));

/** A runtime's two figures from the rounds picked: the request path's p50, and the loop's p50 per call less its empty handler's. */
function figures(p: PathRounds, picked: readonly number[]): { request: number; call: number } {
  return { request: pooledMedian(p.request, picked), call: pooledMedian(p.call, picked) - pooledMedian(p.callEmpty, picked) };
}

/**
 * Each other runtime's cell against `base`, in their order. Rounds a series
 * lacks (a failed process) leave it short: only the first rounds every
 * series holds are used.
 */
export function ratioCells(base: PathRounds, others: readonly PathRounds[], options: { resamples?: number; seed?: number; confidence?: number } = {}): Cell[] {
  const all = [base, ...others];
  const rounds = Math.min(...all.flatMap((p) => [p.request.length, p.call.length, p.callEmpty.length]));
  const every = Array.from({ length: rounds }, (_, i) => i);
  const quotient = (picked: readonly number[], other: PathRounds, b = figures(base, picked)) => {
    const o = figures(other, picked);
    const request = o.request / b.request;
    const loop = o.call / b.call;
    return { request, loop, value: request / loop };
  };
  const points = others.map((o) => quotient(every, o));
  if (rounds < MIN_ROUNDS) return points.map((p) => ({ ...p, verdict: 'undecided' }));
  const resamples = options.resamples ?? 2000;
  const random = createRandom(options.seed ?? 1);
  const draws = others.map(() => new Float64Array(resamples));
  for (let b = 0; b < resamples; b++) {
    const picked = every.map(() => Math.min(rounds - 1, Math.floor(random() * rounds)));
    const baseFigures = figures(base, picked);
    others.forEach((o, i) => (draws[i]![b] = quotient(picked, o, baseFigures).value));
  }
  return points.map((p, i) => {
    const ci = percentileInterval(draws[i]!, options.confidence ?? 0.95);
    return { ...p, ci, verdict: cellVerdict(ci) };
  });
}
