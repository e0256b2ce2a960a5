// Three ways to build a string of `parts` pieces, written for tinybench.
// Run it with tinybench (`node examples/tinybench-strings.mjs`) or with
// rtbench on four runtimes (`pnpm rtbench run examples/tinybench-strings.mjs`).
import { Bench } from 'tinybench';

// Shared input at the top of the file: under rtbench each task runs in its
// own process, so one task's beforeAll does not set up the others.
const parts = Array.from({ length: 500 }, (_, i) => `item-${i};`);
let reversed = [];

const bench = new Bench({ name: 'build 500 parts', time: 500 });

bench.add('template literal per part', () => parts.reduce((out, part) => `${out}${part}`, ''));

await bench.run();
