/**
 * Claims in a saved run: what was claimed and what the run decided, declared
 * once here with their types inferred. A run made by `rtbench claims`
 * carries the block; older runs have none. The block has its own version, so
 * its shape can change without changing the rest of the run's schema.
 */
import { z } from 'zod';
import { finite, paramValue } from './protocol-schema.ts';

export const CLAIMS_VERSION = 1;

export const expectationSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('faster'), factor: finite.gt(1) }),
  z.object({ kind: z.literal('slower'), factor: finite.gt(1) }),
  z.object({ kind: z.literal('within'), fraction: finite.gt(0).lt(1) }),
  z.object({ kind: z.literal('same') }),
  z.object({ kind: z.literal('at-most'), factor: finite.positive() }),
  z.object({ kind: z.literal('below'), bytes: finite.positive() }),
  z.object({ kind: z.literal('cpu-below'), ms: finite.positive() }),
]);

/**
 * What is claimed of the subject's cost against the other side's, as a ratio
 * of costs (time per operation, instructions per operation, or seconds per
 * request where a case measures requests/s): `faster` at least `factor`×,
 * `slower` at least `factor`×, `within` ±fraction, or `same` within the
 * run's threshold ("no detectable difference"), or `at-most` `factor`× the
 * other side's cost (a ceiling: "at most 1.2× the memory of …"), or
 * `below` an absolute number of bytes (`peakRss: below('64MB')`: no other
 * side; the subject's peaks over the bound are the ratio decided), or
 * `cpu-below` a CPU time in ms, of a request case's quantile (`p99:
 * below('10ms')`: no other side; each process's quantile over the limit).
 */
export type Expectation = z.infer<typeof expectationSchema>;

/**
 * The figure a claim is about: time, instruction counts for a claim about
 * work, or `peakRss`, the peak resident memory of the case's process while
 * the case was open (the memory view's peak RSS, read in the same run as time).
 */
export const claimMeasureSchema = z.enum(['time', 'instructions', 'peakRss']);
export type ClaimMeasure = z.infer<typeof claimMeasureSchema>;

/**
 * A quantile of CPU per request a claim of a request case is about: per
 * process the quantile of its requests after its first (the process is the
 * unit), instead of the process's median.
 */
export const claimQuantileSchema = z.enum(['p50', 'p90', 'p99']);
export type ClaimQuantile = z.infer<typeof claimQuantileSchema>;

/** One side of a checked claim: a case on a variant of the run. */
export const claimSideSchema = z.object({ caseId: z.string(), variantId: z.string() });

export const claimWordSchema = z.enum(['held', 'broken', 'undecided']);

/** One claim checked on one variant (and one parameter combination). */
export const claimOutcomeSchema = z.object({
  /** The suite's sentence: the claim's id within its suite. */
  says: z.string(),
  suite: z.string(),
  subject: claimSideSchema,
  other: claimSideSchema,
  /** The subject's parameters, when the claim covers several combinations. */
  params: z.record(z.string(), paramValue).optional(),
  expect: expectationSchema,
  measure: claimMeasureSchema,
  /** The quantile of a request case's CPU per request the claim is about; absent: the process's median. */
  quantile: claimQuantileSchema.optional(),
  word: claimWordSchema,
  /** The subject's cost over the other's (time, instructions, s per request; for a `below` bound, its peak over the bound; for `cpu-below`, the quantile over the limit): < 1 is faster. Absent: nothing to compare. */
  ratio: finite.positive().optional(),
  /** The adjusted interval of that ratio the word was read from; absent with fewer than 3 units. */
  interval: z.tuple([finite.nonnegative(), finite.positive()]).optional(),
  /** Independent units (process pairs, or processes) the ratio was estimated from. */
  units: z.number().int().nonnegative(),
  /** The threshold a `same` claim was judged at (relative). */
  threshold: finite.nonnegative().optional(),
  /** Why there is no decision, or what to know about it. */
  note: z.string().optional(),
});

export const claimsBlockSchema = z.object({
  version: z.literal(CLAIMS_VERSION),
  /** The family confidence: every interval of the invocation together covers with this probability. */
  confidence: finite.gt(0).lt(1),
  /** How each interval was adjusted for the claims checked together, in words. */
  adjustment: z.string(),
  /** How the intervals were made, in words. */
  method: z.string(),
  outcomes: z.array(claimOutcomeSchema),
});

export type ClaimOutcome = z.infer<typeof claimOutcomeSchema>;
export type ClaimWord = z.infer<typeof claimWordSchema>;
export type ClaimsBlock = z.infer<typeof claimsBlockSchema>;
export type ClaimSide = z.infer<typeof claimSideSchema>;
