/**
 * calibration: cases for checking rtbench's comparison verdicts, not a
 * runtime feature (scripts/measure/comparing/calibrate.ts runs them).
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
 * - group "beside": one case whose kind of work the variant sets
 *   (RTBENCH_CAL_KIND=parse: a 500 KB JSON.parse; trig: a sin/cos loop), for
 *   the duet's interference check (docs/duet.md); the returned value is the
 *   same for either kind.
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

  group('beside', () => {
    // Work of one of two kinds, chosen by the variant: RTBENCH_CAL_KIND=parse parses a 500 KB document (allocation,
    // memory traffic), RTBENCH_CAL_KIND=trig runs a sin/cos loop in registers, each a few ms. Under a duet the two
    // arms run at once on two cores, so "parse" against "trig" shows whether a neighbour's kind moves a ratio.
    bench('parse or trig', function* () {
      const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
      const kind = env?.RTBENCH_CAL_KIND ?? 'parse';
      const next = lcg(500);
      const items: unknown[] = [];
      let text = '[]';
      for (let i = 0; text.length < 500 * 1024; i++) {
        items.push({ id: i, name: `item-${i}`, score: Math.round(next() * 1e6) / 1e3, tags: ['a', 'b', `t${i % 17}`], nested: { ok: i % 3 === 0, at: i * 7 } });
        if (i % 256 === 0) text = JSON.stringify(items);
      }
      text = JSON.stringify(items);
      const angles = Float64Array.from({ length: 1024 }, () => (next() - 0.5) * 8);
      yield kind === 'trig'
        ? () => {
            let s = 0;
            for (let r = 0; r < 120; r++) for (let i = 0; i < 1024; i++) s += Math.sin(angles[i]!) * Math.cos(angles[(i + r) & 1023]!);
            return Number.isFinite(s); // the same value for either kind
          }
        : () => Array.isArray(JSON.parse(text));
    });
  });
});
