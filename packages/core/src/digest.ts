/**
 * A structural digest of a case's return value, identical on every runtime for
 * the same value. It proves that two runtimes (or two variants) did the same
 * work: a reviver that is not called, a parse of a different document, a
 * stream that drops chunks all change it. Not cryptographic; collisions only
 * need to be unlikely between honest mistakes.
 */

import type { Digest } from './protocol-schema.ts';

export type { Digest };

/** Significant digits a non-integer number keeps in Digest.rounded. */
export const DIGEST_SIGNIFICANT_DIGITS = 10;

/** Bytes are hashed in chunks of this many, each as one write(). */
const BYTE_CHUNK = 4096;

/** Two independent 32-bit FNV-1a style lanes, fed with a canonical token stream. */
class Hasher {
  private a = 0x811c9dc5;
  private b = 0x01000193 ^ 0x5bd1e995;
  write(text: string): void {
    let a = this.a;
    let b = this.b;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    // A separator so that ["ab","c"] and ["a","bc"] differ.
    this.a = Math.imul(a ^ 0xff, 0x01000193);
    this.b = Math.imul(b ^ 0xfe, 0x5bd1e995);
  }
  /**
   * The bytes as write() hashes the latin1 text of each chunk of BYTE_CHUNK (the same hash), read in place: no text
   * made of them, which for a case returning megabytes was most of its first call's digest.
   */
  writeBytes(bytes: Uint8Array): void {
    for (let start = 0; start < bytes.length; start += BYTE_CHUNK) {
      const end = Math.min(start + BYTE_CHUNK, bytes.length);
      let a = this.a;
      let b = this.b;
      for (let i = start; i < end; i++) {
        const c = bytes[i]!;
        a = Math.imul(a ^ c, 0x01000193);
        b = Math.imul(b ^ c, 0x5bd1e995);
        b ^= b >>> 15;
      }
      this.a = Math.imul(a ^ 0xff, 0x01000193);
      this.b = Math.imul(b ^ 0xfe, 0x5bd1e995);
    }
  }
  hex(): string {
    return (this.a >>> 0).toString(16).padStart(8, '0') + (this.b >>> 0).toString(16).padStart(8, '0');
  }
}

function numberToken(n: number): string {
  return Object.is(n, -0) ? '-0' : String(n);
}

/** Feeds the exact and the rounded hasher; they differ only in how non-integer numbers are written. */
class DigestWriter {
  readonly exact = new Hasher();
  readonly rounded = new Hasher();
  sawFraction = false;
  /** What the value holds that the digest cannot see (a Promise, state kept in #private fields, an unread body). */
  readonly unseen: string[] = [];
  constructor(readonly bodies: ReadonlyMap<object, Uint8Array>) {}
  write(text: string): void {
    this.exact.write(text);
    this.rounded.write(text);
  }
  bytes(bytes: Uint8Array): void {
    this.exact.writeBytes(bytes);
    this.rounded.writeBytes(bytes);
  }
  number(n: number): void {
    const token = numberToken(n);
    this.exact.write(`n${token}`);
    if (Number.isFinite(n) && !Number.isInteger(n)) {
      this.sawFraction = true;
      this.rounded.write(`n${n.toPrecision(DIGEST_SIGNIFICANT_DIGITS)}`);
    } else {
      this.rounded.write(`n${token}`);
    }
  }
}

