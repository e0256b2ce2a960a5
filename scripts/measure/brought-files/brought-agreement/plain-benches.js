// What plain-loop.js and in-deno-bench.js share: the Deno.bench calls a file makes, collected instead of run, and
// the plain loop over them, timed as deno bench times a call longer than 10 µs (10 ms of calls first, then one
// call per sample for 500 ms and at least 10 samples; the median in ms per benchmark, in file order).

/** Replaces Deno.bench with a collector, imports the file (relative to the working folder), returns its benchmarks. */
export async function collectBenches(file) {
  const benches = [];
  Deno.bench = (a, b, c) => {
    if (typeof a === 'string') benches.push(typeof b === 'function' ? { name: a, fn: b } : { ...b, name: a, fn: c });
    else if (typeof a === 'function') benches.push({ name: a.name, fn: a });
    else benches.push(typeof b === 'function' ? { ...a, fn: b, name: a.name ?? b.name } : a);
  };
  await import(new URL(file, `file://${Deno.cwd()}/`).href);
  return benches;
}

/** The plain loop's median per benchmark ("group / name" or the name); `onSample` sees every timed call. */
export async function plainMedians(benches, onSample = () => {}) {
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
      onSample(t);
    }
    times.sort((x, y) => x - y);
    medians[(b.group ? `${b.group} / ` : '') + b.name] = times[times.length >> 1];
  }
  return medians;
}
