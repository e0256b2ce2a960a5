// A Workers module that renders a React page as a server would, about 2 MB:
// a thousand items, each with a long description and stamped with
// Date.now(), and the time in the reader's locale. No two responses are
// equal; every one is the same work.
import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';

function Item({ n }) {
  return h('li', { className: n % 2 ? 'odd' : 'even' }, h('h3', null, `Item ${n}`), h('p', null, `${(n * n) % 97} of ${n + 1}`), h('p', null, Array.from({ length: 60 }, (_, k) => `part ${k} of item ${n}, ${(n * 31 + k * 7) % 1009} units`).join('; ')), h('span', null, `Timestamp: ${Date.now()}`));
}

function Page() {
  return h('html', null, h('body', null, h('header', null, `Rendered ${new Date().toLocaleString()}`), h('ul', null, Array.from({ length: 1000 }, (_, n) => h(Item, { key: n, n })))));
}

export default {
  fetch() {
    return new Response(`<!doctype html>${renderToString(h(Page))}`, { headers: { 'content-type': 'text/html; charset=utf-8' } });
  },
};
