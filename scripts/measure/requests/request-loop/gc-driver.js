// Driven by scripts/measure/requests/request-loop-gc.ts under a runtime's --trace-gc: calls
// the in-process Worker's fetch as a request would, one request of the
// query's calls at a time, 5 ms apart as requests are, and marks each
// request's end in the output so the collections between marks are its.
// Arguments: the query (`page=react&calls=2`), the number of requests.
import worker from './in-process.js';

const args = globalThis.Deno ? globalThis.Deno.args : process.argv.slice(2);
const query = args[0];
const requests = Number(args[1] ?? 60);
for (let i = 0; i < requests; i++) {
  const started = performance.now();
  await (await worker.fetch(new Request(`http://127.0.0.1/?${query}`))).text();
  console.log(`--- request ${i} ${(performance.now() - started).toFixed(2)} ms`);
  await new Promise((resolve) => setTimeout(resolve, 5));
}
