/**
 * A React/Next.js-style flight payload, generated deterministically from a
 * seed: a tree of ["$", tag, key, props] elements (nested arrays of objects)
 * next to the data the page renders (objects with strings, numbers, booleans
 * and ISO dates). Same seed and size, same bytes, on every runtime.
 */

import { seededRandom } from '@rtbench/core';

const WORDS = ['alpha', 'river', 'stone', 'quiet', 'ember', 'north', 'lumen', 'cedar', 'orbit', 'delta', 'frost', 'amber', 'pixel', 'tidal', 'vivid'];
const TAGS = ['div', 'span', 'li', 'a', 'p', 'section', 'h3'];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function makeProduct(rnd: () => number, id: number): Json {
  const word = (): string => WORDS[Math.floor(rnd() * WORDS.length)]!;
  // Dates spread over 2024-2025, always whole seconds: ISO strings round-trip exactly.
  const ms = Date.UTC(2024, 0, 1) + Math.floor(rnd() * 730 * 86_400) * 1000;
  return {
    id,
    sku: `${word()}-${Math.floor(rnd() * 1e6)}`,
    name: `${word()} ${word()} ${word()}`,
    price: Math.round(rnd() * 100_000) / 100,
    rating: Math.round(rnd() * 50) / 10,
    inStock: rnd() > 0.3,
    featured: rnd() > 0.9,
    tags: [word(), word(), word()],
    updatedAt: new Date(ms).toISOString(),
    dimensions: { w: Math.floor(rnd() * 300), h: Math.floor(rnd() * 300), d: Math.floor(rnd() * 300) },
  };
}

function makeElement(rnd: () => number, depth: number): Json {
  const tag = TAGS[Math.floor(rnd() * TAGS.length)]!;
  const children: Json[] = [];
  const n = depth > 0 ? 1 + Math.floor(rnd() * 3) : 0;
  for (let i = 0; i < n; i++) children.push(makeElement(rnd, depth - 1));
  const props: { [key: string]: Json } = { className: `c-${Math.floor(rnd() * 1000)}` };
  props.children = children.length ? children : `${WORDS[Math.floor(rnd() * WORDS.length)]} ${Math.floor(rnd() * 100)}`;
  if (rnd() > 0.7) props.hidden = false;
  return ['$', tag, rnd() > 0.5 ? `k${Math.floor(rnd() * 1e5)}` : null, props];
}

/** JSON text of about `bytes` bytes (never less), built from `seed`. */
export function flightDocument(bytes: number, seed = 0x5eed): string {
  const rnd = seededRandom(seed);
  const doc = { tree: [] as Json[], products: [] as Json[], page: { locale: 'en-US', draft: false, version: 3 } };
  // Grow by the serialized size of each addition (+1 for its comma) instead
  // of re-serializing the whole document each time.
  let size = JSON.stringify(doc).length;
  let id = 1;
  while (size < bytes) {
    const element = makeElement(rnd, 3);
    doc.tree.push(element);
    size += JSON.stringify(element).length + 1;
    for (let i = 0; i < 4; i++) {
      const product = makeProduct(rnd, id++);
      doc.products.push(product);
      size += JSON.stringify(product).length + 1;
    }
  }
  return JSON.stringify(doc);
}

/** Sizes the suite runs, in bytes. */
export const SIZES = { '10kb': 10 * 1024, '500kb': 500 * 1024 } as const;
export type SizeName = keyof typeof SIZES;
