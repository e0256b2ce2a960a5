/**
 * The Server Components half of the Flight page: bundled as a module graph
 * of its own with the `react-server` condition (index.ts imports it `with {
 * conditions: 'react-server' }`), so `react` here is React's server build
 * and react-server-dom-webpack's server renderer accepts it. Server
 * components await their data and are wrapped in Suspense boundaries; the
 * client components are references from the manifest, rendered by Fizz.
 */
import { createElement as h, Suspense, type ReactNode } from 'react';
import { registerClientReference, renderToReadableStream } from 'react-server-dom-webpack/server.edge';
import type { Listing, Product } from './data.ts';
import { CLIENT_MODULE_ID, clientManifest, type ClientExport } from './flight-manifest.ts';

/** What the page shows besides the listing: reviews, a few hundred of them. */
export interface Review {
  id: number;
  productId: number;
  author: string;
  stars: number;
  text: string;
}

/** A client component as the server sees it: a reference to its module and export, never called here. */
function clientReference<P>(name: ClientExport): (props: P) => ReactNode {
  return registerClientReference(
    () => {
      throw new Error(`${name} is a client component: the server renders a reference to it`);
    },
    CLIENT_MODULE_ID,
    name,
  );
}

const client = {
  AddToCart: clientReference<{ id: number; priceCents: number; inStock: boolean }>('AddToCart'),
  Filters: clientReference<{ categories: string[] }>('Filters'),
  ReviewForm: clientReference<{ productId: number }>('ReviewForm'),
} satisfies Record<ClientExport, unknown>;

const price = (cents: number): string => `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** Data as a server component gets it: awaited (resolved in a microtask: no timer, the same order everywhere). */
const load = <T>(value: T): Promise<T> => Promise.resolve(value);

function Card({ product }: { product: Product }) {
  return h(
    'li',
    { className: product.inStock ? 'card' : 'card out', 'data-id': product.id },
    h('div', { className: 'head' }, h('h3', null, h('a', { href: `/p/${product.id}` }, product.name)), h('span', { className: 'brand' }, product.brand)),
    h('img', { src: `/img/${product.id}-320.webp`, srcSet: `/img/${product.id}-320.webp 320w, /img/${product.id}-640.webp 640w`, alt: product.name, width: 320, height: 240, loading: 'lazy' }),
    h('p', { className: 'description' }, product.description),
    h('p', { className: 'price' }, h('strong', null, price(product.priceCents)), product.priceCents > 25_000 ? h('small', null, ' free shipping') : null),
    h('div', { className: 'rating', 'aria-label': `${product.rating} of 5` }, [1, 2, 3, 4, 5].map((star) => h('span', { key: star, className: star <= product.rating ? 'star on' : 'star' }, '★'))),
    h('ul', { className: 'tags' }, product.tags.map((tag) => h('li', { key: tag, className: `tag ${tag}` }, tag))),
    h(client.AddToCart, { id: product.id, priceCents: product.priceCents, inStock: product.inStock }),
  );
}

async function Section({ category, products }: { category: string; products: Product[] }) {
  const shown = await load(products);
  return h('section', { className: 'category' }, h('h2', null, category), h('ul', { className: 'grid' }, shown.map((product) => h(Card, { key: product.id, product }))));
}

async function Reviews({ reviews }: { reviews: Review[] }) {
  const shown = await load(reviews);
  return h(
    'section',
    { className: 'reviews' },
    h('h2', null, 'Reviews'),
    h('ol', null, shown.map((r) => h('li', { key: r.id }, h('b', null, r.author), ` ${'★'.repeat(r.stars)} `, h('a', { href: `/p/${r.productId}` }, `#${r.productId}`), h('p', null, r.text)))),
    h(client.ReviewForm, { productId: shown[0]?.productId ?? 0 }),
  );
}

function Page({ listing, reviews, sections }: { listing: Listing; reviews: Review[]; sections: number }) {
  const fallback = h('p', { className: 'loading' }, 'Loading…');
  return h(
    'html',
    { lang: 'en' },
    h('head', null, h('meta', { charSet: 'utf-8' }), h('title', null, listing.title)),
    h(
      'body',
      null,
      h('header', null, h('h1', null, listing.title), h('nav', null, ['Home', 'Deals', 'Account', 'Cart'].map((n) => h('a', { key: n, href: `/${n.toLowerCase()}` }, n)))),
      h(client.Filters, { categories: listing.categories }),
      h(
        'main',
        null,
        listing.categories.slice(0, sections).map((category, i) =>
          h(Suspense, { key: category, fallback }, h(Section, { category, products: listing.products.filter((p) => p.id % sections === i) })),
        ),
        h(Suspense, { fallback }, h(Reviews, { reviews })),
      ),
      h('footer', null, h('small', null, '© Catalogue')),
    ),
  );
}

/**
 * The Flight stream of the page, as a framework's server renders it for a
 * request, and the errors the render reported (a component that threw is a
 * row in the stream, not an exception): the caller fails the case on one.
 */
export function renderFlight(listing: Listing, reviews: Review[], sections: number): { stream: ReadableStream<Uint8Array>; errors: unknown[] } {
  const errors: unknown[] = [];
  const stream = renderToReadableStream(h(Page, { listing, reviews, sections }), clientManifest, { onError: (error) => void errors.push(error) });
  return { stream, errors };
}
