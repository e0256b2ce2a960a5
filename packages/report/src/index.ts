export { formatDuration, formatMetric, formatMetricRange, formatOps, formatPercent, formatRange } from './format.ts';
export { benchRows, cellTexts, relativeLabel, type BenchRow, type CellTexts } from './bench-table.ts';
export { renderBenchTable, renderRunNotes } from './terminal.ts';
export { renderBenchMarkdown } from './markdown.ts';
export type { ArmComparison, ArmInfo, ArmStat, CaseComparison, ComparisonReport, RunSource } from './compare-model.ts';
export { armFlags, armVersion, comparisonCells, formatChange, formatQ, formatRatio, ratioWithCi, type ComparisonCells } from './compare-cells.ts';
export { renderComparisonTable } from './compare-terminal.ts';
export { renderComparisonMarkdown } from './compare-markdown.ts';
