/**
 * A product-listing page written once for every renderer: the components
 * take the renderer's element factory and its useState, so React and Preact
 * render the same tree (a header, a stateful filter panel, one card per
 * product with a stateful rating and cart button, lists with keys, a
 * footer). What differs between the renderers' HTML is only their own
 * spelling (React's text separators, boolean attributes).
 */
import type { Listing, Product } from './data.ts';

/** A renderer's element: opaque to the page. */
export type Node = unknown;
type Props = Record<string, unknown> | null;
type Component<P> = (props: P) => Node;

/** What a page needs of a renderer: createElement / h, and the useState hook. */
export interface Ui {
  h(type: string | Component<never>, props: Props, ...children: unknown[]): Node;
  useState<T>(initial: T): [T, (next: T) => void];
}

const price = (cents: number): string => `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** The page's root element for `data`, built with `ui`. */
export function page(ui: Ui, data: Listing): Node {
  const { h, useState } = ui;

  function Rating({ rating, reviews }: { rating: number; reviews: number }): Node {
    const [open] = useState(false);
    return h(
      'div',
      { className: 'rating', 'aria-label': `${rating} of 5`, 'data-open': String(open) },
      [1, 2, 3, 4, 5].map((star) => h('span', { key: star, className: star <= rating ? 'star on' : 'star' }, '★')),
      h('a', { href: `#reviews`, className: 'reviews' }, reviews, ' reviews'),
    );
  }

  function CartButton({ product }: { product: Product }): Node {
    const [count] = useState(0);
    return h(
      'button',
      { type: 'button', className: 'add', 'data-id': product.id, disabled: !product.inStock },
      product.inStock ? `Add to cart (${count})` : 'Sold out',
    );
  }

  function Card({ product }: { product: Product }): Node {
    return h(
      'li',
      { className: product.inStock ? 'card' : 'card out', 'data-id': product.id },
      h('div', { className: 'head' }, h('h3', null, h('a', { href: `/p/${product.id}` }, product.name)), h('span', { className: 'brand' }, product.brand)),
      h('img', { src: `/img/${product.id}-320.webp`, srcSet: `/img/${product.id}-320.webp 320w, /img/${product.id}-640.webp 640w`, alt: product.name, width: 320, height: 240, loading: 'lazy' }),
      h('p', { className: 'description', title: product.name }, product.description),
      h('p', { className: 'price' }, h('strong', null, price(product.priceCents)), product.priceCents > 25_000 ? h('small', null, ' free shipping') : null),
      h(Rating as Component<never>, { rating: product.rating, reviews: product.reviews }),
      h('ul', { className: 'tags' }, product.tags.map((tag) => h('li', { key: tag, className: `tag ${tag}` }, tag))),
      h(CartButton as Component<never>, { product }),
    );
  }

  function Filters({ categories }: { categories: string[] }): Node {
    const [selected] = useState(categories[0]);
    return h(
      'aside',
      { className: 'filters' },
      h('h2', null, 'Categories'),
      h(
        'ul',
        null,
        categories.map((c) => h('li', { key: c }, h('a', { href: `/c/${c}`, className: c === selected ? 'active' : undefined }, c))),
      ),
    );
  }

  function Page({ listing }: { listing: Listing }): Node {
    const inStock = listing.products.filter((p) => p.inStock).length;
    return h(
      'div',
      { id: 'app', className: 'page' },
      h('header', null, h('h1', null, listing.title), h('nav', null, ['Home', 'Deals', 'Account', 'Cart'].map((n) => h('a', { key: n, href: `/${n.toLowerCase()}` }, n)))),
      h(Filters as Component<never>, { categories: listing.categories }),
      h(
        'main',
        null,
        h('p', { className: 'summary' }, listing.products.length, ' products, ', inStock, ' in stock'),
        h('ul', { className: 'grid' }, listing.products.map((product) => h(Card as Component<never>, { key: product.id, product }))),
      ),
      h('footer', null, h('small', null, '© Catalogue')),
    );
  }

  return h(Page as Component<never>, { listing: data });
}
