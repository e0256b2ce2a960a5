/**
 * `--metrics <view>`: an engine-metrics view printed after the main view, in
 * the terminal and markdown formats (json, csv and html carry the run, whose
 * rounds hold the metrics). Only "gc" exists: GC by kind, allocation per op,
 * heap state; under a comparison, their change next to the change in time.
 */
import { lookupInRun, renderMetricsChanges, renderMetricsMarkdown, renderMetricsTable, type ResultLookup, type View } from '@rtbench/report';
import { UsageError } from './errors.ts';

export type MetricsView = 'gc';

export function parseMetricsView(value: unknown): MetricsView | undefined {
  if (value === undefined) return undefined;
  if (value === 'gc') return 'gc';
  throw new UsageError(`--metrics ${String(value)}: expected gc (GC by kind, allocation per op and heap state)`);
}

/** The metrics text to print after `view` in `format`, or nothing. */
export function metricsSection(view: View, format: string, metrics: MetricsView | undefined): string | undefined {
  if (metrics !== 'gc' || (format !== 'terminal' && format !== 'markdown') || view.kind === 'history' || view.kind === 'claims') return undefined;
  if (view.kind === 'bench') return format === 'markdown' ? `\n${renderMetricsMarkdown(view.run)}` : `${renderMetricsTable(view.run)}\n`;
  const [first, second] = view.runs;
  // Unpaired: the baseline's results are in the first run, the candidate's in the second.
  const lookup: ResultLookup = second ? (arm, caseId, side) => lookupInRun((side === 'baseline' ? first! : second).run)(arm, caseId, side) : lookupInRun(view.run);
  return renderMetricsChanges(view, lookup, format === 'markdown' ? 'markdown' : 'table');
}
