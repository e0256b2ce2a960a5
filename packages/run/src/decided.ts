/**
 * The 'decided' rule's look at a run (loop.ts): every cell (a case's
 * candidate against the baseline) compared on its process pairs as the
 * report will read it, and judged by verdicts' lookByCase on the table's
 * confidence sequences. A case goes on while any of its cells is open and
 * within reach; the open case closest to a word goes first.
 */
import type { CaseResult, RunRecord } from '@rtbench/core/schema';
import { comparePaired, pairRounds, type Comparison } from '@rtbench/stats';
import { lookByCase, type CaseLook, DEFAULT_RATIO_OPTIONS } from '@rtbench/verdicts';

/** A candidate's paired comparison with the baseline, as the table's ratio is made (undefined: no pair to compare). */
function cellOf(baseline: CaseResult | undefined, candidate: CaseResult | undefined, threshold: number): Comparison | undefined {
  if (!baseline || !candidate || baseline.status !== 'ok' || candidate.status !== 'ok') return undefined;
  const pairs = pairRounds(baseline.rounds, candidate.rounds);
  if (!pairs.rounds.length || ![...pairs.baseline, ...pairs.candidate].every((x) => x > 0)) return undefined;
  return comparePaired(pairs.baseline, pairs.candidate, { threshold, ...(pairs.units ? { units: pairs.units } : {}) });
}

/**
 * Every case's look (verdicts' lookByCase, the rule the stopping simulation
 * follows). `results(caseKey)` gives the case's results in the run's arm
 * order (the first is the baseline); `reachableRounds(caseKey, open)` the
 * rounds the case can have in all when `open` cases share the budget left.
 */
export function lookAtCases(
  run: RunRecord,
  caseKeys: readonly string[],
  results: (caseKey: string) => readonly CaseResult[],
  maxRounds: number,
  reachableRounds: (caseKey: string, open: number) => number,
): Map<string, CaseLook> {
  const { threshold, confidence } = run.options.verdict ?? DEFAULT_RATIO_OPTIONS;
  const cells = caseKeys.flatMap((key, caseIndex) => {
    const [baseline, ...candidates] = results(key);
    return candidates.map((candidate) => ({ caseIndex, comparison: cellOf(baseline, candidate, threshold) }));
  });
  const looks = lookByCase(cells, caseKeys.length, { confidence, maxRounds, reachableRounds: (k, open) => reachableRounds(caseKeys[k]!, open) });
  return new Map(caseKeys.map((key, k) => [key, looks[k]!]));
}
