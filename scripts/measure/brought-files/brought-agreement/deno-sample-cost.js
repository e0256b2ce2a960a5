// What deno bench adds to a sample when it times each call alone: functions whose first call takes 20 ms (so
// its 10 ms warmup averages over 10 µs and every later call is timed alone) and that then do nothing.
// Usage: deno bench --json --no-check deno-sample-cost.js
const busy = () => {
  const t = performance.now();
  while (performance.now() - t < 20);
};
let asyncFirst = true;
Deno.bench('an empty async function, timed alone', async () => {
  if (asyncFirst) {
    asyncFirst = false;
    busy();
  }
});
let syncFirst = true;
Deno.bench('an empty function, timed alone', () => {
  if (syncFirst) {
    syncFirst = false;
    busy();
  }
});
