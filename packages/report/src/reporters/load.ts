/**
 * HTTP load (views/load.ts) as a terminal table or markdown: per measurement
 * and variant one line of medians (requests/s, the latency line, the
 * server's wake-ups per request) and the error rate. This file only lays the
 * section out.
 */
import { loadCells, loadErrorLines, loadHeads, loadKey } from '../cells/load.ts';
import { renderGrid, wrapWords, type GridColumn, type GridRow } from './grid.ts';
import { markdownCell } from '../text.ts';
import type { LoadSection } from '../views/load.ts';

export function loadTerminal(section: LoadSection, maxWidth: number, bold: (s: string) => string, dim: (s: string) => string): string[] {
  const columns: GridColumn[] = [{ head: 'runtime', align: 'left' }, ...loadHeads(section).map((head): GridColumn => ({ head, align: 'right' }))];
  const rows: GridRow[] = [];
  let previous: string | undefined;
  for (const row of section.rows) {
    if (row.measurement !== previous) rows.push({ heading: bold(row.measurement) });
    rows.push({ cells: [row.variantId, ...loadCells(section, row)] });
    previous = row.measurement;
  }
  const lines = ['', bold('HTTP load (medians over rounds)'), ...renderGrid(columns, rows, { maxWidth, bold, dim })];
  for (const line of loadErrorLines(section)) lines.push(...wrapWords(line, maxWidth));
  lines.push(...wrapWords(loadKey(section), maxWidth).map(dim));
  return lines;
}

export function loadMarkdown(section: LoadSection): string[] {
  const heads = loadHeads(section);
  const lines = ['', '#### HTTP load (medians over rounds)', '', `| case | runtime | ${heads.join(' | ')} |`, `|---|---|${heads.map(() => '--:').join('|')}|`];
  let previous: string | undefined;
  for (const row of section.rows) {
    lines.push(`| ${row.measurement === previous ? '' : markdownCell(row.measurement)} | ${markdownCell(row.variantId)} | ${loadCells(section, row).join(' | ')} |`);
    previous = row.measurement;
  }
  for (const line of loadErrorLines(section)) lines.push('', `> ${markdownCell(line)}`);
  lines.push('', `<sub>${markdownCell(loadKey(section))}</sub>`);
  return lines;
}
