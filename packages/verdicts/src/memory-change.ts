/**
 * What one arm costs in peak memory against another: the peak resident bytes
 * each process read while it served the case (one reading per process and
 * set), paired by set, one log ratio per pair; the process pair (or the
 * process, for two cases on one variant) is the unit, as it is for time
 * (claims.ts, ratios.ts). The interval is Student's t over the units' mean
 * log ratio. Pure.
 */
import type { CaseResult } from '@rtbench/core/schema';
import { intervalAt, unitInference } from '@rtbench/stats';
import { lockstepOf } from '@rtbench/measurer-records/readers';

/** Per-unit log ratios of the rounds' peaks and the unit of each. */
export interface PeakPairs {
  logRatios: number[];
  units: (string | number)[];
}

/** The subject's rounds' peaks over the other's, rounds paired by number; `sameCase`: the unit is the pair of processes, else the subject's process. */
export function peakPairs(subject: Pick<CaseResult, 'rounds'>, other: Pick<CaseResult, 'rounds'>, sameCase: boolean): PeakPairs {
  const others = new Map(other.rounds.map((r) => [r.round, r]));
  const out: PeakPairs = { logRatios: [], units: [] };
  for (const s of subject.rounds) {
    const o = others.get(s.round);
    if (!s.memory || !o?.memory || !(s.memory.peakBytes > 0 && o.memory.peakBytes > 0)) continue;
    out.logRatios.push(Math.log(s.memory.peakBytes / o.memory.peakBytes));
    const sp = lockstepOf(s)?.process;
    const op = lockstepOf(o)?.process;
    out.units.push(sp === undefined || op === undefined ? `round ${s.round}` : sameCase ? `${op}/${sp}` : sp);
  }
  return out;
}

/** Each round's peak over an absolute bound, one log ratio per round; the unit is the round's process (a `below` claim). */
export function peakOverBound(subject: Pick<CaseResult, 'rounds'>, bytes: number): PeakPairs {
  const out: PeakPairs = { logRatios: [], units: [] };
  for (const s of subject.rounds) {
    if (!(s.memory && s.memory.peakBytes > 0)) continue;
    out.logRatios.push(Math.log(s.memory.peakBytes / bytes));
    out.units.push(lockstepOf(s)?.process ?? `round ${s.round}`);
  }
  return out;
}

/** The candidate's peak over the baseline's: the estimate, its interval at `confidence` (none with fewer than 3 units), the units. */
export interface MemoryChange {
  ratio: number;
  interval?: [number, number];
  units: number;
}

/** The same case's peak on two arms, or undefined when no set has both peaks. */
export function peakChange(candidate: Pick<CaseResult, 'rounds'>, baseline: Pick<CaseResult, 'rounds'>, confidence: number): MemoryChange | undefined {
  const pairs = peakPairs(candidate, baseline, true);
  if (!pairs.logRatios.length) return undefined;
  const inference = unitInference(pairs.logRatios, pairs.units);
  const log = inference.units >= 3 ? intervalAt(inference, confidence) : undefined;
  return { ratio: Math.exp(inference.estimate), ...(log ? { interval: [Math.exp(log[0]), Math.exp(log[1])] as [number, number] } : {}), units: inference.units };
}
