/**
 * The digest's promise, as properties: different work gives a different
 * digest, in every kind of value a case can return, and the tolerance hash
 * (`rounded`) forgives only the last digits of fractions, never a difference
 * in anything else.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { digest } from '../src/digest.ts';

/** Both hashes of two values differ (the rounded one when both have it). */
function expectDifferentWork(a: unknown, b: unknown): void {
  const da = digest(a);
  const db = digest(b);
  expect(da.hash).not.toBe(db.hash);
  if (da.rounded !== undefined && db.rounded !== undefined) expect(da.rounded).not.toBe(db.rounded);
}

const twoDistinct = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<[T, T]> => fc.tuple(arb, arb).filter(([a, b]) => !Object.is(a, b));
const fraction = fc.double({ min: 0.001, max: 1000, noNaN: true }).filter((x) => !Number.isInteger(x));

describe('a digest of different work differs', () => {
  it('strings, also beside a fraction (the tolerance hash is fed the text)', () => {
    fc.assert(
      fc.property(twoDistinct(fc.string({ maxLength: 8 })), fraction, ([a, b], x) => {
        expectDifferentWork(a, b);
        expectDifferentWork([x, a], [x, b]);
        expect(digest([x, a]).rounded).toBeDefined();
      }),
    );
  });

  it("an object's keys, not only its values ({ok: 1} is not {error: 1})", () => {
    const key = fc.string({ minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(twoDistinct(key), fraction, ([k1, k2], x) => {
        expectDifferentWork({ [k1]: 1 }, { [k2]: 1 });
        expectDifferentWork({ [k1]: x }, { [k2]: x });
      }),
    );
    expectDifferentWork({ ok: 1 }, { error: 1 });
    expectDifferentWork({}, []);
    expectDifferentWork({ a: 1 }, { a: 1, b: undefined });
  });

  it("a Map's keys are walked, and a Map is not its entries as an array", () => {
    fc.assert(
      fc.property(twoDistinct(fc.string({ maxLength: 6 })), fraction, ([k1, k2], x) => {
        expectDifferentWork(new Map([[k1, x]]), new Map([[k2, x]]));
      }),
    );
    expectDifferentWork(new Map([['a', 1]]), [['a', 1]]);
    expectDifferentWork(new Map([['a', 1]]), new Map([['a', 1], ['b', 2]]));
  });

  it('a Set by its members, and not as an array of them', () => {
    fc.assert(fc.property(twoDistinct(fc.integer()), ([a, b]) => expectDifferentWork(new Set([a]), new Set([b]))));
    expectDifferentWork(new Set([1, 2]), [1, 2]);
    expectDifferentWork(new Set([1]), new Set([1, 2]));
    expectDifferentWork(new Set(), new Map());
  });

  it('bigints, symbols and functions by their value, description and name, each unlike the other kinds', () => {
    fc.assert(fc.property(twoDistinct(fc.bigInt()), ([a, b]) => expectDifferentWork(a, b)));
    fc.assert(fc.property(twoDistinct(fc.string({ maxLength: 6 })), ([a, b]) => expectDifferentWork(Symbol(a), Symbol(b))));
    expectDifferentWork(1n, 1);
    expectDifferentWork(1n, '1');
    expectDifferentWork(Symbol('x'), 'x');
    expectDifferentWork(Symbol('x'), Symbol());
    expectDifferentWork(
      function parse() {},
      function stringify() {},
    );
    expectDifferentWork(function parse() {}, 'parse');
    expect(digest(Symbol('x')).hash).toBe(digest(Symbol('x')).hash);
  });

  it('a RegExp by source and flags, an Error by name and message, a Date by time', () => {
    expectDifferentWork(/ab/g, /ab/i);
    expectDifferentWork(/ab/g, /ac/g);
    expectDifferentWork(/ab/, 'ab');
    expectDifferentWork(new Error('no file'), new Error('no dir'));
    expectDifferentWork(new Error('x'), new TypeError('x'));
    expectDifferentWork(new Error('x'), { name: 'Error', message: 'x' });
    expectDifferentWork(new Date(5), 5);
    expect(digest(new Error('x')).hash).toBe(digest(new Error('x')).hash);
  });

  it('typed arrays by type and bytes, ArrayBuffers by bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), fc.nat(), (bytes, at) => {
      const changed = bytes.slice();
      changed[at % bytes.length] = (changed[at % bytes.length]! + 1) % 256;
      expectDifferentWork(bytes, changed);
      expectDifferentWork(bytes.buffer, changed.buffer);
      expectDifferentWork(bytes, new Int8Array(bytes.buffer));
    }));
    // Past one 4096-byte chunk: the last chunk counts too.
    const big = new Uint8Array(5000);
    const bigChanged = big.slice();
    bigChanged[4999] = 1;
    expectDifferentWork(big, bigChanged);
    expect(digest(new Uint8Array([1, 2]).buffer).hash).toBe(digest(new Uint8Array([1, 2])).hash);
  });

  it('the primitives that print alike: null, undefined, booleans, "null", 0 and -0', () => {
    const alike: unknown[] = [null, undefined, true, false, 'null', 'u', 'T', 0, -0, '0', NaN, Infinity, -Infinity];
    const hashes = alike.map((v) => digest(v).hash);
    expect(new Set(hashes).size).toBe(alike.length);
  });

  it('shared references and cycles by where they point', () => {
    const shared = { n: 1 };
    const a: unknown[] = [shared, shared];
    const b: unknown[] = [{ n: 1 }, { n: 1 }];
    expectDifferentWork(a, b);
    const loop1: { self?: unknown; n: number } = { n: 1 };
    loop1.self = loop1;
    const loop2: { self?: unknown; n: number } = { n: 2 };
    loop2.self = loop2;
    expectDifferentWork(loop1, loop2);
  });
});

