// One task of examples/tinybench-strings.mjs alone, for scripts/measure/brought-files/cross-validate.ts:
// does the task read the same when tinybench runs no other task in its process?
import { Bench } from 'tinybench';

const parts = Array.from({ length: 500 }, (_, i) => `item-${i};`);

const bench = new Bench({ name: 'build 500 parts', time: 500 });

bench.add('template literal per part', () => parts.reduce((out, part) => `${out}${part}`, ''));

await bench.run();
