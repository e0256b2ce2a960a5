/**
 * The binary frame: fixed-offset numbers read with a DataView, and every
 * string in one UTF-8 region decoded with a single TextDecoder call. String
 * lengths are stored in UTF-16 code units, so the decoded text is cut with
 * slice() and never re-measured in bytes.
 *
 *   0  u32 magic 'RLY1'   4 u32 requestId   8 f64 timestamp   16 u32 userId
 *  20  u8 priority  21 u8 flags (1 stream, 2 cache)  22 u8 scores  23 u8 strings
 *  24  f64 × scores, then u16 × strings (lengths), u32 text bytes, UTF-8 text
 * All little-endian.
 */
import type { RelayFields } from './fields.ts';

const MAGIC = 0x31594c52;
/** Order of the strings in the text region. */
const STRINGS = ['plan', 'region', 'route', 'traceId', 'attachment', 'note'] as const;

export function encodeFrame(f: RelayFields): Uint8Array {
  const text = STRINGS.map((k) => f[k]).join('');
  const utf8 = new TextEncoder().encode(text);
  const head = 24 + 8 * f.scores.length + 2 * STRINGS.length + 4;
  const out = new Uint8Array(head + utf8.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, f.requestId, true);
  view.setFloat64(8, f.timestamp, true);
  view.setUint32(16, f.userId, true);
  view.setUint8(20, f.priority);
  view.setUint8(21, (f.stream ? 1 : 0) | (f.cache ? 2 : 0));
  view.setUint8(22, f.scores.length);
  view.setUint8(23, STRINGS.length);
  let at = 24;
  for (const s of f.scores) {
    view.setFloat64(at, s, true);
    at += 8;
  }
  for (const k of STRINGS) {
    view.setUint16(at, f[k].length, true);
    at += 2;
  }
  view.setUint32(at, utf8.length, true);
  out.set(utf8, at + 4);
  return out;
}

const decoder = new TextDecoder();

export function readFrame(bytes: Uint8Array): RelayFields {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 24 || view.getUint32(0, true) !== MAGIC) throw new TypeError('bad frame: magic');
  const scoreCount = view.getUint8(22);
  if (view.getUint8(23) !== STRINGS.length) throw new TypeError('bad frame: string count');
  const scores = new Array<number>(scoreCount);
  let at = 24;
  for (let i = 0; i < scoreCount; i++, at += 8) scores[i] = view.getFloat64(at, true);
  const lengths = at;
  at += 2 * STRINGS.length;
  const textBytes = view.getUint32(at, true);
  if (at + 4 + textBytes !== bytes.byteLength) throw new TypeError('bad frame: text length');
  const text = decoder.decode(bytes.subarray(at + 4));
  let cut = 0;
  const next = (i: number): string => {
    const end = cut + view.getUint16(lengths + 2 * i, true);
    const s = text.slice(cut, end);
    cut = end;
    return s;
  };
  const flags = view.getUint8(21);
  const fields: RelayFields = {
    requestId: view.getUint32(4, true),
    timestamp: view.getFloat64(8, true),
    userId: view.getUint32(16, true),
    plan: next(0),
    region: next(1),
    route: next(2),
    priority: view.getUint8(20),
    stream: (flags & 1) !== 0,
    cache: (flags & 2) !== 0,
    scores,
    traceId: next(3),
    attachment: next(4),
    note: next(5),
  };
  if (cut !== text.length) throw new TypeError('bad frame: string lengths');
  return fields;
}
