/**
 * A saved round's measurer blocks read as their types, as loading validated
 * them: casts, no schema. Apart from the measurers' modules (which declare
 * each block's zod schema) so that a reader of runs that never validates one
 * (a history answered from its store, a report's views) builds no schema.
 */
import type { MaskedAnswer, RoundRecord } from '@rtbench/core/schema';
import type { PairableRound } from '@rtbench/stats';
import type { LoadRound } from './host-timed.ts';
import type { CountsRound } from './instructions.ts';
import type { LockstepRound } from './lockstep-round.ts';
import type { RequestsRound } from './request-cpu.ts';

/** A round's lockstep block (absent: a fresh process sampled back to back), as loading validated it. */
export const lockstepOf = (round: RoundRecord): LockstepRound | undefined => round.lockstep as LockstepRound | undefined;

/** A round as stats pairs it: taken in turns beside the other arms' (a lockstep set), and by which of the arm's processes. */
export function pairable(round: RoundRecord): PairableRound {
  const lockstep = lockstepOf(round);
  return { ...round, turns: lockstep ? { process: lockstep.process } : undefined };
}

/** A round's load block (absent: not a load round), as loading validated it. */
export const loadOf = (round: RoundRecord): LoadRound | undefined => round.load as LoadRound | undefined;

/** A round's counts block (absent: not a counted round), as loading validated it. */
export const countsOf = (round: RoundRecord): CountsRound | undefined => round.counts as CountsRound | undefined;

/** A round's requests block (absent: not a request round), as loading validated it. */
export const requestsOf = (round: RoundRecord): RequestsRound | undefined => round.requests as RequestsRound | undefined;

/** A request round's masked answers (core same-work's standingRound and standingAnswers read them). */
export const requestAnswers = (round: RoundRecord): readonly MaskedAnswer[] | undefined => requestsOf(round)?.answers;
