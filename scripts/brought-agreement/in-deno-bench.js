// plain-loop.js's loop run once from inside deno bench's own process (one Deno.bench whose first call runs
// it): is deno bench's figure its process, or its sampling? Prints the JSON line as deno bench shows a
// benchmark's output. Usage: RTBENCH_PLAIN_FILE=<file> deno bench -A --no-check [--config deno.json] in-deno-bench.js
const realBench = Deno.bench;
const benches = [];
Deno.bench = (a, b, c) => {
  if (typeof a === 'string') benches.push(typeof b === 'function' ? { name: a, fn: b } : { ...b, name: a, fn: c });
  else if (typeof a === 'function') benches.push({ name: a.name, fn: a });
  else benches.push(typeof b === 'function' ? { ...a, fn: b, name: a.name ?? b.name } : a);
};
await import(new URL(Deno.env.get('RTBENCH_PLAIN_FILE'), `file://${Deno.cwd()}/`).href);
let done = false;
realBench('the plain loop inside deno bench', { n: 1, warmup: 1 }, async () => {
  if (done) return;
  done = true;
  const context = { start() {}, end() {} };
  const medians = {};
  for (const b of benches) {
    if (b.ignore) continue;
    const warmupEnd = performance.now() + 10;
    while (performance.now() < warmupEnd) await b.fn(context);
    const times = [];
    const end = performance.now() + 500;
    while (performance.now() < end || times.length < 10) {
      const t0 = performance.now();
      await b.fn(context);
      times.push(performance.now() - t0);
    }
    times.sort((x, y) => x - y);
    medians[(b.group ? `${b.group} / ` : '') + b.name] = times[times.length >> 1];
  }
  console.log(JSON.stringify(medians));
});
