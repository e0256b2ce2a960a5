// Map against a plain object as a dictionary, and the cost of building
// arrays, written for mitata. Shows .args with a table of parameters,
// .range, the manual `for (const _ of state)` loop, .gc('inner') and barplot.
import { barplot, bench, compact, do_not_optimize, group, run } from 'mitata';

const keysFor = (count) => Array.from({ length: count }, (_, i) => `key-${(i * 7919) % 100_003}`);

group('lookup', () => {
  barplot(() => {
    bench('Map.get ($keys keys, hit=$hit)', function* (state) {
      const keys = keysFor(state.get('keys'));
      const map = new Map(keys.map((k, i) => [k, i]));
      const probe = state.get('hit') ? keys : keys.map((k) => `${k}-missing`);
      yield () => {
        let sum = 0;
        for (const k of probe) sum += map.get(k) ?? 1;
        return sum;
      };
    }).args({ keys: [16, 1024], hit: [true, false] });

    bench('object[key] ($keys keys, hit=$hit)', function* (state) {
      const keys = keysFor(state.get('keys'));
      const object = Object.fromEntries(keys.map((k, i) => [k, i]));
      const probe = state.get('hit') ? keys : keys.map((k) => `${k}-missing`);
      yield () => {
        let sum = 0;
        for (const k of probe) sum += object[k] ?? 1;
        return sum;
      };
    }).args({ keys: [16, 1024], hit: [true, false] });
  });
});

group('build', () => {
  compact(() => {
    // The manual loop form: setup before the loop, the loop body is timed.
    bench('Array.from({ length: $size })', function (state) {
      const size = state.get('size');
      for (const _ of state) do_not_optimize(Array.from({ length: size }, (_, i) => i));
    }).range('size', 8, 512, 64);

    // A forced collection between samples (needs a runtime that exposes gc()).
    bench('new Array($size).fill(0)', function* (state) {
      const size = state.get('size');
      yield () => new Array(size).fill(0);
    }).args('size', [4096]).gc('inner');
  });
});

await run();
