/**
 * The data a product-listing page renders, drawn from a seed: the same
 * products, prices and reviews on every runtime, so the HTML is the same
 * bytes everywhere and its digest proves it.
 */
import { seededRandom } from '@rtbench/core';

export interface Product {
  id: number;
  name: string;
  brand: string;
  /** In cents: formatted by the page, never a float printed. */
  priceCents: number;
  rating: number;
  reviews: number;
  inStock: boolean;
  tags: string[];
  description: string;
}

export interface Listing {
  title: string;
  categories: string[];
  products: Product[];
}

const WORDS = ['alpine', 'harbor', 'copper', 'meadow', 'signal', 'velvet', 'granite', 'lantern', 'ember', 'willow', 'cobalt', 'summit', 'prairie', 'quartz', 'tundra'];
const BRANDS = ['Northwind', 'Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Vandelay'];
const TAGS = ['new', 'sale', 'eco', 'bestseller', 'limited', 'bundle'];

/** The listing the suite renders: `count` products in 8 categories. */
export function listing(count: number, seed = 67): Listing {
  const rnd = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const products = Array.from({ length: count }, (_, id): Product => ({
    id,
    name: `${pick(WORDS)} ${pick(WORDS)} ${id}`,
    brand: pick(BRANDS),
    priceCents: 199 + Math.floor(rnd() * 50_000),
    rating: 1 + Math.floor(rnd() * 5),
    reviews: Math.floor(rnd() * 2_000),
    inStock: rnd() > 0.2,
    tags: TAGS.filter(() => rnd() > 0.7),
    description: Array.from({ length: 140 + Math.floor(rnd() * 60) }, () => pick(WORDS)).join(' '),
  }));
  return { title: 'Catalogue', categories: WORDS.slice(0, 8), products };
}
