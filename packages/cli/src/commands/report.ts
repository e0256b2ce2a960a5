/** `rtbench report [run.json]`: render a saved run again (table, markdown or JSON). */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { renderBenchMarkdown, renderBenchTable, renderMetricsMarkdown, renderMetricsTable, renderRunNotes } from '@rtbench/report';
import { parseMetricsView } from '../metrics-view.ts';
import { UsageError } from '../errors.ts';
import { resultsDir } from '../paths.ts';
import { readRun } from '../results-file.ts';
import { computeStats } from '../run.ts';
import { compareFilesCommand } from './compare.ts';

/** The newest run saved under results/. */
export function latestRun(dir = resultsDir): string {
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  } catch {
    /* no results yet */
  }
  const last = files[files.length - 1];
  if (!last) throw new UsageError(`no saved runs in ${dir}; run \`pnpm bench <suite>\` first or name a file`);
  return join(dir, last);
}

export function reportCommand(file: string | undefined, format: string, metrics?: string): number {
  const metricsView = parseMetricsView(metrics);
  const path = file ?? latestRun();
  const run = readRun(path);
  // A run cut off hard (killed, power loss) was saved before its statistics.
  computeStats(run);
  // A comparison run is reported as a comparison: verdicts, not a bench table.
  if (run.mode === 'compare' && format !== 'json') return compareFilesCommand([path], { format, ...(metrics !== undefined ? { metrics } : {}) });
  switch (format) {
    case 'table':
      process.stdout.write(`${renderBenchTable(run)}\n${renderRunNotes(run)}\n`);
      if (metricsView === 'gc') process.stdout.write(`${renderMetricsTable(run)}\n`);
      break;
    case 'markdown':
    case 'md':
      process.stdout.write(renderBenchMarkdown(run));
      if (metricsView === 'gc') process.stdout.write(`\n${renderMetricsMarkdown(run)}`);
      break;
    case 'json':
      process.stdout.write(`${JSON.stringify(run)}\n`);
      break;
    default:
      throw new UsageError(`--format ${format}: expected table, markdown or json`);
  }
  return 0;
}
