/**
 * React's server renderer, bundled by esbuild with NODE_ENV=production (each
 * runtime gets the build its package.json conditions select: node, bun,
 * browser/edge for deno and workerd), rendering a small product list once at
 * start-up: the shape of a server-rendered page's cold start.
 */
import { createElement as h } from 'react';
import { renderToString } from 'react-dom/server';

const products = Array.from({ length: 20 }, (_, i) => ({ id: i, name: `Product ${i}`, price: (i * 7.25 + 3).toFixed(2), tags: ['new', i % 2 ? 'sale' : 'regular'] }));

function Page(): ReturnType<typeof h> {
  return h(
    'main',
    null,
    h('h1', null, 'Catalogue'),
    h(
      'ul',
      { className: 'products' },
      products.map((p) => h('li', { key: p.id, 'data-id': p.id }, h('span', null, p.name), h('b', null, `$${p.price}`), h('small', null, p.tags.join(', ')))),
    ),
  );
}

const html = renderToString(h(Page));
export default `react ${html.length} chars of html`;
