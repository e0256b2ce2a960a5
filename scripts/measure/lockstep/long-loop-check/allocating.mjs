// Allocating cases written for mitata (scripts/measure/lockstep/long-loop-check.ts runs them both ways: under rtbench, and as a long
// loop), one shape of garbage each, so a figure that carries its company shows on the shape that carries it.
import { bench, do_not_optimize, run } from 'mitata';

const line = Array.from({ length: 24 }, (_, i) => `field${i}`).join(',');
const source = new Uint8Array(4096).map((_, i) => i & 0xff);
/** Long-lived: the old generation a retained set's case keeps full, replaced a slot at a time. */
const retained = new Map();
let slot = 0;

// Many small objects: a CSV line split into fresh records, every call garbage for the young generation.
bench('records from a CSV line', () => line.split(',').map((field, i) => ({ field, i, upper: field.toUpperCase() })));

// Arrays: a fresh array of numbers grown by push, then mapped (two backing stores a call).
bench('array of 256 numbers, pushed and mapped', () => {
  const out = [];
  for (let i = 0; i < 256; i++) out.push(i * 3);
  return out.map((x) => x + 1);
});

// Strings: built by concatenation and flattened by a search (a rope, then its flat copy).
bench('string of 200 parts, concatenated and searched', () => {
  let s = '';
  for (let i = 0; i < 200; i++) s += `k${i}=v${i};`;
  return s.indexOf('k199=');
});

// Byte arrays: a 4 KB copy, a fresh typed array and its backing store every call.
bench('4 KB byte array copied', () => source.slice());

// Backing stores: a 64 KB ArrayBuffer, outside the young generation's object space on most engines.
bench('64 KB ArrayBuffer allocated', () => do_not_optimize(new ArrayBuffer(65536)));

// A retained set: 20,000 live records kept, one replaced a call, so the old generation stays full and is scanned.
bench('retained set of 20k records, one replaced a call', () => {
  slot = (slot + 1) % 20_000;
  retained.set(slot, { id: slot, name: `record ${slot}`, tags: [slot & 7, slot & 15] });
  return retained.size;
});

// Request-scoped records: a request's context built, used and dropped, as a server's handler does.
bench('request-scoped context of 40 records', () => {
  const headers = new Map();
  for (let i = 0; i < 8; i++) headers.set(`x-h${i}`, `value ${i}`);
  const items = Array.from({ length: 32 }, (_, i) => ({ id: i, price: i * 1.5, label: `item ${i}` }));
  const total = items.reduce((sum, item) => sum + item.price, 0);
  return { headers, items, total, at: '2026-01-01T00:00:00Z' }.total;
});

await run();
