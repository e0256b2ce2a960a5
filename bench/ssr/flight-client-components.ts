/**
 * The page's client components (what `'use client'` files hold in an app):
 * rendered to HTML by Fizz after the Flight client decoded the server's
 * references to them. They hold state, as interactive components do.
 */
import { createElement as h, useState } from 'react';
import type { ClientExport } from './flight-manifest.ts';

const price = (cents: number): string => `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

function AddToCart({ id, priceCents, inStock }: { id: number; priceCents: number; inStock: boolean }) {
  const [count] = useState(0);
  return h('button', { type: 'button', className: 'add', 'data-id': id, disabled: !inStock }, inStock ? `Add to cart, ${price(priceCents)} (${count})` : 'Sold out');
}

function Filters({ categories }: { categories: string[] }) {
  const [selected] = useState(categories[0]);
  return h(
    'aside',
    { className: 'filters' },
    h('h2', null, 'Categories'),
    h('ul', null, categories.map((c) => h('li', { key: c }, h('a', { href: `/c/${c}`, className: c === selected ? 'active' : undefined }, c)))),
  );
}

function ReviewForm({ productId }: { productId: number }) {
  const [text] = useState('');
  return h('form', { action: `/p/${productId}/review`, method: 'post' }, h('textarea', { name: 'text', defaultValue: text }), h('button', { type: 'submit' }, 'Post'));
}

/** The module `__webpack_require__` hands the Flight client for CLIENT_MODULE_ID. */
export const clientComponents: Record<ClientExport, unknown> = { AddToCart, Filters, ReviewForm };