function walk(value: unknown, h: DigestWriter, seen: Map<object, number>): void {
  switch (typeof value) {
    case 'undefined':
      return h.write('u');
    case 'boolean':
      return h.write(value ? 'T' : 'F');
    case 'number':
      return h.number(value);
    case 'bigint':
      return h.write(`b${value.toString()}`);
    case 'string':
      return h.write(`s${value.length}:${value}`);
    case 'symbol':
      return h.write(`y${value.description ?? ''}`);
    case 'function':
      return h.write(`f${value.name}`);
  }
  if (value === null) return h.write('null');
  const obj = value as object;
  const ref = seen.get(obj);
  if (ref !== undefined) return h.write(`ref${ref}`);
  seen.set(obj, seen.size);

  if (ArrayBuffer.isView(obj)) {
    const bytes = new Uint8Array(obj.buffer, obj.byteOffset, obj.byteLength);
    h.write(`${obj.constructor.name}:${bytes.length}`);
    // Hashed as chunks of latin1 text would be: engine-independent.
    return h.bytes(bytes);
  }
  if (obj instanceof ArrayBuffer) return walk(new Uint8Array(obj), h, seen);
  if (Array.isArray(obj)) {
    h.write(`[${obj.length}`);
    for (let i = 0; i < obj.length; i++) walk(obj[i], h, seen);
    return h.write(']');
  }
  if (obj instanceof Date) return h.write(`D${obj.getTime()}`);
  if (obj instanceof Map) {
    h.write(`M${obj.size}`);
    for (const [k, v] of obj) {
      walk(k, h, seen);
      walk(v, h, seen);
    }
    return;
  }
  if (obj instanceof Set) {
    h.write(`S${obj.size}`);
    for (const v of obj) walk(v, h, seen);
    return;
  }
  if (obj instanceof RegExp) return h.write(`R${obj.source}/${obj.flags}`);
  if (obj instanceof Error) return h.write(`E${obj.name}:${obj.message}`);
  if (webValue(obj, h, seen)) return;
  if (isOpaque(obj)) {
    h.unseen.push(`a ${kindOf(obj)}`);
    return h.write(`O${kindOf(obj)}`);
  }
  const runtimeClass = runtimeClassOf(obj);
  if (runtimeClass !== undefined) {
    h.unseen.push(`an instance of the runtime's own ${runtimeClass}, compared by its class alone: each runtime keeps its state its own way`);
    return h.write(`C${runtimeClass}`);
  }
  // Plain objects and class instances: own enumerable string keys, sorted, so
  // that engines that order properties differently still agree.
  const keys = Object.keys(obj).sort();
  h.write(`{${keys.length}`);
  for (const key of keys) {
    h.write(key);
    walk((obj as Record<string, unknown>)[key], h, seen);
  }
  h.write('}');
  // Written only when present, so a plain value's digest is what it always was.
  const symbols = Object.getOwnPropertySymbols(obj).filter((k) => Object.prototype.propertyIsEnumerable.call(obj, k));
  if (symbols.length) {
    const named = symbols.map((k) => [k.description ?? '', k] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    h.write(`Y${named.length}`);
    for (const [name, k] of named) {
      h.write(name);
      walk((obj as Record<symbol, unknown>)[k], h, seen);
    }
  }
  const getters = accessorsOf(obj);
  if (getters.length) {
    h.write(`G${getters.length}`);
    for (const [name, get] of getters) {
      h.write(name);
      let got: unknown;
      try {
        got = Reflect.apply(get, obj, []);
      } catch {
        got = GETTER_THREW;
      }
      walk(got, h, seen);
    }
  }
  if (!keys.length && !symbols.length && !getters.length && !isPlain(obj)) h.unseen.push(`an instance of ${kindOf(obj)} with no state the digest can read (only #private fields, or none)`);
}

const GETTER_THREW = Symbol('the getter threw');

function isPlain(obj: object): boolean {
  const proto = Object.getPrototypeOf(obj) as object | null;
  return proto === null || proto === Object.prototype;
}

function kindOf(obj: object): string {
  const ctor = (obj as { constructor?: { name?: unknown } }).constructor;
  return typeof ctor?.name === 'string' && ctor.name ? ctor.name : 'Object';
}

/** Classes of the language itself, whose instances the walk reads as before (a String object by its characters). */
const LANGUAGE_WRAPPERS = new Set(['Object', 'Boolean', 'Number', 'String', 'BigInt', 'Symbol']);

/**
 * The name of the runtime's own class `obj` is an instance of (its constructor is the global of that name: an
 * AbortSignal, an EventTarget, a TextEncoder), or undefined. Such a class keeps its state as each runtime writes it
 * (symbol-keyed fields and JavaScript getters on node and deno, none the walk can see on bun and workerd), so walking
 * it would tell the runtimes apart, not the work; a class the file or a package defines is walked as ever.
 */
function runtimeClassOf(obj: object): string | undefined {
  const ctor = (obj as { constructor?: unknown }).constructor;
  if (typeof ctor !== 'function' || !ctor.name || LANGUAGE_WRAPPERS.has(ctor.name)) return undefined;
  return has(ctor.name) === ctor ? ctor.name : undefined;
}

/** A prototype of the runtime's own class: a file's class that extends one shows its own getters, not the runtime's. */
const isRuntimeProto = (proto: object): boolean => Object.hasOwn(proto, 'constructor') && runtimeClassOf(proto) !== undefined;

/** Values whose content no walk can read: a Promise's result, weak collections. */
function isOpaque(obj: object): boolean {
  return obj instanceof Promise || obj instanceof WeakMap || obj instanceof WeakSet || (typeof WeakRef === 'function' && obj instanceof WeakRef);
}

/** A built-in's constructor: its getters may read the clock or the process (an Event's timeStamp), so they are not walked. */
function isNative(proto: object): boolean {
  const ctor = Object.getOwnPropertyDescriptor(proto, 'constructor')?.value as unknown;
  return typeof ctor === 'function' && /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(ctor));
}

/** Getters the prototypes of a class written in JavaScript define, by name, sorted: what its accessors show. */
function accessorsOf(obj: object): [string, () => unknown][] {
  const found = new Map<string, () => unknown>();
  for (let proto = Object.getPrototypeOf(obj) as object | null; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    if (isNative(proto) || isRuntimeProto(proto)) continue;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const get = Object.getOwnPropertyDescriptor(proto, name)?.get;
      if (get && !found.has(name)) found.set(name, get);
    }
  }
  return [...found].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/**
 * A global class, or undefined. Node loads its fetch classes on first use, and that load can throw once a case has
 * replaced a builtin it relies on (JSON.stringify): then no value of that class can exist, and there is none to see.
 */
