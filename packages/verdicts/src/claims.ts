/**
 * Claims checked against runs: each check's word, and the block a claims
 * run saves. Pure.
 *
 * A check pairs the subject's rounds with the other side's by round (a
 * lockstep set): the same case on two variants pairs turn by turn (stats'
 * pairRounds, as a comparison does), two cases on one variant pair their
 * set figures (one process served both, moments apart: medians, or means
 * where the table reads means, stats amortized.ts). Each pair is a log
 * cost ratio; the pairs of one process pair form one unit, and the word is
 * read from the t interval over units (claim-decision.ts). A claim about
 * peak memory pairs the rounds' peak resident bytes (one reading per process
 * and set) the same way, by round, with the same units. A claim of an
 * absolute bound (`peakRss: below('64MB')`) has no other side: each round's
 * peak over the bound is its log ratio, and the process is the unit. A
 * claim of a request case's quantile reduces each process to its quantile
 * of its warm requests first (request-quantiles.ts), so the unit stays the
 * process; against a limit (`p99: below('10ms')`) each process's quantile
 * over the limit is its log ratio.
 */
import { counted } from '@rtbench/core/words';
import { isBound } from '@rtbench/core/claims';
import type { ClaimOutcome, ClaimQuantile, ClaimsBlock, ClaimWord } from '@rtbench/core/claims-schema';
import type { CaseResult, RunRecord } from '@rtbench/core/schema';
import { asCost, metricOf } from '@rtbench/core/metric';
import { DEFAULT_THRESHOLD, pairRounds, type PairableRound } from '@rtbench/stats';
import { lockstepOf, pairable } from '@rtbench/measurer-records/readers';
import { whyNoReadings } from './memory-readings.ts';
import { adjustmentText, CLAIM_METHOD, decideClaim, type ClaimFamily } from './claim-decision.ts';
import { peakOverBound, peakPairs, type PeakPairs } from './memory-change.ts';
import { isRequestResult, quantileRounds } from './request-quantiles.ts';

/** What to check: an outcome before its decision. */
export type ClaimCheck = Pick<ClaimOutcome, 'says' | 'suite' | 'subject' | 'other' | 'params' | 'expect' | 'measure' | 'quantile'>;

const QUANTILE_AT: Readonly<Record<ClaimQuantile, number>> = { p50: 0.5, p90: 0.9, p99: 0.99 };

/** The per-unit values a check is decided from: log cost ratios and the unit of each (the shape peak pairs have). */
export type ClaimPairs = PeakPairs;

const key = (caseId: string, variantId: string): string => `${caseId}\u0000${variantId}`;

/** Why a check cannot be decided from these results, if it cannot. */
function unusable(run: RunRecord, check: ClaimCheck, subject: CaseResult | undefined, other: CaseResult | undefined): string | undefined {
  for (const [side, r] of [
    ['subject', subject],
    ['other side', other],
  ] as const) {
    const where = side === 'subject' ? check.subject : check.other;
    if (!r) return `${where.caseId} on ${where.variantId} was not measured`;
    if (r.status === 'unsupported') return `${where.caseId} is unsupported on ${where.variantId}: ${r.failures[0]?.message ?? ''}`;
    if (!r.rounds.length) return `${where.caseId} has no rounds on ${where.variantId}${r.failures.length ? ` (${r.failures[r.failures.length - 1]!.kind})` : ''}`;
    if (check.measure === 'peakRss' && !r.rounds.some((x) => x.memory)) return `${where.caseId} on ${where.variantId} has no resident-memory readings: ${whyNoReadings({ results: [r], host: run.host, options: run.options })}`;
    if (check.quantile && !isRequestResult(r)) return `${where.caseId} is not a request case: a ${check.quantile} claim needs CPU per request`;
  }
  if (!isBound(check.expect) && check.subject.caseId === check.other.caseId && run.digestMismatches.some((m) => m.caseId === check.subject.caseId)) {
    return `${check.subject.caseId} did different work on ${check.subject.variantId} and ${check.other.variantId} (digests differ)`;
  }
  return undefined;
}

/** The check's per-unit log cost ratios from one run. */
export function claimPairs(run: RunRecord, check: ClaimCheck, subject: CaseResult, other: CaseResult): ClaimPairs {
  if (check.expect.kind === 'below') return peakOverBound(subject, check.expect.bytes);
  if (check.quantile) return quantileClaimPairs(check.expect, QUANTILE_AT[check.quantile], subject, other);
  if (check.measure === 'peakRss') return peakPairs(subject, other, check.subject.caseId === check.other.caseId);
  const cost = (caseId: string) => {
    const metric = metricOf(run, caseId);
    return (m: number): number => asCost(m, metric);
  };
  if (check.subject.caseId === check.other.caseId) {
    // The same case on two variants: pairs turn by turn; a unit is the pair of processes that served the set.
    const pairs = pairRounds(other.rounds.map(pairable), subject.rounds.map(pairable), cost(check.subject.caseId));
    return { logRatios: pairs.baseline.map((b, i) => Math.log(pairs.candidate[i]! / b)), units: pairs.units ?? pairs.rounds };
  }
  // Two cases on one variant: their set figures, each in its own metric; a unit is the process that served both. The
  // spans go along: a case read by its means in the table (stats amortized.ts) is read by them here too.
  const plain = (r: CaseResult, caseId: string): PairableRound[] => r.rounds.map((x) => ({ round: x.round, samples: x.samples.map(cost(caseId)), span: x.span, turns: undefined }));
  const pairs = pairRounds(plain(other, check.other.caseId), plain(subject, check.subject.caseId));
  const processOf = new Map(subject.rounds.map((x) => [x.round, lockstepOf(x)?.process]));
  return { logRatios: pairs.baseline.map((b, i) => Math.log(pairs.candidate[i]! / b)), units: pairs.rounds.map((r) => processOf.get(r) ?? `round ${r}`) };
}

