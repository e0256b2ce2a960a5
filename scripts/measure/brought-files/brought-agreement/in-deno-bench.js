// plain-loop.js's loop run once from inside deno bench's own process (one Deno.bench whose first call runs
// it): is deno bench's figure its process, or its sampling? Prints the JSON line as deno bench shows a
// benchmark's output. Usage: RTBENCH_PLAIN_FILE=<file> deno bench -A --no-check [--config deno.json] in-deno-bench.js
import { collectBenches, plainMedians } from './plain-benches.js';

const realBench = Deno.bench;
const benches = await collectBenches(Deno.env.get('RTBENCH_PLAIN_FILE'));
let done = false;
realBench('the plain loop inside deno bench', { n: 1, warmup: 1 }, async () => {
  if (done) return;
  done = true;
  console.log(JSON.stringify(await plainMedians(benches)));
});
