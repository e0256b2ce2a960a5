// A plain loop over a Deno.bench file's functions, timed as deno bench times a call longer than 10 µs
// (plain-benches.js), without deno bench's harness. Prints one JSON line: the median per benchmark in ms. The
// functions run in file order in one process. With a second argument `big`, the loop also keeps its samples in an
// array of 10⁷ elements made before the file loads, as deno bench keeps its own.
// Usage: deno run -A [--config deno.json] plain-loop.js <file> [big]
import { collectBenches, plainMedians } from './plain-benches.js';

const samples = Deno.args[1] === 'big' ? new Array(10_000_000) : undefined;
let kept = 0;
const benches = await collectBenches(Deno.args[0]);
const medians = await plainMedians(benches, (t) => {
  if (samples && kept < samples.length) samples[kept++] = t;
});
console.log(JSON.stringify(medians));
