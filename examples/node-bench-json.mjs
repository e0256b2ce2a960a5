// A node:bench file of cases that take microseconds: JSON of a few sizes and a
// numeric sort, with params. Run it with
// `node --experimental-bench --bench examples/node-bench-json.mjs` on node 26,
// or with `rtbench run` on any runtime. docs/brought-files.md compares the two.
import { bench, suite } from 'node:bench';

const rows = (count) => Array.from({ length: count }, (_, i) => ({ id: i, name: `row ${i}`, tags: ['a', 'b'], score: i / 7 }));

suite('JSON', () => {
  for (const count of [10, 100]) {
    const text = JSON.stringify(rows(count));
    bench('parse', { params: { rows: count } }, (b) => {
      const operations = 200;
      let ids = 0;
      b.start();
      for (let i = 0; i < operations; i++) ids += JSON.parse(text).length;
      b.end(operations);
      if (ids !== operations * count) throw new Error('Unexpected row count');
    });

    const value = rows(count);
    bench('stringify', { params: { rows: count } }, (b) => {
      const operations = 200;
      let length = 0;
      b.start();
      for (let i = 0; i < operations; i++) length += JSON.stringify(value).length;
      b.end(operations);
      if (length !== operations * text.length) throw new Error('Unexpected length');
    });
  }
});

bench('sort 1000 numbers', (b) => {
  const input = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 1000);
  const operations = 20;
  let first = 0;
  b.start();
  for (let i = 0; i < operations; i++) first += input.slice().sort((x, y) => x - y)[0];
  b.end(operations);
  if (first !== 0) throw new Error('Unexpected sort');
});
