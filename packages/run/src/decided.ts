/**
 * The 'decided' rule's look at a run (loop.ts): every cell (a case's
 * candidate against the baseline) compared on its process pairs as the
 * report will read it, and judged by verdicts' lookAtTable on the table's
 * confidence sequences. A case goes on while any of its cells is open and
 * within reach; the open case closest to a word goes first.
 */
import type { CaseResult, RunRecord } from '@rtbench/core/schema';
import { comparePaired, pairRounds, type Comparison } from '@rtbench/stats';
import { lookAtTable, unitsToNextWord, type CellState, DEFAULT_RATIO_OPTIONS } from '@rtbench/verdicts';

/** One case's cells at a look, and how many further rounds its nearest word needs (undefined: none of its cells is open). */
export interface CaseLook {
  states: CellState[];
  next: number | undefined;
}

/** A candidate's paired comparison with the baseline, as the table's ratio is made (undefined: no pair to compare). */
function cellOf(baseline: CaseResult | undefined, candidate: CaseResult | undefined, threshold: number): Comparison | undefined {
  if (!baseline || !candidate || baseline.status !== 'ok' || candidate.status !== 'ok') return undefined;
  const pairs = pairRounds(baseline.rounds, candidate.rounds);
  if (!pairs.rounds.length || ![...pairs.baseline, ...pairs.candidate].every((x) => x > 0)) return undefined;
  return comparePaired(pairs.baseline, pairs.candidate, { threshold, ...(pairs.units ? { units: pairs.units } : {}) });
}

/**
 * Every case's look. `results(caseKey)` gives the case's results in the run's
 * arm order (the first is the baseline); `reachableRounds(caseKey)` the
 * rounds it can have in all within the budget left (a cell's pairs in
 * reach: those rounds at its own pairs per round, as sets share processes).
 */
export function lookAtCases(run: RunRecord, caseKeys: readonly string[], results: (caseKey: string) => readonly CaseResult[], reachableRounds: (caseKey: string) => number): Map<string, CaseLook> {
  const { threshold, confidence } = run.options.verdict ?? DEFAULT_RATIO_OPTIONS;
  const cells = caseKeys.flatMap((key) => {
    const [baseline, ...candidates] = results(key);
    return candidates.map((candidate) => ({ key, comparison: cellOf(baseline, candidate, threshold) }));
  });
  // The table's e-BH level spans every cell; reach is each case's own.
  const unbounded = lookAtTable(cells.map((c) => c.comparison), { confidence, reachableUnits: Infinity });
  const out = new Map<string, CaseLook>();
  for (const key of caseKeys) {
    const reach = reachableRounds(key);
    const states = unbounded
      .map((s, i) => ({ s, cell: cells[i]! }))
      .filter(({ cell }) => cell.key === key)
      .map(({ s, cell }): CellState => {
        if (s.state !== 'open' || !cell.comparison) return s;
        const pairs = Math.floor((reach * cell.comparison.units) / cell.comparison.n);
        return (s.unitsToDecide ?? 0) > pairs ? { ...s, state: 'out-of-reach' } : s;
      });
    out.set(key, { states, next: unitsToNextWord(states) });
  }
  return out;
}
