// A benchmark in the form of Node.js core's benchmark/<area>/<name>.js files,
// with an asynchronous main (bench.end() is called from a later microtask),
// the flags option, and a configuration without n (each sample is whole calls of main).
'use strict';
const common = require('../common.js');

const bench = common.createBenchmark(main, {
  op: ['split-join', 'replaceAll'],
  parts: [16, 256],
  n: [2e4],
}, { flags: ['--expose-gc'] });

async function main({ op, parts, n }) {
  const text = Array.from({ length: parts }, (_, i) => `part${i}`).join(',');
  await null;
  let length = 0;
  bench.start();
  for (let i = 0; i < n; i++) {
    length += op === 'split-join' ? text.split(',').join(';').length : text.replaceAll(',', ';').length;
  }
  await null;
  bench.end(n);
  if (length !== n * text.length) throw new Error('unexpected length');
}
