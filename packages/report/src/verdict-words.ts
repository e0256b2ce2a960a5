/**
 * The words a verdict is said in, decided by what was measured, in one place:
 * a time is "faster" or "slower", a count of instructions is "fewer" or
 * "more" (a count is not a time: fewer instructions can take longer). The
 * verdicts themselves stay 'faster' | 'slower' | … in the data (views, saved
 * JSON); only what a reader sees changes.
 */
import type { Metric } from '@rtbench/core/schema';
import { INSTRUCTIONS_PER_OP } from '@rtbench/core/metric';

export interface VerdictWords {
  /** The quantity ratios are of: "time", "instructions". */
  quantity: string;
  /** What a ratio below 1 is called ("faster", "fewer"), and above 1 ("slower", "more"). */
  better: string;
  worse: string;
  /** A ratio below 1, said of the candidate: "the candidate is faster", "the candidate executes fewer". */
  candidateBetter: string;
  /** What a change word is of when the word alone does not say it ("fewer" instructions); absent for time. */
  of?: string;
}

const TIME_WORDS: VerdictWords = { quantity: 'time', better: 'faster', worse: 'slower', candidateBetter: 'the candidate is faster' };
/** A count's words: what is counted is its unit ("fewer instructions"). */
const countWords = (unit: Metric['unit']): VerdictWords => ({ quantity: unit, better: 'fewer', worse: 'more', candidateBetter: 'the candidate executes fewer', of: unit });

const SWITCH_WORDS: VerdictWords = { quantity: 'context switches', better: 'fewer', worse: 'more', candidateBetter: 'the candidate switches less', of: 'context switches' };

/** The words of each unit a saved run's metric can be in (core's schema declares them); times per request are times. */
const WORDS: Readonly<Record<Metric['unit'], VerdictWords>> = { ns: TIME_WORDS, ms: TIME_WORDS, 'req/s': TIME_WORDS, instructions: countWords(INSTRUCTIONS_PER_OP.unit), switches: SWITCH_WORDS };

/** The words for a metric (absent: the in-runtime loop's time per operation). */
export function verdictWords(metric: Pick<Metric, 'unit'> | undefined): VerdictWords {
  return metric ? WORDS[metric.unit] : TIME_WORDS;
}

/** What a verdict is called for a metric: 'faster' → "fewer" for instruction counts; other verdicts as they are. */
export function verdictWord(verdict: string, metric: Pick<Metric, 'unit'> | undefined): string {
  const words = verdictWords(metric);
  return verdict === 'faster' ? words.better : verdict === 'slower' ? words.worse : verdict;
}

/** A change as a bisect says it: "faster", or for counts "fewer instructions" (a bare "fewer" says of what only in a table's heading). */
export function changeWord(verdict: string, metric: Pick<Metric, 'unit'> | undefined): string {
  const of = verdictWords(metric).of;
  return `${verdictWord(verdict, metric)}${of ? ` ${of}` : ''}`;
}

/** "is slower than node by 3.1%", or for counts "executes 3.1% more instructions than node" (the --fail-on-regression gate). */
export function worseThan(words: VerdictWords, base: string, by: string): string {
  return words === TIME_WORDS ? `is ${words.worse} than ${base} by ${by}` : `executes ${by} ${words.worse} ${words.quantity} than ${base}`;
}
