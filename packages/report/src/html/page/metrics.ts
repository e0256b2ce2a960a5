/**
 * A case's engine metrics: per variant, GC by kind per 1,000 operations, GC
 * time share, bytes allocated per operation and the heap when sampling ended
 * (the cells of `--metrics gc`), and for a comparison's candidates the change
 * against their baseline next to the change in time.
 */
import type { PageData } from '../page-data.ts';
import type { PageCaseMetrics } from '../metrics-data.ts';
import { el } from './dom.ts';

interface Labels {
  variant(key: string): string;
  variantSwatch(key: string): HTMLElement;
}

export function caseMetricsBlock(metrics: PageCaseMetrics, data: PageData, labels: Labels): HTMLElement {
  const withChange = metrics.rows.some((r) => r.change !== undefined);
  const notes = [...new Set(metrics.rows.filter((r) => r.note).map((r) => `${labels.variant(r.variant)}: ${r.note}`))];
  const table = el(
    'table',
    { class: 'metrics-table' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', {}, data.table.variantHead),
        withChange ? el('th', {}, 'change against its baseline') : null,
        ...metrics.headers.map((h) => el('th', { class: 'num' }, h)),
      ),
    ),
    el(
      'tbody',
      {},
      ...metrics.rows.map((row) =>
        el(
          'tr',
          { 'data-variant': row.variant },
          el('td', { class: 'variant', title: row.source ? `measured with ${row.source}` : 'no engine metrics recorded' }, labels.variantSwatch(row.variant), labels.variant(row.variant)),
          withChange ? el('td', { class: 'change' }, row.change ?? 'baseline') : null,
          ...row.cells.map((cell) => el('td', { class: `num${cell === 'n/a' ? ' na' : ''}` }, cell)),
        ),
      ),
    ),
  );
  return el(
    'div',
    { class: 'case-metrics' },
    el(
      'h4',
      {},
      'GC and allocation',
      el('span', { class: 'hint' }, ' — sampling phase of each process (warmup excluded), summed over rounds; per 1k ops: by the work done, not per second; young gen / old: the heap when sampling ended, median over rounds; "~": derived, not an engine counter'),
    ),
    el('div', { class: 'scroll' }, table),
    notes.length ? el('ul', { class: 'cell-notes na-notes' }, ...notes.map((n) => el('li', {}, `n/a — ${n}`))) : null,
  );
}
