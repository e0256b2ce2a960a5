/**
 * A borderless text table for the terminal that fits a width. Borders cost
 * three columns per column, and a 100-column terminal has none to spare; the
 * layout choices (case names as headings, short arm labels) are the
 * caller's, this file only measures, pads and wraps.
 *
 * Cells carry their colour as a function rather than as escape codes, so
 * widths are measured on the text and a wrapped cell is painted line by line.
 * Widths are display widths (../width.ts): a CJK name takes two columns a character.
 */
import { cutToWidth, displayWidth, padToWidth } from '../width.ts';

export type Paint = (s: string) => string;

export type Cell = string | { text: string; paint: Paint };

export interface GridColumn {
  head: string;
  /** A second line under the head, where one line cannot say what the column answers within its width. */
  under?: string;
  align: 'left' | 'right';
  /** This column's text may wrap onto more lines when the grid is wider than its limit (one column at most). */
  wrap?: boolean;
  /**
   * This column may be left out when the grid is wider than its limit: the
   * lowest first (fitGrid). A column without it is always shown.
   */
  drop?: number;
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

/** SGR (colour) sequences, which take no column on screen. */
const SGR = /\x1b\[[0-9;]*m/g;


/** Words of `text` in lines of at most `width` columns (a longer word is cut into lines of its own). */
export function wrapWords(text: string, width: number): string[] {
  // Leading spaces (an indent) stay on the first line.
  const indent = /^ */.exec(text)![0];
  const lines: string[] = [];
  let line = indent;
  for (const word of text.slice(indent.length).split(/ +/).flatMap((w) => cutToWidth(w, width))) {
    if (line.trim() && displayWidth(line) + 1 + displayWidth(word) > width) {
      lines.push(line);
      line = word;
    } else line = line.trim() ? `${line} ${word}` : line + word;
  }
  return [...lines, line];
}

/** Natural column widths: the widest head or cell of each. */
function naturalWidths(columns: readonly GridColumn[], rows: readonly GridRow[]): number[] {
  return columns.map((col, i) => Math.max(displayWidth(col.head), displayWidth(col.under ?? ''), ...rows.map((r) => ('cells' in r && r.cells[i] !== undefined ? displayWidth(textOf(r.cells[i]!)) : 0))));
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

/** What fitGrid left of a grid: the columns and rows shown, and the heads it left out with the width that shows them all. */
export interface FittedGrid {
  columns: GridColumn[];
  rows: GridRow[];
  dropped: string[];
  /** The natural width with every column. */
  fullWidth: number;
}

/**
 * The fitting rule of a table wider than `maxWidth`: its droppable columns
 * are left out, lowest `drop` first, until it fits or none is left (a wrap
 * column then narrows in renderGrid). Callers say what was left out.
 */
export function fitGrid(columns: readonly GridColumn[], rows: readonly GridRow[], maxWidth: number): FittedGrid {
  const fullWidth = naturalGridWidth(columns, rows);
  const order = columns.map((c, i) => ({ drop: c.drop, i })).filter((c): c is { drop: number; i: number } => c.drop !== undefined).sort((a, b) => a.drop - b.drop);
  const gone = new Set<number>();
  const keep = <T>(xs: readonly T[]): T[] => xs.filter((_, i) => !gone.has(i));
  const fitted = (): { columns: GridColumn[]; rows: GridRow[] } => ({ columns: keep(columns), rows: rows.map((r) => ('cells' in r ? { ...r, cells: keep(r.cells) } : r)) });
  for (const { i } of order) {
    const now = fitted();
    if (naturalGridWidth(now.columns, now.rows) <= maxWidth) break;
    gone.add(i);
  }
  return { ...fitted(), dropped: columns.filter((_, i) => gone.has(i)).map((c) => c.head), fullWidth };
}

/** `s` without the spaces that end it on screen, its colour codes kept (a painted, padded last cell ends in both). */
function trimEndVisible(s: string): string {
  let out = s.trimEnd();
  for (let before = ''; before !== out; ) {
    before = out;
    out = out.replace(/ +((?:\x1b\[[0-9;]*m)+)$/, '$1');
  }
  return out;
}

/** A heading as lines of at most `width` columns: as it is when it fits, else its words wrapped and painted. */
function headingLines(heading: string, width: number, paint: Paint): string[] {
  if (displayWidth(heading) <= width) return [heading];
  return wrapWords(heading.replace(SGR, ''), width).map(paint);
}

/** The grid's lines: header (two lines where a column has `under`), a rule, then the rows (indented by two under headings). */
export function renderGrid(columns: readonly GridColumn[], rows: readonly GridRow[], options: GridOptions): string[] {
  const indent = rows.some((r) => 'heading' in r) ? 2 : 0;
  const widths = naturalWidths(columns, rows);
  const wrapAt = columns.findIndex((c) => c.wrap);
  const over = gridWidth(widths, indent) - options.maxWidth;
  if (wrapAt >= 0 && over > 0) widths[wrapAt] = Math.max(MIN_WRAP, displayWidth(columns[wrapAt]!.head), displayWidth(columns[wrapAt]!.under ?? ''), widths[wrapAt]! - over);
  const lead = ' '.repeat(indent);
  const line = (parts: string[]): string => trimEndVisible(lead + parts.join(GAP));
  const heads = columns.some((c) => c.under !== undefined) ? [(c: GridColumn) => c.head, (c: GridColumn) => c.under ?? ''] : [(c: GridColumn) => c.head];
  const out = [...heads.map((head) => line(columns.map((c, i) => options.bold(padToWidth(head(c), widths[i]!, c.align))))), options.dim(`${lead}${'─'.repeat(gridWidth(widths, 0))}`)];
  for (const row of rows) {
    if ('heading' in row) {
      out.push(...headingLines(row.heading, options.maxWidth, options.bold));
      continue;
    }
    // Each cell as lines (one unless it wraps); the row is as tall as its tallest cell.
    const cellLines = row.cells.map((c, i) => (i === wrapAt && displayWidth(textOf(c)) > widths[i]! ? wrapWords(textOf(c), widths[i]!) : [textOf(c)]));
    const height = Math.max(1, ...cellLines.map((l) => l.length));
    for (let k = 0; k < height; k++) {
      const parts = row.cells.map((c, i) => paintOf(c)(padToWidth(cellLines[i]![k] ?? '', widths[i]!, columns[i]!.align)));
      if (row.tail !== undefined && k === 0) parts.push(paintOf(row.tail)(textOf(row.tail)));
      out.push(line(parts));
    }
  }
  return out;
}

/**
 * A line within `width` columns: as it is when it fits, else its words
 * wrapped, the lines after the first indented two more than it. `paint`
 * colours each line (a painted line wraps on its text, not its codes).
 */
export function fitLine(line: string, width: number, paint: Paint = (s) => s): string[] {
  if (displayWidth(line) <= width) return [paint(line)];
  const indent = /^ */.exec(line)![0].length;
  return wrapWords(line.slice(indent), Math.max(MIN_WRAP, width - indent - 2)).map((l, i) => paint(' '.repeat(i === 0 ? indent : indent + 2) + l));
}

/** A command line's shell words: split at spaces outside quotes, so a quoted filter stays one word. */
function shellWords(command: string): string[] {
  return command.match(/(?:[^\s'"]+|'[^']*'|"(?:\\.|[^"\\])*")+/g) ?? [];
}

/**
 * A command to copy, within `width` columns where its words allow: broken
 * between shell words with a trailing ` \` (the shell joins the lines again),
 * the lines after the first indented by four more. A single word longer
 * than the line stays whole: cut, it would no longer run.
 */
export function fitCommand(command: string, width: number, indent = ''): string[] {
  if (displayWidth(indent + command) <= width) return [indent + command];
  const lines: string[] = [];
  let line = indent;
  for (const word of shellWords(command)) {
    const start = line.trim() === '';
    if (!start && displayWidth(line) + 1 + displayWidth(word) + 2 > width) {
      lines.push(`${line} \\`);
      line = `${indent}    ${word}`;
    } else line = start ? line + word : `${line} ${word}`;
  }
  return [...lines, line];
}
