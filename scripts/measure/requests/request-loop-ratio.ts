/**
 * The target cell of scripts/measure/requests/request-loop.ts with its interval: a runtime's
 * ratio to the base runtime by the request path, over the same ratio by the
 * in-process loop (a call's CPU, less the same process's empty handler).
 * Each round gives every runtime one figure per path, the median of its
 * steady requests; a cell is the geometric mean over rounds of
 * (request ÷ call of the runtime) ÷ (request ÷ call of the base). Its unit
 * is the round: a round serves every runtime's processes in turn, so a
 * resample draws whole rounds with replacement, the same rounds for every
 * runtime and path, and a stretch of the machine that slowed one round
 * moves both sides of the ratio alike; where one process serves both
 * paths, what differs between processes is in both as well.
 */
import { median } from '../../../packages/stats/src/index.ts';
import { createRandom } from '../../../packages/stats/src/random.ts';
import { percentileInterval } from '../../../packages/stats/src/bootstrap.ts';

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

/** One runtime's log figures of a round: its request's median, and its call's median less its empty handler's. */
function logFigures(p: PathRounds, round: number): { request: number; call: number } {
  return { request: Math.log(median(p.request[round]!)), call: Math.log(median(p.call[round]!) - median(p.callEmpty[round]!)) };
}

const meanOf = (xs: ArrayLike<number>, picked: readonly number[]): number => picked.reduce((sum, i) => sum + xs[i]!, 0) / picked.length;

/**
 * Each other runtime's cell against `base`, in their order. Only the rounds
 * every series of every runtime holds, with a call dearer than its empty
 * handler, are used (a round a process failed in is left out for all).
 */
export function ratioCells(base: PathRounds, others: readonly PathRounds[], options: { resamples?: number; seed?: number; confidence?: number } = {}): Cell[] {
  const all = [base, ...others];
  const count = Math.min(...all.flatMap((p) => [p.request.length, p.call.length, p.callEmpty.length]));
  const logs = all.map((p) => Array.from({ length: count }, (_, i) => (p.request[i]!.length && p.call[i]!.length && p.callEmpty[i]!.length ? logFigures(p, i) : undefined)));
  const rounds = Array.from({ length: count }, (_, i) => i).filter((i) => logs.every((l) => l[i] && Number.isFinite(l[i].call)));
  // Per other runtime and round: the log ratio to the base by each path.
  const diffs = others.map((_, o) => ({
    request: rounds.map((i) => logs[o + 1]![i]!.request - logs[0]![i]!.request),
    loop: rounds.map((i) => logs[o + 1]![i]!.call - logs[0]![i]!.call),
  }));
  const every = rounds.map((_, k) => k);
  const points = diffs.map((d) => {
    const request = Math.exp(meanOf(d.request, every));
    const loop = Math.exp(meanOf(d.loop, every));
    return { request, loop, value: request / loop };
  });
  if (rounds.length < MIN_ROUNDS) return points.map((p) => ({ ...p, verdict: 'undecided' }));
  const quotients = diffs.map((d) => Float64Array.from(every, (k) => d.request[k]! - d.loop[k]!));
  const resamples = options.resamples ?? 2000;
  const random = createRandom(options.seed ?? 1);
  const draws = others.map(() => new Float64Array(resamples));
  for (let b = 0; b < resamples; b++) {
    const picked = every.map(() => Math.min(rounds.length - 1, Math.floor(random() * rounds.length)));
    quotients.forEach((q, o) => (draws[o]![b] = Math.exp(meanOf(q, picked))));
  }
  return points.map((p, o) => {
    const ci = percentileInterval(draws[o]!, options.confidence ?? 0.95);
    return { ...p, ci, verdict: cellVerdict(ci) };
  });
}
