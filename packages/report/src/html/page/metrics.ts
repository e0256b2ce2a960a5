/**
 * A case's engine metrics: per variant, GC by kind per 1,000 operations, GC
 * time share, bytes allocated per operation and the heap when sampling ended
 * (the cells of `--metrics gc`), and for a comparison's candidates the change
 * against their baseline next to the change in time.
 */
import type { PageData } from '../page-data.ts';
import type { PageCaseMetrics } from '../metrics-data.ts';
import { el, variantTable } from './dom.ts';

interface Labels {
  variant(key: string): string;
  variantSwatch(key: string): HTMLElement;
}

const GC_HEADING = {
  title: 'GC and allocation',
  hint: ' — sampling phase of each process (warmup excluded), summed over rounds; per 1k ops: by the work done, not per second; young gen / old: the heap when sampling ended, median over rounds; "~": derived, not an engine counter',
  tableClass: 'metrics-table',
};

/** The memory view's heading: what its columns are (report memory.ts says the same under the text table). */
export const MEMORY_HEADING = {
  title: 'Memory',
  hint: ' — peak RSS while open: the most resident memory of the process while the case was open (read by the host from /proc), median over rounds; case added at peak: less what it already held as the case opened (rounds where the case came after another in its process, where any did); heap held / off-heap at end: what the engine said when sampling ended; RSS grew per call: the resident set over the later half of the samples; kept growing every round: LEAK only when every round kept growing past the collections at both ends, with what the engine held more per call (held) where it says',
  tableClass: 'metrics-table memory-table',
};

export function caseMetricsBlock(metrics: PageCaseMetrics, data: PageData, labels: Labels, heading: typeof GC_HEADING = GC_HEADING): HTMLElement {
  const withChange = metrics.rows.some((r) => r.change !== undefined);
  const notes = [...new Set(metrics.rows.filter((r) => r.note).map((r) => `${labels.variant(r.variant)}: ${r.note}`))];
  const table = variantTable(
    heading.tableClass,
    [el('th', {}, data.table.variantHead), withChange ? el('th', {}, 'change against its baseline') : null, ...metrics.headers.map((h) => el('th', { class: 'num' }, h))],
    metrics.rows.map((row) => ({
      variant: row.variant,
      cells: [
        el('td', { class: 'variant', title: row.source ? `measured with ${row.source}` : heading === GC_HEADING ? 'no engine metrics recorded' : 'read by the host from /proc' }, labels.variantSwatch(row.variant), labels.variant(row.variant)),
        withChange ? el('td', { class: 'change' }, row.change ?? 'baseline') : null,
        ...row.cells.map((cell) => el('td', { class: `num${cell === 'n/a' ? ' na' : ''}` }, cell)),
      ],
    })),
  );
  return el(
    'div',
    { class: 'case-metrics' },
    el('h4', {}, heading.title, el('span', { class: 'hint' }, heading.hint)),
    el('div', { class: 'scroll' }, table),
    notes.length ? el('ul', { class: 'cell-notes na-notes' }, ...notes.map((n) => el('li', {}, `n/a — ${n}`))) : null,
  );
}
