/**
 * What the digest reads from the web platform's values a request case returns
 * (URL, URLSearchParams, Headers, Request, Response and a body read beforehand)
 * and from the rest of what a case can hand back (views over bytes, Symbol keys,
 * a class's getters, built-ins it must not walk): each part that differs between
 * two runtimes' work changes the digest, and nothing else does. A change here
 * that let different work pass as the same would break history's comparisons.
 */
import { describe, expect, it } from 'vitest';
import { digest, digestWithSight, readBodies } from '../src/digest.ts';

const hash = (value: unknown): string => digest(value).hash;
const same = (a: unknown, b: unknown): void => expect(hash(a)).toBe(hash(b));
const apart = (a: unknown, b: unknown): void => expect(hash(a)).not.toBe(hash(b));
/** The digest of an object with two Symbol keys of one name, 1 set first. */
const TIED = '2a39db3a1f8ced4e';

describe('URLs, search params and headers', () => {
  it('a URL by its whole address, and not as the string it prints', () => {
    same(new URL('https://a.example/x?q=1'), new URL('https://a.example/x?q=1'));
    apart(new URL('https://a.example/x?q=1'), new URL('https://a.example/x?q=2'));
    apart(new URL('https://a.example/x'), 'https://a.example/x');
    apart(new URL('https://a.example/x'), {});
  });

  it('search params by their text, and not as a URL or a string', () => {
    same(new URLSearchParams('a=1&b=2'), new URLSearchParams([['a', '1'], ['b', '2']]));
    apart(new URLSearchParams('a=1&b=2'), new URLSearchParams('b=2&a=1'));
    apart(new URLSearchParams('a=1'), 'a=1');
    apart(new URLSearchParams(''), {});
  });

  it('headers by name and value in the spec order, whatever order and case they were set in', () => {
    same(new Headers({ B: '2', a: '1' }), new Headers([['a', '1'], ['b', '2']]));
    apart(new Headers({ a: '1' }), new Headers({ a: '2' }));
    apart(new Headers({ a: '1' }), new Headers({ b: '1' }));
    apart(new Headers({ a: '1' }), new Headers({ a: '1', b: '' }));
    // The count is written: one header "a: 1, b" is not two.
    apart(new Headers({ a: '1' }), new Headers());
    apart(new Headers(), {});
    apart(new Headers(), new URLSearchParams(''));
  });
});

describe('a Response or a Request', () => {
  it('a Response by its status, status text and headers', () => {
    same(new Response(null, { status: 204, headers: { a: '1' } }), new Response(null, { status: 204, headers: { a: '1' } }));
    apart(new Response(null, { status: 204 }), new Response(null, { status: 205 }));
    apart(new Response(null, { status: 200, statusText: 'OK' }), new Response(null, { status: 200, statusText: 'Fine' }));
    apart(new Response(null, { headers: { a: '1' } }), new Response(null, { headers: { a: '2' } }));
    apart(new Response(null), {});
  });

  it('a Request by its method, address and headers, and never as a Response', () => {
    same(new Request('http://h.example/a', { method: 'POST' }), new Request('http://h.example/a', { method: 'POST' }));
    apart(new Request('http://h.example/a'), new Request('http://h.example/b'));
    apart(new Request('http://h.example/a'), new Request('http://h.example/a', { method: 'DELETE' }));
    apart(new Request('http://h.example/a', { headers: { a: '1' } }), new Request('http://h.example/a', { headers: { a: '2' } }));
    apart(new Request('http://h.example/a'), new Response(null));
  });

  it('its body once read: different bytes differ, the same bytes agree, and nothing is left unseen', async () => {
    const seen = async (m: Response | Request) => digestWithSight(m, await readBodies(m));
    const a = await seen(new Response('body a'));
    const a2 = await seen(new Response('body a'));
    const b = await seen(new Response('body b'));
    expect(a.unseen).toEqual([]);
    expect(a.digest.hash).toBe(a2.digest.hash);
    expect(a.digest.hash).not.toBe(b.digest.hash);
    // A read body is in the digest: the same Response unread digests otherwise.
    const unread = new Response('body a');
    expect(digest(unread).hash).not.toBe(a.digest.hash);
    const post = (body: string) => new Request('http://h.example/a', { method: 'POST', body });
    expect((await seen(post('x'))).digest.hash).not.toBe((await seen(post('y'))).digest.hash);
  });

  it('says which body it did not read, and none when there is no body', () => {
    expect(digestWithSight(new Request('http://h.example/a', { method: 'POST', body: 'x' })).unseen).toEqual(['the body of a Request (read only when the case returns it)']);
    expect(digestWithSight(new Response('x')).unseen).toEqual(['the body of a Response (read only when the case returns it)']);
    expect(digestWithSight(new Response(null)).unseen).toEqual([]);
    expect(digestWithSight(new Request('http://h.example/a')).unseen).toEqual([]);
  });
});