function has(name: string): unknown {
  try {
    return (globalThis as Record<string, unknown>)[name];
  } catch {
    return undefined;
  }
}

/** The web platform's values, where the runtime has them, by what they hold: true when `obj` was one. */
function webValue(obj: object, h: DigestWriter, seen: Map<object, number>): boolean {
  // A plain object is an instance of no class: reading the globals would, on node, load its fetch classes (a tenth
  // of a second of a fresh process's start-up) for a value that cannot be one.
  if (isPlain(obj)) return false;
  const URLClass = has('URL');
  if (typeof URLClass === 'function' && obj instanceof URLClass) {
    h.write(`U${(obj as URL).href}`);
    return true;
  }
  const Params = has('URLSearchParams');
  if (typeof Params === 'function' && obj instanceof Params) {
    h.write(`Q${String(obj)}`);
    return true;
  }
  const HeadersClass = has('Headers');
  if (typeof HeadersClass === 'function' && obj instanceof HeadersClass) {
    // Iterated in the spec's order (names lowercased and sorted), the same on every runtime.
    const pairs = [...(obj as Headers)];
    h.write(`H${pairs.length}`);
    for (const [name, value] of pairs) h.write(`${name}:${value}`);
    return true;
  }
  const Signal = has('AbortSignal');
  if (typeof Signal === 'function' && obj instanceof Signal) {
    // What the standard lets a program read of it; each runtime keeps the rest its own way.
    const signal = obj as AbortSignal;
    h.write(`A${signal.aborted ? 1 : 0}`);
    if (signal.aborted) walk(signal.reason, h, seen);
    return true;
  }
  const ResponseClass = has('Response');
  const RequestClass = has('Request');
  const isResponse = typeof ResponseClass === 'function' && obj instanceof ResponseClass;
  const isRequest = typeof RequestClass === 'function' && obj instanceof RequestClass;
  if (!isResponse && !isRequest) return false;
  const m = obj as Response & Request;
  h.write(isResponse ? `P${m.status} ${m.statusText} ${m.url}` : `K${m.method} ${m.url}`);
  walk(m.headers, h, seen);
  const body = h.bodies.get(obj);
  if (body) walk(body, h, seen);
  else if (m.body !== null) h.unseen.push(`the body of a ${isResponse ? 'Response' : 'Request'} (read only when the case returns it)`);
  return true;
}

/** The summary of a digest of undefined: a case that returned nothing. */
export const UNDEFINED_SUMMARY = 'undefined';

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `Array(${value.length})`;
  if (ArrayBuffer.isView(value)) return `${value.constructor.name}(${value.byteLength} bytes)`;
  if (value instanceof Map || value instanceof Set) return `${value.constructor.name}(${value.size})`;
  switch (typeof value) {
    case 'string':
      return `string(${value.length})`;
    case 'number':
    case 'boolean':
    case 'bigint':
      return `${typeof value} ${String(value)}`;
    case 'object':
      return `${(value as object).constructor?.name ?? 'Object'}{${Object.keys(value as object).length} keys}`;
    case 'undefined':
      return UNDEFINED_SUMMARY;
    default:
      return typeof value;
  }
}

export function digest(value: unknown): Digest {
  return digestWithSight(value).digest;
}

/**
 * The digest and what it could not see in the value: a Promise, an instance
 * whose state is only in #private fields, a Response's or Request's body that
 * was not read (`bodies`: bodies read beforehand, readBodies).
 */
export function digestWithSight(value: unknown, bodies: ReadonlyMap<object, Uint8Array> = new Map()): { digest: Digest; unseen: string[] } {
  const h = new DigestWriter(bodies);
  walk(value, h, new Map());
  return { digest: { hash: h.exact.hex(), summary: describe(value), ...(h.sawFraction ? { rounded: h.rounded.hex() } : {}) }, unseen: [...new Set(h.unseen)] };
}

/**
 * The bodies of a returned Response or Request (the value itself, or one
 * directly inside a returned array or object), read from a clone once,
 * outside the timing: the digest then covers them.
 */
export async function readBodies(value: unknown): Promise<Map<object, Uint8Array>> {
  const bodies = new Map<object, Uint8Array>();
  const candidates = Array.isArray(value) ? value : value !== null && typeof value === 'object' && isPlain(value) ? Object.values(value) : [value];
  for (const v of candidates) {
    // A plain object or an array is neither; reading the classes would load node's fetch (webValue).
    if (v === null || typeof v !== 'object' || isPlain(v) || Array.isArray(v)) continue;
    const ResponseClass = has('Response');
    const RequestClass = has('Request');
    const readable = (typeof ResponseClass === 'function' && v instanceof ResponseClass) || (typeof RequestClass === 'function' && v instanceof RequestClass);
    const m = v as Response;
    if (!readable || m.body === null || m.bodyUsed) continue;
    bodies.set(v, new Uint8Array(await m.clone().arrayBuffer()));
  }
  return bodies;
}