/**
 * A quantile claim's log ratios: per process its quantile of its warm
 * requests; against a limit, each process's quantile over it; against the
 * other side, round i of both (the processes of one set) paired.
 */
function quantileClaimPairs(expect: ClaimCheck['expect'], q: number, subject: CaseResult, other: CaseResult): ClaimPairs {
  const s = quantileRounds(subject, q);
  if (expect.kind === 'cpu-below') return { logRatios: s.map((r) => Math.log(r.samples[0]! / expect.ms)), units: s.map((r) => r.round) };
  const pairs = pairRounds(quantileRounds(other, q), s);
  return { logRatios: pairs.baseline.map((b, i) => Math.log(pairs.candidate[i]! / b)), units: pairs.rounds };
}

/** Each check decided from the run's results. */
export function checkClaims(run: RunRecord, checks: readonly ClaimCheck[], family: ClaimFamily): ClaimOutcome[] {
  const results = new Map(run.results.map((r) => [key(r.caseId, r.variantId), r]));
  return checks.map((check) => {
    const subject = results.get(key(check.subject.caseId, check.subject.variantId));
    const other = results.get(key(check.other.caseId, check.other.variantId));
    const threshold = check.expect.kind === 'same' ? { threshold: family.threshold } : {};
    const why = unusable(run, check, subject, other);
    if (why) return { ...check, word: 'undecided', units: 0, ...threshold, note: why };
    const pairs = claimPairs(run, check, subject!, other!);
    const usable = pairs.logRatios.map((v, i) => ({ v, u: pairs.units[i]! })).filter((p) => Number.isFinite(p.v));
    if (!usable.length) return { ...check, word: 'undecided', units: 0, ...threshold, note: 'no round in which both sides finished' };
    const d = decideClaim(
      usable.map((p) => p.v),
      usable.map((p) => p.u),
      check.expect,
      family,
    );
    const few = d.units < 3 ? { note: `${counted(d.units, 'unit')}: an interval needs at least 3` } : {};
    return { ...check, word: d.word, ratio: d.ratio, ...(d.interval ? { interval: d.interval } : {}), units: d.units, ...threshold, ...few };
  });
}

/** The block a claims run saves. */
export function claimsBlock(outcomes: ClaimOutcome[], family: ClaimFamily): ClaimsBlock {
  return { version: 1, confidence: family.confidence, adjustment: adjustmentText(family), method: CLAIM_METHOD, outcomes };
}

export function countWords(outcomes: readonly ClaimOutcome[]): Record<ClaimWord, number> {
  const counts: Record<ClaimWord, number> = { held: 0, broken: 0, undecided: 0 };
  for (const o of outcomes) counts[o.word]++;
  return counts;
}

/** What a saved claim's word was and what its samples say now. */
export interface Reworded {
  outcome: ClaimOutcome;
  stored: ClaimWord;
}

/**
 * A saved run's claims decided again from its samples, as the statistics are
 * (a file's words are not evidence). Each check keeps what it claimed; the
 * family is the block's confidence over at least as many checks as the block
 * holds or its adjustment names (an invocation's checks span its runs), a
 * `same` claim at its saved threshold. Undefined for a run with no claims.
 */
export function recheckClaims(run: RunRecord): { block: ClaimsBlock; reworded: Reworded[] } | undefined {
  const block = run.claims;
  if (!block) return undefined;
  const named = Number(/over (\d+) claim check/.exec(block.adjustment)?.[1] ?? 0);
  const size = Math.max(1, block.outcomes.length, Number.isSafeInteger(named) ? named : 0);
  const family = (threshold: number): ClaimFamily => ({ confidence: block.confidence, size, threshold });
  const reworded: Reworded[] = [];
  const outcomes = block.outcomes.map((stored) => {
    const { says, suite, subject, other, params, expect, measure, quantile } = stored;
    const check: ClaimCheck = { says, suite, subject, other, expect, measure, ...(params ? { params } : {}), ...(quantile ? { quantile } : {}) };
    const outcome = checkClaims(run, [check], family(stored.threshold ?? run.options.verdict?.threshold ?? DEFAULT_THRESHOLD))[0]!;
    if (outcome.word !== stored.word) reworded.push({ outcome, stored: stored.word });
    return outcome;
  });
  return { block: claimsBlock(outcomes, family(DEFAULT_THRESHOLD)), reworded };
}