describe('readBodies', () => {
  it('reads a returned Response or Request, or one directly inside a returned array or plain object', async () => {
    const direct = new Response('d');
    expect([...(await readBodies(direct)).keys()]).toEqual([direct]);
    const request = new Request('http://h.example/a', { method: 'PUT', body: 'r' });
    const inArray = new Response('a');
    const inObject = new Response('o');
    const inArrayBodies = await readBodies([inArray, request, 3, null]);
    expect([...inArrayBodies.keys()]).toEqual([inArray, request]);
    expect(new TextDecoder().decode(inArrayBodies.get(request))).toBe('r');
    const fromObject = await readBodies({ response: inObject, n: 1 });
    expect(new TextDecoder().decode(fromObject.get(inObject))).toBe('o');
  });

  it('reads nothing deeper, nothing without a body, nothing already read, and no other value', async () => {
    class Holder {
      constructor(readonly response: Response) {}
    }
    expect((await readBodies(new Holder(new Response('h')))).size).toBe(0);
    expect((await readBodies({ nested: { response: new Response('n') } })).size).toBe(0);
    expect((await readBodies([[new Response('n')]])).size).toBe(0);
    expect((await readBodies(new Response(null))).size).toBe(0);
    const used = new Response('u');
    await used.text();
    expect((await readBodies(used)).size).toBe(0);
    expect((await readBodies({ a: 'text', b: 1, c: null })).size).toBe(0);
    expect((await readBodies(null)).size).toBe(0);
    expect((await readBodies(undefined)).size).toBe(0);
    expect((await readBodies('a string')).size).toBe(0);
  });
});

describe('bytes', () => {
  it('a view by its kind and the bytes it sees, past the first 4096', () => {
    const big = new Uint8Array(10_000).map((_, i) => i % 251);
    const changed = big.slice();
    changed[9_000] = 7;
    same(big, big.slice());
    apart(big, changed);
    apart(new Uint8Array([1, 2]), new Int8Array([1, 2]));
    // Only the bytes inside the view, not its whole buffer.
    same(new Uint8Array([9, 9, 1, 2, 9]).subarray(2, 4), new Uint8Array([1, 2]));
    apart(new Uint8Array([1, 2]), new Uint8Array([1, 2, 0]));
  });

  it('an ArrayBuffer as the bytes it holds', () => {
    same(new Uint8Array([1, 2, 3]).buffer, new Uint8Array([1, 2, 3]));
    apart(new Uint8Array([1, 2, 3]).buffer, new Uint8Array([1, 2, 4]).buffer);
  });
});

