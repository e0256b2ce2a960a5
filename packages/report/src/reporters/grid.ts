/**
 * A borderless text table for the terminal that fits a width. Borders cost
 * three columns per column, and a 100-column terminal has none to spare; the
 * layout choices (case names as headings, short arm labels) are the
 * caller's, this file only measures, pads and wraps.
 *
 * Cells carry their colour as a function rather than as escape codes, so
 * widths are measured on the text and a wrapped cell is painted line by line.
 */
export type Paint = (s: string) => string;

export type Cell = string | { text: string; paint: Paint };

export interface GridColumn {
  head: string;
  align: 'left' | 'right';
  /** This column's text may wrap onto more lines when the grid is wider than its limit (one column at most). */
  wrap?: boolean;
}

export type GridRow =
  /** A line of its own (a case name above its rows); not measured. */
  | { heading: string }
  /** `tail`, when given, follows the cells and spans the columns after them (a reason instead of figures). */
  | { cells: Cell[]; tail?: Cell };

export interface GridOptions {
  /** The widest a line may be; a wrap column narrows to fit it. */
  maxWidth: number;
  /** Paint for the header row. */
  bold: Paint;
  dim: Paint;
}

const GAP = '  ';
/** A wrap column never narrows below this. */
const MIN_WRAP = 16;

const textOf = (c: Cell): string => (typeof c === 'string' ? c : c.text);
const paintOf = (c: Cell): Paint => (typeof c === 'string' ? (s) => s : c.paint);

/** Columns a string takes (code points; the tables hold no wide characters). */
function textWidth(s: string): number {
  return [...s].length;
}

/** Words of `text` in lines of at most `width` columns (a longer word gets a line of its own). */
export function wrapWords(text: string, width: number): string[] {
  // Leading spaces (an indent) stay on the first line.
  const indent = /^ */.exec(text)![0];
  const lines: string[] = [];
  let line = indent;
  for (const word of text.slice(indent.length).split(/ +/)) {
    if (line.trim() && textWidth(line) + 1 + textWidth(word) > width) {
      lines.push(line);
      line = word;
    } else line = line.trim() ? `${line} ${word}` : line + word;
  }
  return [...lines, line];
}

function pad(text: string, width: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, width - textWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}

/** Natural column widths: the widest head or cell of each. */
function naturalWidths(columns: readonly GridColumn[], rows: readonly GridRow[]): number[] {
  return columns.map((col, i) => Math.max(textWidth(col.head), ...rows.map((r) => ('cells' in r && r.cells[i] !== undefined ? textWidth(textOf(r.cells[i]!)) : 0))));
}

/** How wide the grid's lines are with these column widths and indent. */
function gridWidth(widths: readonly number[], indent: number): number {
  return indent + widths.reduce((a, b) => a + b, 0) + GAP.length * (widths.length - 1);
}

/** The natural width of a grid: what it takes without wrapping. */
export function naturalGridWidth(columns: readonly GridColumn[], rows: readonly GridRow[]): number {
  const indent = rows.some((r) => 'heading' in r) ? 2 : 0;
  return gridWidth(naturalWidths(columns, rows), indent);
}

/** The grid's lines: header, a rule, then the rows (rows indented by two under headings). */
export function renderGrid(columns: readonly GridColumn[], rows: readonly GridRow[], options: GridOptions): string[] {
  const indent = rows.some((r) => 'heading' in r) ? 2 : 0;
  const widths = naturalWidths(columns, rows);
  const wrapAt = columns.findIndex((c) => c.wrap);
  const over = gridWidth(widths, indent) - options.maxWidth;
  if (wrapAt >= 0 && over > 0) widths[wrapAt] = Math.max(MIN_WRAP, textWidth(columns[wrapAt]!.head), widths[wrapAt]! - over);
  const lead = ' '.repeat(indent);
  const line = (parts: string[]): string => (lead + parts.join(GAP)).trimEnd();
  const out = [line(columns.map((c, i) => options.bold(pad(c.head, widths[i]!, c.align)))), options.dim(`${lead}${'─'.repeat(gridWidth(widths, 0))}`)];
  for (const row of rows) {
    if ('heading' in row) {
      out.push(row.heading);
      continue;
    }
    // Each cell as lines (one unless it wraps); the row is as tall as its tallest cell.
    const cellLines = row.cells.map((c, i) => (i === wrapAt && textWidth(textOf(c)) > widths[i]! ? wrapWords(textOf(c), widths[i]!) : [textOf(c)]));
    const height = Math.max(1, ...cellLines.map((l) => l.length));
    for (let k = 0; k < height; k++) {
      const parts = row.cells.map((c, i) => paintOf(c)(pad(cellLines[i]![k] ?? '', widths[i]!, columns[i]!.align)));
      if (row.tail !== undefined && k === 0) parts.push(paintOf(row.tail)(textOf(row.tail)));
      out.push(line(parts));
    }
  }
  return out;
}
