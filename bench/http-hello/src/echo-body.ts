/** The ~1.6 KB JSON body of the echo route: a small API payload, built deterministically. */
export function echoBody(): string {
  const items = Array.from({ length: 22 }, (_, i) => ({ sku: `SKU-${1000 + i}`, name: `Item number ${i}`, quantity: (i % 4) + 1, price: Math.round((i * 7.3 + 2) * 100) / 100 }));
  return JSON.stringify({ id: 'order-8c1e2f', customer: { name: 'Ada Lovelace', email: 'ada@example.com', tier: 'gold' }, items, currency: 'EUR', note: 'leave at the door' });
}
