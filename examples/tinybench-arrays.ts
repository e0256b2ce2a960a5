// Array methods against a plain loop, written for tinybench (TypeScript).
// Shows hooks (beforeAll, beforeEach), an async task, and reading
// bench.tasks / task.result after the run.
import { Bench } from 'tinybench';

// Data the tasks share is built at the top of the file: under rtbench every
// task runs in its own process, so one task's hooks do not set up another's.
let seed = 7;
const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
const numbers = Array.from({ length: 10_000 }, () => Math.floor(random() * 1000));

const bench = new Bench({ time: 200, warmupTime: 50 });

let queue: number[] = [];

bench
  .add('map + filter + reduce', () => numbers.map((n) => n * 2).filter((n) => n % 3 === 0).reduce((a, b) => a + b, 0))
  .add('for loop', () => {
    let sum = 0;
    for (let i = 0; i < numbers.length; i++) {
      const doubled = numbers[i]! * 2;
      if (doubled % 3 === 0) sum += doubled;
    }
    return sum;
  })
  .add('toSorted', () => numbers.toSorted((a, b) => a - b)[5000])
  .add('shift a queue of 64', () => {
    let sum = 0;
    while (queue.length) sum += queue.shift()!;
    return sum;
  }, {
    // Runs before every call (inside rtbench's timed batch; rtbench warns about it).
    beforeEach() {
      queue = numbers.slice(0, 64);
    },
  })
  .add('structuredClone (async)', async () => {
    await Promise.resolve();
    return structuredClone(numbers.slice(0, 256)).length;
  });

await bench.run();

// Reading results back: under rtbench every figure is NaN and the state is
// 'not-started' (rtbench measures after the file has loaded).
for (const task of bench.tasks) {
  const result = task.result as { latency?: { mean: number } } | undefined;
  console.log(`${task.name}: ${result?.latency?.mean ?? 'n/a'} ms`);
}
console.table(bench.table());
