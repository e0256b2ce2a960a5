import { describe, expect, it } from 'vitest';
import { digest } from '../src/digest.ts';

describe('digest()', () => {
  it('is the same for equal values, whatever the key order', () => {
    const a = { x: 1, y: [true, 'two', null], z: { d: new Date(0) } };
    const b = { z: { d: new Date(0) }, y: [true, 'two', null], x: 1 };
    expect(digest(a).hash).toBe(digest(b).hash);
    expect(digest(a).hash).toMatch(/^[0-9a-f]{16}$/);
  });

  // The hashes bytes had when each chunk of 4096 was hashed as latin1 text: a saved run's digests stay comparable.
  it('hashes a byte view, its offset and every chunk of it, as it always has', () => {
    const bytes = new Uint8Array(10_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 131 + 7) & 0xff;
    expect(digest(bytes).hash).toBe('1455e2992e4fac06');
    expect(digest(new DataView(bytes.buffer, 3, 9_000)).hash).toBe('a84765ab300098aa');
    expect(digest({ a: bytes.subarray(0, 5000), b: [new Uint16Array(3), new ArrayBuffer(4100)] }).hash).toBe('8effe1485968a3be');
  });

  it('differs when the value differs, even slightly', () => {
    const base = digest({ list: [1, 2, 3], name: 'abc' }).hash;
    const variants: unknown[] = [
      { list: [1, 2, 4], name: 'abc' },
      { list: [1, 2, 3], name: 'abd' },
      { list: [1, 2, 3, undefined], name: 'abc' },
      { list: [1, 2, '3'], name: 'abc' },
      { list: [1, 2, 3], name: 'abc', extra: false },
    ];
    for (const v of variants) expect(digest(v).hash).not.toBe(base);
    expect(digest(0).hash).not.toBe(digest(-0).hash);
    expect(digest(['ab', 'c']).hash).not.toBe(digest(['a', 'bc']).hash);
    expect(digest(new Uint8Array([1, 2])).hash).not.toBe(digest(new Uint8Array([1, 3])).hash);
    expect(digest(new Date(1)).hash).not.toBe(digest(new Date(2)).hash);
    expect(digest(new Map([['a', 1]])).hash).not.toBe(digest(new Map([['a', 2]])).hash);
  });

  it('handles cycles and describes the shape', () => {
    const cyclic: { self?: unknown; n: number } = { n: 1 };
    cyclic.self = cyclic;
    expect(digest(cyclic).hash).toMatch(/^[0-9a-f]{16}$/);
    expect(digest([1, 2, 3]).summary).toBe('Array(3)');
    expect(digest(new Uint8Array(4)).summary).toBe('Uint8Array(4 bytes)');
    expect(digest(42).summary).toBe('number 42');
  });
});

describe('digest().rounded', () => {
  it('agrees for numbers that differ in their last bits, and only then', () => {
    const sinV8 = [0.8414709848078965, 0.5, 2];
    const sinJsc = [0.8414709848078966, 0.5, 2]; // one ulp apart, as engines' Math.sin can be
    expect(digest(sinV8).hash).not.toBe(digest(sinJsc).hash);
    expect(digest(sinV8).rounded).toMatch(/^[0-9a-f]{16}$/);
    expect(digest(sinV8).rounded).toBe(digest(sinJsc).rounded);
    // A difference in the 9th significant digit is different work.
    expect(digest([0.84147098, 0.5, 2]).rounded).not.toBe(digest([0.84147099, 0.5, 2]).rounded);
    // So is anything that is not a fraction.
    expect(digest([0.8414709848078965, 0.5, 3]).rounded).not.toBe(digest(sinV8).rounded);
  });

  it('is absent when the value holds no fraction (integers compare exactly)', () => {
    expect(digest({ a: [1, 2, 3], s: 'x', big: 2 ** 60 }).rounded).toBeUndefined();
    expect(digest(NaN).rounded).toBeUndefined();
  });
});

describe('digest() across versions', () => {
  it('gives the values it gave before: saved runs of an older rtbench compare with new ones (history, two-run comparisons)', () => {
    // Changing the digest on purpose makes every older saved run compare as different work:
    // update these with a line in docs/results-files.md saying from which version.
    const cyc: Record<string, unknown> = { k: 1 };
    cyc.self = cyc;
    const every = {
      n: [0, -0, 1.5, NaN, Infinity, 2 ** 60],
      s: ['', 'abc'],
      b: [true, false, null, undefined],
      big: 12n,
      sym: Symbol('s'),
      f: function named() {},
      d: new Date(0),
      m: new Map([['k', 1]]),
      set: new Set([1]),
      re: /a/g,
      e: new TypeError('x'),
      u8: new Uint8Array([1, 2]),
      ab: new Uint8Array([3]).buffer,
      empty: new Uint8Array(0),
      anonymous: Symbol(),
      cyc,
    };
    expect(digest(every)).toEqual({ hash: '6847f364d30a82f7', summary: 'Object{16 keys}', rounded: 'ab48ba24f1182fed' });
    expect(digest('abc')).toEqual({ hash: 'fcc8b3ee77d2969a', summary: 'string(3)' });
    expect(digest(0.1)).toEqual({ hash: '24158ec73a44f0ea', summary: 'number 0.1', rounded: '2ff2702b363834a3' });
  });
});
