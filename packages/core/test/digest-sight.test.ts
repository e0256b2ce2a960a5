/**
 * What the digest sees beyond own enumerable string keys: web values by what
 * they hold, Symbol keys, a class's accessors, a Response's body read
 * beforehand; and what it says it cannot see. Plain values keep the digest
 * they had before these were covered (history compares digests across runs).
 */
import { describe, expect, it } from 'vitest';
import { digest, digestWithSight, readBodies } from '../src/digest.ts';
import { Hidden, Labelled } from '../../../test/fixtures/values-digested/classes.ts';

const tag = Symbol('tag');
const apart = (a: unknown, b: unknown): boolean => digest(a).hash !== digest(b).hash;

describe('the digest of values beyond plain data', () => {
  it('keeps the digest plain values always had', () => {
    // Hashes of the digest before web values, Symbol keys and accessors were covered.
    expect(digest({ a: [1, 2.5, 'x'], b: { c: null, d: true } }).hash).toBe('c4e27c42251925cc');
    expect(digest([new Map([[1, 'a']]), new Set([2]), new Uint8Array([1, 2])]).hash).toBe('83cdd617a4b6b7fa');
  });

  it('tells apart values that differ only in what these kinds hold', () => {
    expect(apart(new URL('https://a.example/x'), new URL('https://a.example/y'))).toBe(true);
    expect(apart(new URLSearchParams('a=1'), new URLSearchParams('a=2'))).toBe(true);
    expect(apart(new Headers({ a: '1' }), new Headers({ a: '2' }))).toBe(true);
    expect(apart({ [tag]: 1 }, { [tag]: 2 })).toBe(true);
    expect(apart(new Labelled('a'), new Labelled('b'))).toBe(true);
    expect(apart(new Response('a', { status: 200 }), new Response('a', { status: 201 }))).toBe(true);
  });

  it('covers a returned Response body once it is read, and says when it was not', async () => {
    const a = new Response('body a');
    const b = new Response('body b');
    expect(digestWithSight(a).unseen).toEqual(['the body of a Response (read only when the case returns it)']);
    const seenA = digestWithSight(a, await readBodies(a));
    const seenB = digestWithSight(b, await readBodies(b));
    expect(seenA.unseen).toEqual([]);
    expect(seenA.digest.hash).not.toBe(seenB.digest.hash);
    // Read from a clone: the case's own Response is still unread.
    expect(a.bodyUsed).toBe(false);
  });

  it("reads a returned Request's body from a clone: the file can still read it, or build a Request from it", async () => {
    const request = new Request('http://localhost/x', { method: 'POST', body: '{"a":1}' });
    expect(digestWithSight(request, await readBodies(request)).unseen).toEqual([]);
    expect(request.bodyUsed).toBe(false);
    expect(await new Request(request).text()).toBe('{"a":1}');
  });

  it('names what it cannot see: a Promise, state kept only in #private fields', () => {
    expect(digestWithSight({ pending: Promise.resolve(1) }).unseen).toEqual(['a Promise']);
    expect(digestWithSight(new Hidden('x')).unseen).toEqual(['an instance of Hidden with no state the digest can read (only #private fields, or none)']);
    expect(digestWithSight({ a: 1, b: [new Labelled('x')] }).unseen).toEqual([]);
  });
});

/** A package's own request class (undici's, say) whose getter hands on the runtime's own AbortSignal. */
class PackageRequest {
  readonly #signal: AbortSignal;
  constructor(
    readonly url: string,
    signal: AbortSignal,
  ) {
    this.#signal = signal;
  }
  get signal(): AbortSignal {
    return this.#signal;
  }
}

describe("an instance of the runtime's own class", () => {
  it('an AbortSignal by what the standard lets a program read: aborted, and why', () => {
    // Node and deno keep an AbortSignal's state in symbol-keyed fields of their own names; bun and workerd in none.
    const withInternals = new AbortController().signal;
    Object.defineProperty(withInternals, Symbol('kAborted'), { value: false, enumerable: true });
    const plain = new AbortController().signal;
    expect(apart(new PackageRequest('https://a.example/', withInternals), new PackageRequest('https://a.example/', plain))).toBe(false);
    expect(digestWithSight(new PackageRequest('https://a.example/', plain)).unseen).toEqual([]);
    expect(apart(plain, AbortSignal.abort('stop'))).toBe(true);
    expect(apart(AbortSignal.abort('stop'), AbortSignal.abort('halt'))).toBe(true);
    expect(apart(AbortSignal.abort('stop'), AbortSignal.abort('stop'))).toBe(false);
  });

  it('another is compared by its class, not by the state each runtime keeps its own way, and says so', () => {
    const withInternals = new EventTarget();
    Object.defineProperty(withInternals, Symbol('kEvents'), { value: new Map(), enumerable: true });
    expect(apart({ target: withInternals }, { target: new EventTarget() })).toBe(false);
    expect(digestWithSight({ target: new EventTarget() }).unseen).toEqual([
      "an instance of the runtime's own EventTarget, compared by its class alone: each runtime keeps its state its own way",
    ]);
  });

  it("still tells apart what the package's own class holds", () => {
    const signal = new AbortController().signal;
    expect(apart(new PackageRequest('https://a.example/x', signal), new PackageRequest('https://a.example/y', signal))).toBe(true);
    expect(apart(new EventTarget(), new TextEncoder())).toBe(true);
  });
});
