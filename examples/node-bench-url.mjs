// A node:bench file written as Node's documentation shows one: run it with
// `node --experimental-bench --bench examples/node-bench-url.mjs` on node 26,
// or with `rtbench run` on any runtime.
import { bench, suite, before, beforeEach } from 'node:bench';

let prepared = 0;
before(() => {
  prepared++;
});

suite('URL', () => {
  const input = 'https://example.com/a?b=c';
  let perBenchmark;
  beforeEach(({ name }) => {
    perBenchmark = name;
  });

  bench('construct', {
    samples: 30,
    params: { input: 'short' },
  }, (b) => {
    const operations = 10_000;
    let totalLength = 0;

    b.start();
    for (let i = 0; i < operations; i++) {
      totalLength += new URL(input).href.length;
    }
    b.end(operations);

    if (totalLength !== operations * input.length || perBenchmark !== 'construct' || prepared !== 1) {
      throw new Error('Unexpected URL result');
    }
  });

  bench('searchParams', { params: { pairs: 8 } }, (b) => {
    const url = new URL(`https://example.com/?${Array.from({ length: b.params.pairs }, (_, i) => `k${i}=v${i}`).join('&')}`);
    const operations = 2_000;
    let count = 0;
    b.start();
    for (let i = 0; i < operations; i++) {
      for (const _ of url.searchParams) count++;
    }
    b.end(operations);
    if (count !== operations * b.params.pairs) throw new Error('Unexpected pair count');
  });

  bench.skip('not yet', (b) => {
    b.start();
    b.end(1);
  });
});

bench('record', (b) => {
  const started = performance.now();
  let s = 0;
  for (let i = 0; i < 10_000; i++) s += Math.sqrt(i);
  const ns = Math.max(1, Math.round((performance.now() - started) * 1e6));
  if (!(s > 0)) throw new Error('Unexpected sum');
  b.record({ operations: 10_000, duration_ns: BigInt(ns) });
});