describe('the same work has one digest', () => {
  it('whatever order an object was built in, and the hash is 16 hex digits', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.integer(), fc.string(), fraction)), (obj) => {
        const reversed = Object.fromEntries(Object.entries(obj).reverse());
        expect(digest(reversed)).toEqual(digest(obj));
        expect(digest(obj).hash).toMatch(/^[0-9a-f]{16}$/);
      }),
    );
  });

  it('fractions that agree to 10 significant digits share the tolerance hash; any integer, string or key difference does not', () => {
    fc.assert(
      fc.property(fraction, fc.string({ maxLength: 4 }), (x, s) => {
        const nudged = x * (1 + 1e-13);
        fc.pre(nudged !== x && nudged.toPrecision(10) === x.toPrecision(10));
        expect(digest({ s, x }).rounded).toBe(digest({ s, x: nudged }).rounded);
        expect(digest({ s, x }).hash).not.toBe(digest({ s, x: nudged }).hash);
        expect(digest({ s, x, i: 1 }).rounded).not.toBe(digest({ s, x: nudged, i: 2 }).rounded);
        expect(digest({ s, x }).rounded).not.toBe(digest({ [`${s}_`]: s, x }).rounded);
      }),
    );
  });
});

describe('the summary a user reads beside a mismatch', () => {
  it('names the kind and size of the value', () => {
    const cases: [unknown, string][] = [
      [null, 'null'],
      [[1, 2, 3], 'Array(3)'],
      [new Uint16Array(2), 'Uint16Array(4 bytes)'],
      [new Map([[1, 2]]), 'Map(1)'],
      [new Set([1, 2]), 'Set(2)'],
      ['abcd', 'string(4)'],
      [42, 'number 42'],
      [true, 'boolean true'],
      [7n, 'bigint 7'],
      [{ a: 1, b: 2 }, 'Object{2 keys}'],
      [Object.create(null) as object, 'Object{0 keys}'],
      [new Date(0), 'Date{0 keys}'],
      [undefined, 'undefined'],
      [Symbol('s'), 'symbol'],
    ];
    for (const [value, summary] of cases) expect(digest(value).summary).toBe(summary);
  });
});
