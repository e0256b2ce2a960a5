/**
 * The HTTP load section: per measurement a heading row, then each runtime's
 * line as the terminal prints it (html/load-data.ts): connections,
 * requests/s, the latency line, the server's wake-ups and preemptions per
 * request and the error rate (its CPU per request is under each of its CPU
 * cases, as a request case's is). Everything is inserted as text.
 */
import type { PageLoad } from '../load-data.ts';
import { el } from './dom.ts';

interface Labels {
  variant(key: string): string;
  variantSwatch(key: string): HTMLElement;
}

export function loadSection(load: PageLoad, labels: Labels): HTMLElement {
  const width = load.heads.length + 1;
  const table = el(
    'table',
    { class: 'metrics-table load-table' },
    el('thead', {}, el('tr', {}, el('th', {}, 'runtime'), ...load.heads.map((head) => el('th', { class: 'num' }, head)))),
    ...load.measurements.map((m) =>
      el(
        'tbody',
        {},
        el('tr', { class: 'load-measurement' }, el('th', { colspan: String(width) }, m.measurement)),
        ...m.rows.map((row) => el('tr', { 'data-variant': row.variant }, el('td', { class: 'variant' }, labels.variantSwatch(row.variant), labels.variant(row.variant)), ...row.cells.map((cell) => el('td', { class: 'num' }, cell)))),
      ),
    ),
  );
  return el(
    'section',
    { id: 'load' },
    el('h2', {}, 'HTTP load'),
    el('p', { class: 'legend' }, load.key),
    el('div', { class: 'scroll' }, table),
    load.errors.length ? el('ul', { class: 'notes' }, ...load.errors.map((line) => el('li', { class: 'note warning' }, line))) : null,
  );
}