describe('objects beyond plain data', () => {
  it('Symbol keys by their names, in any order, and only enumerable ones', () => {
    const a = Symbol('a');
    const b = Symbol('b');
    same({ [a]: 1, [b]: 2 }, { [b]: 2, [a]: 1 });
    const [c, d] = [Symbol('c'), Symbol('d')];
    same({ [d]: 4, [b]: 2, [a]: 1, [c]: 3 }, { [a]: 1, [b]: 2, [c]: 3, [d]: 4 });
    same({ [c]: 3, [a]: 1, [d]: 4, [b]: 2 }, { [b]: 2, [d]: 4, [c]: 3, [a]: 1 });
    // Keys of one name keep the order they were set in.
    expect(hash({ [Symbol('same')]: 1, [Symbol('same')]: 2 })).toBe(TIED);
    apart({ [Symbol('same')]: 1, [Symbol('same')]: 2 }, { [Symbol('same')]: 2, [Symbol('same')]: 1 });
    apart({ [a]: 1, [b]: 2 }, { [a]: 2, [b]: 1 });
    apart({ [a]: 1 }, {});
    apart({ [a]: 1 }, { [Symbol('c')]: 1 });
    const hidden = {};
    Object.defineProperty(hidden, a, { value: 1, enumerable: false });
    same(hidden, {});
  });

  it("a class's getters by name in any order, a subclass's own first, one that throws as itself", () => {
    class XY {
      get x(): number {
        return 1;
      }
      get y(): number {
        return 2;
      }
    }
    class YX {
      get y(): number {
        return 2;
      }
      get x(): number {
        return 1;
      }
    }
    class Overriding extends XY {
      override get x(): number {
        return 3;
      }
    }
    class Throws {
      get x(): number {
        throw new Error('no');
      }
    }
    class Undefined {
      get x(): undefined {
        return undefined;
      }
    }
    same(new XY(), new YX());
    class DCAB {
      get d(): number {
        return 4;
      }
      get c(): number {
        return 3;
      }
      get a(): number {
        return 1;
      }
      get b(): number {
        return 2;
      }
    }
    class BDCA {
      get b(): number {
        return 2;
      }
      get d(): number {
        return 4;
      }
      get c(): number {
        return 3;
      }
      get a(): number {
        return 1;
      }
    }
    same(new DCAB(), new BDCA());
    apart(new XY(), new Overriding());
    apart(new XY(), { x: 1, y: 2 });
    same(new Throws(), new Throws());
    apart(new Throws(), new Undefined());
    expect(digestWithSight(new Throws()).unseen).toEqual([]);
  });

  it("skips a built-in's getters (they may read the clock or the process): its instances are named unseen", () => {
    same(new Intl.Locale('en'), new Intl.Locale('fr'));
    expect(digestWithSight(new Intl.Locale('en')).unseen).toEqual(['an instance of Locale with no state the digest can read (only #private fields, or none)']);
  });

  it('what no walk can read, by kind, named once each', () => {
    apart(new WeakMap(), new WeakSet());
    apart(new WeakRef({}), new WeakMap());
    apart(Promise.resolve(1), {});
    expect(digestWithSight([new WeakMap(), new WeakSet(), new WeakRef({}), Promise.resolve(), Promise.resolve()]).unseen).toEqual(['a WeakMap', 'a WeakSet', 'a WeakRef', 'a Promise']);
    const Anonymous = (() => class {})();
    expect(digestWithSight(new Anonymous()).unseen).toEqual(['an instance of Object with no state the digest can read (only #private fields, or none)']);
    // A prototype whose constructor is no class: the kind is named Object.
    expect(digestWithSight(Object.create(Object.create(null))).unseen).toEqual(['an instance of Object with no state the digest can read (only #private fields, or none)']);
    expect(digestWithSight(Object.create({ constructor: { name: 5 } })).unseen).toEqual(['an instance of Object with no state the digest can read (only #private fields, or none)']);
    // Plain objects, and instances with a field, a Symbol key or a getter, hold what the digest reads.
    class Field {
      a = 1;
    }
    class Getter {
      get g(): number {
        return 1;
      }
    }
    expect(digestWithSight([{}, Object.create(null), { [Symbol('s')]: 1 }, new Field(), new Getter()]).unseen).toEqual([]);
  });

  it('a shared reference is not a copy, and each kind by what it holds', () => {
    const o = { n: 1 };
    apart([o, o], [o, { n: 1 }]);
    apart(new Map([[1, 2]]), new Map([[2, 1]]));
    apart(new Set([1]), new Set([2]));
    apart(new Set([1]), [1]);
    apart(new TypeError('x'), new Error('x'));
    apart(new Error('x'), new Error('y'));
    apart(/a/g, /a/i);
    apart(/a/, /b/);
    apart(function one() {}, function two() {});
    apart(1n, 2n);
    apart(Symbol('a'), Symbol('b'));
    apart(true, false);
    apart(undefined, null);
    apart('1', 1);
  });
});

describe("a digest's summary", () => {
  it('names the shape of what the case returned', () => {
    const summary = (value: unknown): string => digest(value).summary;
    expect(summary(null)).toBe('null');
    expect(summary(undefined)).toBe('undefined');
    expect(summary('abc')).toBe('string(3)');
    expect(summary(true)).toBe('boolean true');
    expect(summary(5n)).toBe('bigint 5');
    expect(summary(new Map([[1, 1]]))).toBe('Map(1)');
    expect(summary(new Set([1, 2]))).toBe('Set(2)');
    expect(summary(new Int16Array(3))).toBe('Int16Array(6 bytes)');
    expect(summary({ a: 1, b: 2 })).toBe('Object{2 keys}');
    expect(summary(Object.create(null))).toBe('Object{0 keys}');
    expect(summary(new URL('https://a.example/'))).toBe('URL{0 keys}');
    expect(summary(Symbol('s'))).toBe('symbol');
    expect(summary(() => 1)).toBe('function');
  });
});

