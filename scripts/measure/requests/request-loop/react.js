// A Workers module that renders a React page with renderToString on every
// request: a table of computed rows, about 1.1 MB of HTML, the same on
// every request and runtime.
import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';

function Row({ n }) {
  return h('tr', { className: n % 2 ? 'odd' : 'even' }, h('td', null, n), h('td', null, h('b', null, (n * n) % 97)), h('td', null, `item ${n} of the computed table`), h('td', null, ((n * 2654435761) % 1000003).toString(16)));
}

function Page({ rows }) {
  return h('html', null, h('body', null, h('h1', null, 'rows'), h('table', null, h('tbody', null, Array.from({ length: rows }, (_, n) => h(Row, { key: n, n }))))));
}

export default {
  fetch() {
    return new Response(`<!doctype html>${renderToString(h(Page, { rows: 10_000 }))}`, { headers: { 'content-type': 'text/html; charset=utf-8' } });
  },
};
