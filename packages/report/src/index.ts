export { formatDuration, formatOps, formatPercent, formatRange } from './format.ts';
export { benchRows, cellTexts, relativeLabel, type BenchRow, type CellTexts } from './bench-table.ts';
export { renderBenchTable, renderRunNotes } from './terminal.ts';
export { renderBenchMarkdown } from './markdown.ts';