describe('where a runtime lacks a web class', () => {
  it('digests plain values as anywhere else and reads no body, also when reading the class throws', async () => {
    const lazy = ['URL', 'URLSearchParams', 'Headers', 'Response', 'Request'];
    const saved = [...lazy, 'WeakRef'].map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)!] as const);
    const value = { a: [1, 'x', 0.5], m: new Map([[1, new Set([2])]]), p: Promise.resolve() };
    const before = digestWithSight(value);
    const response = new Response('r');
    const global = globalThis as Record<string, unknown>;
    // Read while the classes are gone, compared after they are back (expect's equality reads URL itself).
    let absent: ReturnType<typeof digestWithSight>;
    let throwing: ReturnType<typeof digestWithSight>;
    let bodiesRead: number[];
    try {
      for (const [name] of saved) delete global[name];
      absent = digestWithSight(value);
      bodiesRead = [(await readBodies([response, {}])).size];
      // Node loads its fetch classes on first read, which can throw once a case has replaced a builtin.
      for (const name of lazy) {
        Object.defineProperty(globalThis, name, {
          configurable: true,
          get() {
            throw new Error(`${name} could not load`);
          },
        });
      }
      throwing = digestWithSight(value);
      bodiesRead.push((await readBodies(response)).size);
    } finally {
      for (const [name, descriptor] of saved) Object.defineProperty(globalThis, name, descriptor);
    }
    expect(absent).toEqual(before);
    expect(throwing).toEqual(before);
    expect(bodiesRead).toEqual([0, 0]);
    expect(hash(new URL('https://a.example/'))).not.toBe(hash({}));
  });
});

describe('the digest of web values and classes across versions', () => {
  it('gives the values it gave before: saved runs of request cases compare with new ones', () => {
    // As digest.test.ts's pins: changing one on purpose needs a line in docs/results-files.md.
    class Point {
      constructor(readonly x: number) {}
      get double(): number {
        return this.x * 2;
      }
      get area(): number {
        return 0;
      }
    }
    const value = {
      url: new URL('https://a.example/p?q=1'),
      params: new URLSearchParams('a=1&b=2'),
      headers: new Headers({ b: '2', a: '1' }),
      response: new Response(null, { status: 201, statusText: 'Made', headers: { x: 'y' } }),
      request: new Request('http://h.example/r', { method: 'PUT' }),
      view: new Int16Array([1, -1]),
      tagged: { [Symbol('t')]: 1, [Symbol('s')]: [2] },
      point: new Point(1.5),
      weak: new WeakMap(),
    };
    expect(digest(value)).toEqual({ hash: 'd3997e86b7e31d13', summary: 'Object{9 keys}', rounded: 'fa4939c6f3e70394' });
  });
});

describe('plain values', () => {
  it('are digested, and their bodies looked for, without reading the fetch globals, which node loads on first read; a class instance still reads them', async () => {
    const names = ['URL', 'URLSearchParams', 'Headers', 'Request', 'Response'] as const;
    const saved = names.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)!] as const);
    const read: string[] = [];
    try {
      for (const [name, descriptor] of saved) {
        const value = descriptor.get ? descriptor.get.call(globalThis) : descriptor.value;
        Object.defineProperty(globalThis, name, { configurable: true, get: () => (read.push(name), value) });
      }
      const plain = { a: [1, { b: 'c' }], d: Object.assign(Object.create(null) as object, { e: 2 }) };
      await readBodies(plain);
      await readBodies([plain, { f: 3 }]);
      digest(plain);
      // Counted before asserting: the assertion's own equality reads URL.
      const readByPlain = read.length;
      expect(readByPlain).toBe(0);
      class Point {
        constructor(readonly x: number) {}
      }
      digest(new Point(1));
      const readByInstance = [...read];
      expect(readByInstance).toEqual(expect.arrayContaining(['Headers', 'Response']));
    } finally {
      for (const [name, descriptor] of saved) Object.defineProperty(globalThis, name, descriptor);
    }
  });
});
