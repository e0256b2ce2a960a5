/**
 * --fail-on-regression's rule, one per kind of view the gate judges: a ratio
 * slower after FDR by more than the limit (0.05 = 5%), and never a ratio
 * with an arm without work (it has no verdict). The CLI asks
 * `regressionsOf` and prints what it returns.
 *
 * Report declares the views; the shapes below name only the fields each rule
 * reads, so a view of report is passed as it is (the compiler checks that it
 * fits) and this package needs nothing of report.
 */
import type { RatioComparison } from './ratios.ts';

interface Labelled {
  label: string;
}

/** A comparison's sections: each candidate against the baseline, row by row. */
interface ComparedSections {
  kind: 'comparison';
  sections: readonly { baseline: Labelled; candidate: Labelled; cases: readonly { caseId: string; label: string; comparison?: RatioComparison; withoutWork?: object }[] }[];
}

/** A bench table: each variant's ratio to the baseline, case by case. */
interface BenchRatios {
  kind: 'bench';
  baseline: Labelled;
  cases: readonly { caseId: string; label: string; rows: readonly { variantId: string; relative?: RatioComparison; noVerdictWord?: true }[] }[];
}

/** A history: each series' points with their change from the point before. */
interface HistoryChanges {
  kind: 'history';
  runs: readonly unknown[];
  cases: readonly { caseId: string; label: string; series: readonly { variantId: string; points: readonly { run: number; change?: RatioComparison; changeFrom?: number; changePoint?: 'faster' | 'slower' }[] }[] }[];
}

/** A view the gate can be asked about; claims have their own exit codes, a release matrix its change points and a bisect its answer: none has a regression. */
export type GatedView = ComparedSections | BenchRatios | HistoryChanges | { kind: 'claims' | 'releases' | 'bisect' };

/** A case slower than its baseline beyond the limit: what was slower, than what, and the ratio that says so. */
export interface Regression {
  caseId: string;
  label: string;
  slower: string;
  baseline: string;
  comparison: RatioComparison;
}

/** Slower after FDR by more than `limit`. */
function beyond(c: RatioComparison, limit: number): boolean {
  return c.verdict === 'slower' && c.ratio > 1 + limit;
}

function comparisonRegressions(view: ComparedSections, limit: number): Regression[] {
  return view.sections.flatMap((section) =>
    section.cases.flatMap((row) => {
      const c = row.comparison;
      return c && !row.withoutWork && beyond(c, limit) ? [{ caseId: row.caseId, label: row.label, slower: section.candidate.label, baseline: section.baseline.label, comparison: c }] : [];
    }),
  );
}

function benchRegressions(view: BenchRatios, limit: number): Regression[] {
  return view.cases.flatMap((bc) =>
    bc.rows.flatMap((row) => (row.relative && !row.noVerdictWord && beyond(row.relative, limit) ? [{ caseId: bc.caseId, label: bc.label, slower: row.variantId, baseline: view.baseline.label, comparison: row.relative }] : [])),
  );
}

/** Series whose point in the newest run is a slower change point: an older change point is not the newest run's doing. */
function historyRegressions(view: HistoryChanges, limit: number): Regression[] {
  return view.cases.flatMap((hc) =>
    hc.series.flatMap((series) => {
      const last = series.points.at(-1);
      const newest = last?.run === view.runs.length - 1;
      return newest && last.changePoint === 'slower' && last.change && last.change.ratio > 1 + limit
        ? [{ caseId: hc.caseId, label: hc.label, slower: `${series.variantId} in run ${last.run + 1}`, baseline: `run ${last.changeFrom! + 1}`, comparison: last.change }]
        : [];
    }),
  );
}

/** The view's regressions beyond `limit`, in its order. */
export function regressionsOf(view: GatedView, limit: number): Regression[] {
  switch (view.kind) {
    case 'comparison':
      return comparisonRegressions(view, limit);
    case 'bench':
      return benchRegressions(view, limit);
    case 'history':
      return historyRegressions(view, limit);
    case 'claims':
    case 'releases':
    case 'bisect':
      return [];
  }
}

/**
 * How many ratios the gate could judge: each with a comparison and work on
 * both arms. None (every sample 0, one variant, one run) means nothing was
 * compared, which the gate must not pass as "no case is slower".
 */
export function judgedRatios(view: GatedView): number {
  switch (view.kind) {
    case 'comparison':
      return view.sections.reduce((n, section) => n + section.cases.filter((row) => row.comparison && !row.withoutWork).length, 0);
    case 'bench':
      return view.cases.reduce((n, bc) => n + bc.rows.filter((row) => row.relative && !row.noVerdictWord).length, 0);
    case 'history':
      return view.cases.reduce((n, hc) => n + hc.series.reduce((m, s) => m + s.points.filter((p) => p.change).length, 0), 0);
    case 'claims':
    case 'releases':
    case 'bisect':
      return 0;
  }
}
