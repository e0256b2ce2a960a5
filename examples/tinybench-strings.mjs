// Three ways to build a string of `parts` pieces, written for tinybench.
// Run it with tinybench (`node examples/tinybench-strings.mjs`) or with
// rtbench on four runtimes (`pnpm rtbench run examples/tinybench-strings.mjs`).
import { Bench } from 'tinybench';

// Shared input at the top of the file: under rtbench each task runs in its
// own process, so one task's beforeAll does not set up the others.
const parts = Array.from({ length: 500 }, (_, i) => `item-${i};`);
let reversed = [];

const bench = new Bench({ name: 'build 500 parts', time: 500 });

bench
  .add('+= in a loop', () => {
    let out = '';
    for (const part of parts) out += part;
    return out;
  })
  .add('+= in a loop, reversed input', () => {
    let out = '';
    for (const part of reversed) out += part;
    return out;
  }, {
    // Setup for this task, outside the timing.
    beforeAll() {
      reversed = parts.toReversed();
    },
  })
  .add('Array.prototype.join', () => parts.join(''))
  .add('template literal per part', () => parts.reduce((out, part) => `${out}${part}`, ''))
  .add('String.prototype.concat (result unused)', () => {
    // Returns nothing: tinybench times it anyway; rtbench warns and says how to fix it.
    ''.concat(...parts);
  });

await bench.run();
console.table(bench.table());
for (const task of bench.tasks) {
  // Under rtbench the figures are NaN: the run's table has them.
  console.log(task.name, task.result?.latency?.mean);
}
