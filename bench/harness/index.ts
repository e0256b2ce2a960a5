/**
 * harness: cases that measure rtbench itself, not a runtime feature. The
 * no-op cases show the loop's own cost per iteration; the ~100 ns case shows
 * how tight the spread is for a short operation. scripts/measure/harness-figures/harness-figures.ts
 * turns them into the figures quoted in the README.
 */
import { bench, group, suite, type CaseContext, type TimedFn } from '@rtbench/core';

/** `length` multiply-adds over data the engine cannot see at compile time. */
function arithmetic(length: number): (ctx: CaseContext) => Generator<TimedFn, void, undefined> {
  return function* () {
    const data = new Float64Array(length);
    for (let i = 0; i < data.length; i++) data[i] = Math.sqrt(i + 1);
    let round = 0;
    yield () => {
      let acc = round++ & 1;
      for (let i = 0; i < data.length; i++) acc = acc * 0.5 + data[i]!;
      return acc > 0;
    };
  };
}

export default suite('harness', () => {
  group('overhead', () => {
    bench('noop', () => undefined);
    bench('noop async', async () => undefined);
  });
  group('precision', () => {
    bench('~100 ns of arithmetic', arithmetic(96));
    bench('~1 µs of arithmetic', arithmetic(960));
  });
});
