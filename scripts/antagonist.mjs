// A neighbour like a shared CI runner's or a busy laptop's: not pinned, half busy and memory-heavy
// (a random walk over 32 MB in 5 ms bursts, 5 ms apart), for 20 minutes or until it is stopped.
// The figures measured "beside the antagonist" ran it beside the measurement (scripts/lib.ts
// startAntagonist does so for table-targets.ts and calibrate.ts --antagonist); by hand:
//   node scripts/antagonist.mjs & neighbour=$!; <measure>; kill $neighbour
const next = new Uint32Array(8 << 20);
for (let i = 0; i < next.length; i++) next[i] = (Math.imul(i, 2654435761) >>> 0) % next.length;
const stopAt = Date.now() + 20 * 60e3;
let at = 0;
function burst() {
  const until = performance.now() + 5;
  while (performance.now() < until) for (let k = 0; k < 1000; k++) at = next[at];
  if (Date.now() < stopAt) setTimeout(burst, 5);
}
burst();
