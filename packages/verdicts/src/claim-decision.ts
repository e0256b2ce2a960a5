/**
 * A claim's word from an interval: Student's t on the mean of one log cost
 * ratio per independent unit (stats' unitInference), at a confidence adjusted
 * for every claim checked together (Bonferroni: m claims at family confidence
 * 1 − α each get 1 − α/m). The word is read from that one interval, which is
 * also the one printed: held when it lies wholly on the claimed side of the
 * bound, broken when wholly on the other, undecided when it straddles the bound
 * or there are fewer than 3 units. A band claim (within ±b, or "no detectable
 * difference") is held inside the band, broken wholly outside it.
 * docs/claims.md.
 */
import { counted } from '@rtbench/core/words';
import type { Expectation } from '@rtbench/core';
import type { ClaimWord } from '@rtbench/core/claims-schema';
import { intervalAt, unitInference, type UnitInference } from '@rtbench/stats';

export const CLAIM_METHOD = 'mean of the per-unit log cost ratios ln(subject/other), one per process pair (lockstep set of fresh processes) or process; Student t interval on units − 1 degrees of freedom; none with fewer than 3 units';

/** The family's confidence and how many claims share it. */
export interface ClaimFamily {
  confidence: number;
  /** Claims checked together (the Bonferroni divisor), at least 1. */
  size: number;
  /** The relative threshold a "no detectable difference" claim is judged at. */
  threshold: number;
}

export function adjustmentText(family: Pick<ClaimFamily, 'confidence' | 'size'>): string {
  const each = adjustedConfidence(family);
  return `Bonferroni over ${counted(family.size, 'claim check')}: each interval at ${+(each * 100).toFixed(3)}%, together at least ${+(family.confidence * 100).toFixed(2)}%`;
}

export function adjustedConfidence(family: Pick<ClaimFamily, 'confidence' | 'size'>): number {
  return 1 - (1 - family.confidence) / Math.max(1, family.size);
}

/** The claim's band or bound on the log cost ratio, and which side is claimed. */
/** A band is [1 − b, 1 + b] as the reader sees it ("within ±3%": −3% to +3%), in logs. */
type Bound = { kind: 'below'; at: number } | { kind: 'above'; at: number } | { kind: 'band'; lo: number; hi: number };

function boundOf(expect: Expectation, threshold: number): Bound {
  switch (expect.kind) {
    case 'faster':
      return { kind: 'below', at: -Math.log(expect.factor) };
    case 'slower':
      return { kind: 'above', at: Math.log(expect.factor) };
    case 'within':
      return { kind: 'band', lo: Math.log(1 - expect.fraction), hi: Math.log(1 + expect.fraction) };
    case 'same':
      return { kind: 'band', lo: Math.log(1 - threshold), hi: Math.log(1 + threshold) };
    case 'at-most':
      return { kind: 'below', at: Math.log(expect.factor) };
    case 'below':
    case 'cpu-below':
      // Its log ratios are ln(peak / bound), or ln(quantile / limit): the bound is 1×.
      return { kind: 'below', at: 0 };
  }
}

/** The word an interval of the log cost ratio gives the claim. */
export function wordOf(expect: Expectation, interval: readonly [number, number] | undefined, threshold: number): ClaimWord {
  if (!interval) return 'undecided';
  const [lo, hi] = interval;
  const bound = boundOf(expect, threshold);
  if (bound.kind === 'below') return hi <= bound.at ? 'held' : lo > bound.at ? 'broken' : 'undecided';
  if (bound.kind === 'above') return lo >= bound.at ? 'held' : hi < bound.at ? 'broken' : 'undecided';
  if (lo >= bound.lo && hi <= bound.hi) return 'held';
  return hi < bound.lo || lo > bound.hi ? 'broken' : 'undecided';
}

export interface ClaimDecision {
  word: ClaimWord;
  /** exp of the estimate: the subject's cost over the other's. */
  ratio: number;
  /** The adjusted interval of that ratio; absent with fewer than 3 units. */
  interval?: [number, number];
  units: number;
}

/** The decision from the inference of the units' log ratios. */
export function decideFrom(inference: UnitInference, expect: Expectation, family: ClaimFamily): ClaimDecision {
  const log = intervalAt(inference, adjustedConfidence(family));
  const word = wordOf(expect, log, family.threshold);
  return { word, ratio: Math.exp(inference.estimate), ...(log ? { interval: [Math.exp(log[0]), Math.exp(log[1])] as [number, number] } : {}), units: inference.units };
}

/** The decision from per-unit log cost ratios and their units' labels (the values of one unit are averaged into it). */
export function decideClaim(logRatios: readonly number[], units: readonly (string | number)[], expect: Expectation, family: ClaimFamily): ClaimDecision {
  return decideFrom(unitInference(logRatios, units), expect, family);
}
