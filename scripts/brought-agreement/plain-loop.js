// A plain loop over a Deno.bench file's functions, timed as deno bench times a call longer than 10 µs (10 ms
// of calls first, then one call per sample for 500 ms and at least 10 samples; the median), without deno
// bench's harness. Prints one JSON line: the median per benchmark in ms. The functions run in file order in
// one process. With a second argument `big`, the loop also keeps its samples in an array of 10⁷ elements made
// before the file loads, as deno bench keeps its own. Usage: deno run -A [--config deno.json] plain-loop.js <file> [big]
const samples = Deno.args[1] === 'big' ? new Array(10_000_000) : undefined;
let kept = 0;
const benches = [];
Deno.bench = (a, b, c) => {
  if (typeof a === 'string') benches.push(typeof b === 'function' ? { name: a, fn: b } : { ...b, name: a, fn: c });
  else if (typeof a === 'function') benches.push({ name: a.name, fn: a });
  else benches.push(typeof b === 'function' ? { ...a, fn: b, name: a.name ?? b.name } : a);
};
await import(new URL(Deno.args[0], `file://${Deno.cwd()}/`).href);
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
    const t = performance.now() - t0;
    times.push(t);
    if (samples && kept < samples.length) samples[kept++] = t;
  }
  times.sort((x, y) => x - y);
  medians[(b.group ? `${b.group} / ` : '') + b.name] = times[times.length >> 1];
}
console.log(JSON.stringify(medians));
