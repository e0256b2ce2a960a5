/**
 * calibration: cases for checking rtbench's comparison verdicts, not a
 * runtime feature (scripts/calibrate.ts runs them).
 *
 * - group "aa": 21 ordinary workloads of different shapes and sizes
 *   (arithmetic, strings, sorting, allocation, maps, JSON, regexps) for A/A
 *   runs: one variant against itself, where every "faster"/"slower" verdict
 *   is false by construction.
 * - group "sensitivity": one case whose amount of work the variant sets:
 *   RTBENCH_CAL_EXTRA_PCT=5 in the variant's environment adds 5% more
 *   iterations of the same loop, so `--compare "node RTBENCH_CAL_EXTRA_PCT=0"
 *   "node RTBENCH_CAL_EXTRA_PCT=5"` has a known ~5% effect. The result does
 *   not depend on the extra work, so the digests match.
 */
import { bench, group, suite } from '@rtbench/core';

/** A deterministic pseudo-random sequence (no Math.random: digests must repeat). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const SIZES = [100, 1000, 10000];

export default suite('calibration', () => {
  group('aa', () => {
    bench('arithmetic', function* (ctx) {
      const n = ctx.get<number>('n');
      const data = Float64Array.from({ length: n }, (_, i) => Math.sqrt(i + 1));
      yield () => {
        let acc = 0;
        for (let i = 0; i < n; i++) acc = acc * 0.999 + data[i]! * 1.0001;
        return Math.round(acc);
      };
    }).args('n', SIZES);

    bench('string build', function* (ctx) {
      const n = ctx.get<number>('n') / 10;
      yield () => {
        const parts: string[] = [];
        for (let i = 0; i < n; i++) parts.push(`item-${i}:${(i * 7) % 13}`);
        return parts.join(',').length;
      };
    }).args('n', SIZES);

    bench('sort numbers', function* (ctx) {
      const n = ctx.get<number>('n');
      const next = lcg(n);
      const source = Array.from({ length: n }, () => next());
      yield () => {
        const copy = source.slice();
        copy.sort((a, b) => a - b);
        return copy[n >> 1];
      };
    }).args('n', SIZES);

    bench('allocate objects', function* (ctx) {
      const n = ctx.get<number>('n');
      yield () => {
        let list: { v: number; next: unknown } | null = null;
        for (let i = 0; i < n; i++) list = { v: i, next: list };
        return list?.v;
      };
    }).args('n', SIZES);

    bench('map set and get', function* (ctx) {
      const n = ctx.get<number>('n');
      yield () => {
        const m = new Map<string, number>();
        for (let i = 0; i < n; i++) m.set(`k${i}`, i);
        let s = 0;
        for (let i = 0; i < n; i += 3) s += m.get(`k${i}`) ?? 0;
        return s;
      };
    }).args('n', SIZES);

    bench('json round trip', function* (ctx) {
      const n = ctx.get<number>('n') / 10;
      const value = Array.from({ length: n }, (_, i) => ({ id: i, name: `n${i}`, tags: ['a', 'b'], ok: i % 2 === 0 }));
      yield () => (JSON.parse(JSON.stringify(value)) as unknown[]).length;
    }).args('n', SIZES);

    bench('regexp scan', function* (ctx) {
      const n = ctx.get<number>('n');
      const text = Array.from({ length: n / 10 }, (_, i) => `user${i}@host${i % 7}.example.org`).join(' ');
      const re = /(\w+)@(\w+)\.example\.org/g;
      yield () => {
        let count = 0;
        for (const m of text.matchAll(re)) count += m[2]!.length;
        return count;
      };
    }).args('n', SIZES);
  });

  group('sensitivity', () => {
    bench('work', function* () {
      // 4000 iterations of a dependent multiply-add (~µs), plus the variant's extra share.
      const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
      const extraPct = Number(env?.RTBENCH_CAL_EXTRA_PCT ?? 0);
      const base = 4000;
      const total = base + Math.round((base * extraPct) / 100);
      const data = Float64Array.from({ length: 64 }, (_, i) => Math.sqrt(i + 2));
      yield () => {
        let acc = 1;
        for (let i = 0; i < total; i++) acc = acc * 0.5 + data[i & 63]!;
        return acc > 0; // the same value whatever the extra work
      };
    });
  });
});
