export { formatChange, formatDuration, formatMetric, formatMetricRange, formatOps, formatPercent, formatQ, formatRange, formatRatio, formatThreshold, ratioWithCi } from './format.ts';
export { firstLine, jsonPrintable, markdownCell, printable, shellQuote } from './text.ts';
export * from './views/index.ts';
export { REPORTERS, FORMAT_ALIASES, reporterFor, formatNames, type Reporter, type ReporterOptions } from './reporters/index.ts';
export { benchCells, comparisonCells, relativeText, type BenchCells, type ComparisonCells } from './reporters/cells.ts';
export { boxLine, dotLine, casePlot } from './reporters/plot.ts';
export { renderGrid, wrapWords, type Cell, type GridColumn, type GridRow } from './reporters/grid.ts';
export { formatBytes, formatRate, metricsCells, metricsChange, metricsRowCells, metricsRows, minorGcName, NOT_AVAILABLE, samplingIterations, summarizeMetrics, type MetricsCells, type MetricsRow, type MetricsSummary } from './metrics.ts';
export { lookupInRun, renderMetricsChanges, renderMetricsMarkdown, renderMetricsTable, type ComparisonSections, type ResultLookup } from './metrics-render.ts';
