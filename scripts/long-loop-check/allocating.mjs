// A small allocating case written for mitata (scripts/long-loop-check.ts runs it both ways): a CSV line
// split into fresh records, every call garbage for the young generation.
import { bench, run } from 'mitata';

const line = Array.from({ length: 24 }, (_, i) => `field${i}`).join(',');

bench('records from a CSV line', () => line.split(',').map((field, i) => ({ field, i, upper: field.toUpperCase() })));

await run();
