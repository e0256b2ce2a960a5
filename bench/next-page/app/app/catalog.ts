// The page's data, computed on the server for each request (no I/O): a seeded
// catalog, so every runtime computes the same products in the same order.
export interface Product {
  id: number;
  name: string;
  category: string;
  priceCents: number;
  rating: number;
  tags: string[];
  blurb: string;
}

const WORDS = ['amber', 'basalt', 'cedar', 'delta', 'ember', 'fjord', 'garnet', 'harbor', 'indigo', 'juniper', 'kestrel', 'lumen', 'meadow', 'nimbus', 'onyx', 'prairie'];
const CATEGORIES = ['kitchen', 'garden', 'office', 'outdoor', 'lighting', 'storage'];

/** A small deterministic generator (mulberry32): the same sequence on every runtime. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function buildCatalog(count: number, seed: number): Product[] {
  const random = seeded(seed);
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  return Array.from({ length: count }, (_, id) => ({
    id,
    name: `${pick(WORDS)} ${pick(WORDS)} ${id}`,
    category: pick(CATEGORIES),
    priceCents: 199 + Math.floor(random() * 20_000),
    rating: Math.round(random() * 50) / 10,
    tags: Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(WORDS)),
    blurb: Array.from({ length: 12 + Math.floor(random() * 12) }, () => pick(WORDS)).join(' '),
  }));
}

/** Async as a data source is: the list a Suspense boundary waits for. */
export async function loadReviews(productIds: readonly number[]): Promise<{ productId: number; stars: number; text: string }[]> {
  await Promise.resolve();
  const random = seeded(productIds.length);
  return productIds.map((productId) => ({ productId, stars: 1 + Math.floor(random() * 5), text: `review of ${productId}: ${WORDS[productId % WORDS.length]} ${WORDS[(productId * 7) % WORDS.length]}` }));
}
