// A benchmark in the form of Node.js core's benchmark/<area>/<name>.js files:
// run with `rtbench run` as it is, or from a Node.js checkout's benchmark/
// folder with `node benchmark/compare.js`.
'use strict';
const common = require('../common.js');
const assert = require('assert');
const { Buffer } = require('buffer');

const bench = common.createBenchmark(main, {
  method: ['readUInt32LE', 'readDoubleLE', 'writeUInt32LE'],
  size: [64, 4096],
  n: [1e6],
});

function main({ method, size, n }) {
  const buf = Buffer.alloc(size);
  for (let i = 0; i < size; i++) buf[i] = (i * 31) & 0xff;
  const last = size - 8;
  let sum = 0;
  bench.start();
  if (method === 'writeUInt32LE') {
    for (let i = 0; i < n; i++) buf.writeUInt32LE(i >>> 0, (i * 8) % last);
  } else {
    for (let i = 0; i < n; i++) sum += buf[method]((i * 8) % last);
  }
  bench.end(n);
  assert.ok(Number.isFinite(sum));
}
