/**
 * trig: what a Math library call costs per call, and in a mixed physics step.
 * See README.md for the claim (libm-based sin/cos) and how to read the result.
 *
 * One iteration = BATCH (1000) calls over precomputed, varied arguments, so
 * µs per iteration reads as ns per call. Each loop calls Math.* directly so
 * the optimizing compilers see the builtin at its call site, as in user code.
 */
import { bench, group, suite, type CaseContext } from '@rtbench/core';
import { BATCH, DECADES, decade, LOOP_STARTS, RANGES, settle, settleLoop, uniform, type Decade, type RangeName } from './inputs.ts';
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

  // The whole argument range: |x| from 1 to 1e10, one decade per case.
  group('sweep', () => {
    bench('Math.sin', function* (ctx) {
      const a = decade(12, ctx.get<Decade>('decade'));
      yield () => {
        let s = 0;
        for (let i = 0; i < BATCH; i++) s += Math.sin(a[i]!);
        return settle(s);
      };
    }).args('decade', [...DECADES]);

    bench('Math.cos', function* (ctx) {
      const a = decade(13, ctx.get<Decade>('decade'));
      yield () => {
        let s = 0;
        for (let i = 0; i < BATCH; i++) s += Math.cos(a[i]!);
        return settle(s);
      };
    }).args('decade', [...DECADES]);
  });

  // The loop of the serverless benchmark behind the original report, as it
  // is written there, over 1,000 consecutive i from a starting point: each
  // iteration makes 1,000 sin and 1,000 cos calls on arguments π·i.
  group('loop form', () => {
    bench('sin(PI*i)*cos(PI*i)', function* (ctx) {
      const from = ctx.get<number>('from');
      yield () => {
        let sum = 0;
        for (let i = from; i < from + BATCH; i++) {
          const result = Math.sin(Math.PI * i) * Math.cos(Math.PI * i);
          sum += result;
        }
        return settleLoop(sum, from);
      };
    }).args('from', [...LOOP_STARTS]);
  });

  group('mixed', () => {
    bench('physics step (250 particles x 4 steps)', function* () {
      const world = createWorld(11);
      yield () => world.run();
    });
  });
});
export { claims } from './claims.ts';
