/**
 * trig: what a Math library call costs per call, and in a mixed physics step.
 * See README.md for the claim (libm-based sin/cos) and how to read the result.
 *
 * One iteration = BATCH (1000) calls over precomputed, varied arguments, so
 * µs per iteration reads as ns per call. Each loop calls Math.* directly so
 * the optimizing compilers see the builtin at its call site, as in user code.
 */
import { bench, group, suite, type CaseContext } from '@rtbench/core';
import { BATCH, RANGES, settle, uniform, type RangeName } from './inputs.ts';
import { createWorld } from './physics.ts';

const ranges = Object.keys(RANGES) as RangeName[];

function angles(ctx: CaseContext, seed: number): Float64Array {
  const r = RANGES[ctx.get<RangeName>('range')];
  return uniform(seed, -r, r);
}

export default suite('trig', () => {
  group('1000 calls', () => {
    // The loop, the load and the add without a libm call: subtract it to get
    // the cost of the call itself.
    bench('baseline (Math.abs)', function* () {
      const a = uniform(1, -Math.PI, Math.PI);
      yield () => {
        let s = 0;
        for (let i = 0; i < BATCH; i++) s += Math.abs(a[i]!);
        return settle(s);
      };
    });

    bench('Math.sin', function* (ctx) {
      const a = angles(ctx, 2);
      yield () => {
        let s = 0;
        for (let i = 0; i < BATCH; i++) s += Math.sin(a[i]!);
        return settle(s);
      };
    }).args('range', ranges);

    bench('Math.cos', function* (ctx) {
      const a = angles(ctx, 3);
      yield () => {
        let s = 0;
        for (let i = 0; i < BATCH; i++) s += Math.cos(a[i]!);
        return settle(s);
      };
    }).args('range', ranges);

    // tan never goes through V8's libm trig option: the control for sin/cos.
    bench('Math.tan', function* (ctx) {
      const a = angles(ctx, 4);
      yield () => {
        let s = 0;
        for (let i = 0; i < BATCH; i++) s += Math.tan(a[i]!);
        return settle(s);
      };
    }).args('range', ranges);

    bench('Math.atan2', function* () {
      const y = uniform(5, -10, 10);
      const x = uniform(6, -10, 10);
      yield () => {
        let s = 0;
        for (let i = 0; i < BATCH; i++) s += Math.atan2(y[i]!, x[i]!);
        return settle(s);
      };
    });

    bench('Math.exp', function* () {
      const a = uniform(7, -10, 10);
      yield () => {
        let s = 0;
        for (let i = 0; i < BATCH; i++) s += Math.exp(a[i]!);
        return settle(s);
      };
    });

    bench('Math.log', function* () {
      const a = uniform(8, 1e-3, 1e3);
      yield () => {
        let s = 0;
        for (let i = 0; i < BATCH; i++) s += Math.log(a[i]!);
        return settle(s);
      };
    });

    bench('Math.pow', function* () {
      // Non-integer exponents: integer ones take engines' fast paths.
      const base = uniform(9, 0.5, 4);
      const exponent = uniform(10, -3, 3);
      yield () => {
        let s = 0;
        for (let i = 0; i < BATCH; i++) s += Math.pow(base[i]!, exponent[i]!);
        return settle(s);
      };
    });
  });

  group('mixed', () => {
    bench('physics step (250 particles x 4 steps)', function* () {
      const world = createWorld(11);
      yield () => world.run();
    });
  });
});
