/**
 * Change points of a history: each point's unpaired comparison with the
 * previous point of its series that has figures (ratios.ts unpairedCase),
 * every one read together at the view's FDR-adjusted level (stats'
 * applyFdr); a change point is a comparison whose verdict is faster or
 * slower. The release matrix names its change points by the same rule
 * (release-matrix.ts). Why neighbours and not segments: docs/history.md.
 */
import type { Comparison } from '@rtbench/stats';
import { adjustAll, type PairedCase, type RatioComparison, type RatioOptions } from './ratios.ts';

export const CHANGE_METHOD =
  'each point against the previous point of its series: unpaired, the difference of the two runs’ mean log times over their processes, Welch t interval, read at the level that adjusts for every comparison in the view (Benjamini–Hochberg selection); a change point is a verdict of faster or slower (the interval excludes 1 and the shift is beyond the threshold)';

/** The direction a comparison decided: its verdict when faster or slower (the interval excludes 1 and the change is beyond the threshold); a change point is one. */
export function decidedDirection(c: Pick<Comparison, 'verdict'>): 'faster' | 'slower' | undefined {
  return c.verdict === 'faster' || c.verdict === 'slower' ? c.verdict : undefined;
}

/** A point's change from its neighbour, read at the view's level, and whether it is a change point. */
export interface HistoryChange {
  change: RatioComparison;
  changePoint?: 'faster' | 'slower';
}

/** Every neighbour comparison of a history read together; undefined where a point had none. */
export function historyChanges(pairs: readonly PairedCase[], options: RatioOptions): (HistoryChange | undefined)[] {
  return adjustAll(pairs, options).map((change) => {
    if (!change) return undefined;
    const direction = decidedDirection(change);
    return { change, ...(direction ? { changePoint: direction } : {}) };
  });
}
