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
  write(text: string): void {
    this.exact.write(text);
    this.rounded.write(text);
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
    // Hash bytes in chunks of latin1 text; decoding is engine-independent.
    for (let i = 0; i < bytes.length; i += 4096) {
      h.write(String.fromCharCode.apply(null, Array.from(bytes.subarray(i, i + 4096))));
    }
    return;
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
  // Plain objects and class instances: own enumerable string keys, sorted, so
  // that engines that order properties differently still agree.
  const keys = Object.keys(obj).sort();
  h.write(`{${keys.length}`);
  for (const key of keys) {
    h.write(key);
    walk((obj as Record<string, unknown>)[key], h, seen);
  }
  h.write('}');
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
  const h = new DigestWriter();
  walk(value, h, new Map());
  return { hash: h.exact.hex(), summary: describe(value), ...(h.sawFraction ? { rounded: h.rounded.hex() } : {}) };
}
