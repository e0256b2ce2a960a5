/** zod, bundled by esbuild: a schema for an order, declared and used once at start-up, as an API worker would. */
import { z } from 'zod';

const address = z.object({ street: z.string().min(1), city: z.string(), zip: z.string().regex(/^\d{5}$/), country: z.enum(['US', 'DE', 'FR', 'JP']) });
const item = z.object({ sku: z.string().length(8), quantity: z.number().int().positive(), price: z.number().nonnegative(), tags: z.array(z.string()).max(5) });
const order = z.object({
  id: z.string().uuid(),
  customer: z.object({ name: z.string(), email: z.string().email(), address }),
  items: z.array(item).min(1),
  placedAt: z.string().datetime(),
  notes: z.string().optional(),
});

const sample = {
  id: '3f0c2a9e-8a61-4c1e-9d7b-2f5e6a7b8c9d',
  customer: { name: 'Ada', email: 'ada@example.com', address: { street: '1 Main St', city: 'Springfield', zip: '12345', country: 'US' } },
  items: Array.from({ length: 10 }, (_, i) => ({ sku: `SKU${String(i).padStart(5, '0')}`, quantity: i + 1, price: i * 3.5, tags: ['a', 'b'] })),
  placedAt: '2025-06-01T12:00:00Z',
};

const parsed = order.parse(sample);
const rejected = order.safeParse({ ...sample, items: [] }).success;
export default `zod ok ${parsed.items.length} items, empty order rejected ${!rejected}`;
