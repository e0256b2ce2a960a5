/**
 * The columns of a comparison's verdict table, each declared once: its head,
 * the text of its cell (from a case's comparison cells, below), its
 * alignment and its place and classes on the page. The terminal and markdown
 * tables and the page's forest tables render their rows from this one list;
 * each lays out the case itself and paints or emphasises as its format does.
 */

/** A case's comparison as the columns read it (made by cells/run.ts comparisonCells). */
export interface ComparisonCells {
  baseline: string;
  candidate: string;
  ratio: string;
  /** faster / slower / equivalent / inconclusive, or '—' when not compared (the kind, for colouring). */
  verdict: string;
  /** The verdict as the reader sees it: "fewer"/"more" for instruction counts (verdict-words.ts), else as `verdict`. */
  word: string;
  /** "−26.1%", "within ±1%", "~12 more process pairs to decide", or the reason it was not compared. */
  detail: string;
  q: string;
}

/** How a table names the two arms in its heads (the terminal: full labels or A and B; markdown: code spans). */
interface ArmHeads {
  baseline: string;
  candidate: string;
}

export interface ComparisonColumn {
  id: string;
  head(arms: ArmHeads): string;
  text(cells: ComparisonCells): string;
  align: 'left' | 'right';
  /**
   * The verdict: its word and its detail, which the terminal sets in a
   * wrapping column of its own and markdown sets apart by emphasis.
   */
  verdict?: true;
  /**
   * On the page: its head and classes (`coloured` cells add their verdict as
   * a class), the label a narrow window shows, `first`: its rank among the
   * columns set right after the plot, `geomean`: the geomean's ratio stands here.
   */
  page: { head: string; th: string; td: string; coloured?: true; label?: string; first?: number; geomean?: true };
}

/** A verdict's cell as one text: "slower +10%", or why the case was not compared. */
export function verdictText(cells: ComparisonCells): string {
  return cells.ratio ? `${cells.word} ${cells.detail}` : cells.detail;
}

/** The case leads every comparison table; the reporters lay it out themselves (a column, a heading, a link). */
export const COMPARISON_CASE_COLUMN = { head: 'case', th: 'case-name' } as const;

/** Every column after the case, in the order the terminal and markdown show them (the page moves `first` columns forward). */
export const COMPARISON_COLUMNS: ComparisonColumn[] = [
  { id: 'baseline', head: (a) => a.baseline, text: (t) => t.baseline, align: 'right', page: { head: 'baseline', th: 'num', td: 'num baseline-median', label: 'baseline' } },
  { id: 'candidate', head: (a) => a.candidate, text: (t) => t.candidate, align: 'right', page: { head: 'candidate', th: 'num', td: 'num candidate-median', label: 'candidate' } },
  { id: 'ratio', head: () => 'ratio [interval]', text: (t) => t.ratio, align: 'right', page: { head: 'ratio [interval]', th: 'num ratio', td: 'num ratio', label: 'ratio', first: 2, geomean: true } },
  { id: 'verdict', head: () => 'verdict', text: verdictText, align: 'left', verdict: true, page: { head: 'verdict', th: 'verdict', td: 'verdict', coloured: true, first: 1 } },
  { id: 'q', head: () => 'q', text: (t) => t.q, align: 'right', page: { head: 'q', th: 'num', td: 'num q', label: 'q' } },
];

/** The columns in the page's order: the `first` ones by rank, then the rest as declared. */
export function comparisonPageColumns(): ComparisonColumn[] {
  const first = COMPARISON_COLUMNS.filter((c) => c.page.first !== undefined).sort((a, b) => a.page.first! - b.page.first!);
  return [...first, ...COMPARISON_COLUMNS.filter((c) => c.page.first === undefined)];
}

/** A cell's class on the page. */
export function comparisonPageClass(column: ComparisonColumn, cells: ComparisonCells): string {
  return column.page.coloured ? `${column.page.td} ${cells.verdict}` : column.page.td;
}
