/**
 * The case × variant rows of a view, made once per view kind: what the
 * columns (columns/results.ts) read. A new kind of view of runs is one entry in
 * RESULT_ROWS; every tabular reporter then renders its rows.
 */
import type { CaseResult, RunRecord } from '@rtbench/core/schema';
import { metricOf } from '@rtbench/core/metric';
import { hasEngineMetrics, hasSpans } from '../metrics.ts';
import { rowStats } from '../views/bench.ts';
import { atLevel } from '../views/interval-level.ts';
import type { ArmComparison, BenchView, CaseComparison, ComparisonView, RunView } from '../views/types.ts';
import type { ResultRow, TableFacts } from '../columns/results.ts';
import { verdictText } from '../columns/comparison.ts';
import { benchFacts, benchResultRow, comparisonCells } from './run.ts';

/** How a comparison's case tables name the baseline: the one arm that is no section's candidate, else each arm's own. */
function baselineLabel(view: ComparisonView): string {
  const baselines = view.arms.filter((a) => !view.sections.some((s) => s.candidate.label === a.label));
  return baselines.length === 1 ? baselines[0]!.label : 'its baseline';
}

/** What a comparison's case tables' heads and columns depend on. */
export function comparisonFacts(view: ComparisonView): TableFacts {
  const runs = view.runs.map((r) => r.run);
  return {
    baseline: baselineLabel(view),
    comparison: true,
    ownMetric: runs.some((r) => r.cases.some((c) => c.metric)),
    adaptive: runs.some((r) => r.options.adaptive !== undefined),
    engineMetrics: runs.some(hasEngineMetrics),
    spanned: runs.some(hasSpans),
  };
}

/** One arm's result on a case of a comparison; `section` is the arm's as a candidate (absent: a baseline). */
export function comparisonResultRow(view: ComparisonView, run: RunRecord, result: CaseResult, section: ArmComparison | undefined, row: CaseComparison | undefined): ResultRow {
  const texts = row ? comparisonCells(row, view) : undefined;
  const own = rowStats(result);
  // The median's interval at the view's one level, as its ratios'.
  const stats = own && atLevel(own, view.level);
  return {
    runId: run.id,
    result,
    metric: metricOf(run, result.caseId),
    ...(stats ? { stats } : {}),
    ...(section && row?.comparison ? { against: { baseline: section.baseline.label, ratio: row.comparison } } : {}),
    relative: section ? { text: texts?.ratio ?? '', ...(texts?.ratio && row?.comparison ? { verdict: row.comparison.verdict } : {}) } : { text: 'baseline' },
    verdictText: texts?.ratio ? verdictText(texts) : section ? '' : 'baseline',
  };
}

function benchRows(view: BenchView): ResultRow[] {
  const rows = new Map(view.cases.flatMap((bc) => bc.rows.map((row) => [`${row.caseId}\u0000${row.variantId}`, { row, bc }] as const)));
  return view.run.results.map((result) => {
    const found = rows.get(`${result.caseId}\u0000${result.variantId}`);
    if (found) return benchResultRow(found.row, found.bc.digestMismatch !== undefined, view.run.id, view.baseline.id);
    const own = rowStats(result);
    const stats = own && atLevel(own, view.level);
    return { runId: view.run.id, result, metric: metricOf(view.run, result.caseId), ...(stats ? { stats } : {}), relative: { text: '' } };
  });
}

/** Every result of every run the comparison reads; a candidate's carries its ratio against its section's baseline. */
function comparisonRows(view: ComparisonView): ResultRow[] {
  const candidateRun = view.runs[view.runs.length - 1]!.run;
  return view.runs.flatMap(({ run }) =>
    run.results.map((result) => {
      const section = run.id === candidateRun.id ? view.sections.find((s) => s.candidate.id === result.variantId) : undefined;
      return comparisonResultRow(view, run, result, section, section?.cases.find((c) => c.caseId === result.caseId));
    }),
  );
}

type RowsOf<V> = (view: V) => { facts: TableFacts; rows: ResultRow[] };

/** Per kind of view of runs, its rows and its table's facts. */
const RESULT_ROWS: { [K in RunView['kind']]: RowsOf<Extract<RunView, { kind: K }>> } = {
  bench: (view) => ({ facts: benchFacts(view), rows: benchRows(view) }),
  comparison: (view) => ({ facts: comparisonFacts(view), rows: comparisonRows(view) }),
};

/** A view's case × variant rows (every result of every run it reads) and the facts of their table. */
export function resultRows(view: RunView): { facts: TableFacts; rows: ResultRow[] } {
  return (RESULT_ROWS[view.kind] as RowsOf<RunView>)(view);
}
