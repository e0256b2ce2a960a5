// JSON round trips at three document sizes, written for mitata.
// Run it with mitata (`node examples/mitata-json.mjs`) or with rtbench on four
// runtimes (`pnpm rtbench run examples/mitata-json.mjs`).
import { bench, do_not_optimize, group, run, summary } from 'mitata';

/** A seeded document of `rows` records, like an API response. */
function makeDocument(rows) {
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const items = [];
  for (let i = 0; i < rows; i++) {
    items.push({ id: i, name: `user-${Math.floor(next() * 1e6)}`, active: next() > 0.5, score: Math.round(next() * 1e4) / 100, tags: ['a', 'b', 'c'].slice(0, 1 + (i % 3)) });
  }
  return { total: rows, items };
}

group('parse', () => {
  summary(() => {
    bench('JSON.parse $rows rows', function* (state) {
      const text = JSON.stringify(makeDocument(state.get('rows')));
      yield () => JSON.parse(text);
    }).args('rows', [10, 1000]);

    bench('JSON.parse with reviver $rows rows', function* (state) {
      const text = JSON.stringify(makeDocument(state.get('rows')));
      const reviver = (key, value) => (key === 'score' ? value * 100 : value);
      yield () => do_not_optimize(JSON.parse(text, reviver));
    }).args('rows', [10, 1000]);
  });
});

group('stringify', () => {
  bench('JSON.stringify $rows rows', function* (state) {
    const doc = makeDocument(state.get('rows'));
    yield () => JSON.stringify(doc);
  }).range('rows', 10, 1000, 10);
});

await run();
