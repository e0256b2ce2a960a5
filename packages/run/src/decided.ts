/**
 * The 'decided' rule's look at a run (loop.ts): every cell (a case's
 * candidate against the baseline) compared on its process pairs as the
 * report will read it, and judged by verdicts' lookByCase on the table's
 * confidence sequences. A case goes on while any of its cells is open and
 * within reach; the open case closest to a word goes first.
 */
import type { CaseResult, RunRecord } from '@rtbench/core/schema';
import { comparePaired, pairRounds, withoutFarthestUnit } from '@rtbench/stats';
import { pairable } from '@rtbench/measurer-records';
import { lookByCase, type CaseCell, type CaseLook, DEFAULT_RATIO_OPTIONS } from '@rtbench/verdicts';

/**
 * A candidate's paired comparison with the baseline, as the table's ratio is
 * made (no comparison: no pair to compare), and with `guarded` its inference
 * without its farthest process pair for the rule's projection.
 */
function cellOf(baseline: CaseResult | undefined, candidate: CaseResult | undefined, threshold: number, guarded: boolean): Omit<CaseCell, 'caseIndex'> {
  if (!baseline || !candidate || baseline.status !== 'ok' || candidate.status !== 'ok') return { comparison: undefined };
  const pairs = pairRounds(baseline.rounds.map(pairable), candidate.rounds.map(pairable));
  if (!pairs.rounds.length || ![...pairs.baseline, ...pairs.candidate].every((x) => x > 0)) return { comparison: undefined };
  const units = pairs.units ? { units: pairs.units } : {};
  const comparison = comparePaired(pairs.baseline, pairs.candidate, { threshold, ...units });
  if (!guarded) return { comparison };
  return { comparison, steadier: withoutFarthestUnit(pairs.baseline.map((b, i) => Math.log(pairs.candidate[i]! / b)), pairs.units) };
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
  // A comparison's cells are not put out of reach by one far process pair (verdicts' stopping.ts); a table's are:
  // there the guard kept a noisy case drawing rounds until the time budget ran out (docs/measurements/stopping.md).
  const guarded = run.mode === 'compare';
  const cells = caseKeys.flatMap((key, caseIndex) => {
    const [baseline, ...candidates] = results(key);
    return candidates.map((candidate) => ({ caseIndex, ...cellOf(baseline, candidate, threshold, guarded) }));
  });
  const looks = lookByCase(cells, caseKeys.length, { confidence, maxRounds, reachableRounds: (k, open) => reachableRounds(caseKeys[k]!, open) });
  return new Map(caseKeys.map((key, k) => [key, looks[k]!]));
}
