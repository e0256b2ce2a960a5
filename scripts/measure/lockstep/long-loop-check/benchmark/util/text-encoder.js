// Shaped like Node.js core's benchmark/util/text-encoder.js (scripts/measure/lockstep/long-loop-check.ts runs it both ways):
// `encode` allocates a Uint8Array a call, `encodeInto` writes into one buffer and allocates nothing.
'use strict';
const common = require('../common.js');

const bench = common.createBenchmark(main, {
  op: ['encode', 'encodeInto'],
  len: [256],
  n: [1e6],
});

function main({ op, len, n }) {
  const input = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(Math.ceil(len / 36)).slice(0, len);
  const encoder = new TextEncoder();
  const into = new Uint8Array(len * 3);
  let bytes = 0;
  bench.start();
  if (op === 'encode') for (let i = 0; i < n; i++) bytes += encoder.encode(input).length;
  else for (let i = 0; i < n; i++) bytes += encoder.encodeInto(input, into).written;
  bench.end(n);
  if (bytes !== n * len) throw new Error(`encoded ${bytes} bytes, expected ${n * len}`);
}
