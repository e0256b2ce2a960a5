/**
 * Allocation workloads for gc-pressure. Each returns a function that does one
 * iteration's worth of allocation and returns an integer checksum of what it
 * built, so the digest proves the same objects were made on every runtime.
 *
 * Every allocation escapes into a ring the setup made (`slots`): an optimizing
 * compiler cannot replace an escaping object with registers (escape
 * analysis), so the allocation really happens. An object in the ring is
 * overwritten SLOTS allocations later, so it dies young, unless the case says
 * otherwise (the retained set).
 */
import { Buffer } from 'node:buffer';

const SLOTS = 64;
const WORDS = ['alpha', 'river', 'stone', 'quiet', 'ember', 'north', 'lumen', 'cedar'];

/** One small object: 4 fields, 2 of them numbers that vary per object. */
export interface Particle {
  id: number;
  x: number;
  y: number;
  tag: string;
}

/** Objects per iteration in the object cases. */
export const OBJECTS = 10_000;

/** OBJECTS small objects per iteration, each dead SLOTS allocations later. */
export function smallObjects(): () => number {
  const slots: Particle[] = new Array(SLOTS);
  let round = 0;
  return () => {
    const base = round++ & 0xff; // varies the values, not the amount of work
    let sum = 0;
    for (let i = 0; i < OBJECTS; i++) {
      const p: Particle = { id: i, x: base + i, y: i * 3, tag: WORDS[i & 7]! };
      slots[i & (SLOTS - 1)] = p;
      sum = (sum + p.x + p.y) | 0;
    }
    return sum;
  };
}

/** Arrays per iteration; each grows to 16 numbers with push(), as arrays usually are. */
export const ARRAYS = 2_000;

export function shortLivedArrays(): () => number {
  const slots: number[][] = new Array(SLOTS);
  let round = 0;
  return () => {
    const base = round++ & 0xff;
    let sum = 0;
    for (let i = 0; i < ARRAYS; i++) {
      const a: number[] = [];
      for (let j = 0; j < 16; j++) a.push(base + i + j);
      slots[i & (SLOTS - 1)] = a;
      sum = (sum + a[15]! + a.length) | 0;
    }
    return sum;
  };
}

/** Strings per iteration: a template with a number, then a concatenation, then a read that flattens it. */
export const STRINGS = 2_000;

export function stringsBuiltAndDropped(): () => number {
  const slots: string[] = new Array(SLOTS);
  let round = 0;
  return () => {
    const base = round++ & 0xff;
    let sum = 0;
    for (let i = 0; i < STRINGS; i++) {
      let s = `${WORDS[i & 7]}-${base + i}:`;
      s += WORDS[(i >> 3) & 7]! + '/' + String(i * 7);
      slots[i & (SLOTS - 1)] = s;
      sum = (sum + s.length + s.charCodeAt(s.length >> 1)) | 0;
    }
    return sum;
  };
}

/** Chunks per iteration in the Buffer case (64 × 2 KB = 128 KB of payload). */
export const CHUNKS = 64;
export const CHUNK_BYTES = 2048;

/**
 * A streaming pipeline with the copies the field found: each 2 KB chunk is
 * copied out of the source into a new Buffer (as a socket read would give it),
 * then a "transform" frames it with Buffer.concat (a second allocation and
 * copy), then the consumer reads a few bytes. Nothing is kept.
 */
export function bufferStream(): () => number {
  let s = 0x9e3779b9;
  const source = Buffer.alloc(CHUNKS * CHUNK_BYTES);
  for (let i = 0; i < source.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    source[i] = s >>> 24;
  }
  const header = Buffer.from([0x52, 0x54, 0x42, 0x00]);
  const slots: Buffer[] = new Array(SLOTS);
  let round = 0;
  return () => {
    header[3] = round++ & 0xff;
    let sum = 0;
    for (let c = 0; c < CHUNKS; c++) {
      const chunk = Buffer.from(source.subarray(c * CHUNK_BYTES, (c + 1) * CHUNK_BYTES));
      const framed = Buffer.concat([header, chunk]);
      slots[c & (SLOTS - 1)] = framed;
      sum = (sum + framed[4 + (c & 1023)]! + framed.length) | 0;
    }
    return sum;
  };
}

/**
 * The retained set: `live` objects stay reachable in a ring; each iteration
 * allocates OBJECTS new ones and overwrites the oldest OBJECTS. An object
 * lives for live / OBJECTS iterations, so it survives every scavenge that
 * happens in that time and gets promoted, unless the young generation is
 * large enough to hold its whole lifetime of allocation.
 */
export function retainedSet(live: number): () => number {
  const ring: Particle[] = [];
  for (let i = 0; i < live; i++) ring.push({ id: i, x: i, y: 0, tag: WORDS[i & 7]! });
  let cursor = 0;
  let round = 0;
  return () => {
    const base = round++ & 0xff;
    let sum = 0;
    for (let i = 0; i < OBJECTS; i++) {
      const old = ring[cursor]!;
      sum = (sum + old.x) | 0; // read what is retained: it must stay intact
      ring[cursor] = { id: i, x: base + i, y: old.x & 0xff, tag: WORDS[i & 7]! };
      cursor = cursor + 1 === live ? 0 : cursor + 1;
    }
    return sum;
  };
}

/** Retained set sizes: ~1 MB and ~10 MB of objects kept alive (object size varies by engine). */
export const LIVE = [20_000, 200_000] as const;

/** One record a request builds and keeps until its response is written. */
export interface RequestRecord {
  id: number;
  name: string;
  score: number;
  tags: string[];
}

/**
 * A request's working set: each iteration is one request that builds
 * `records` records (an object, a string and a small array each, plus the
 * garbage of building them) and keeps every one until the response is built
 * from all of them at the end; then the whole set dies at once. Unlike the
 * ring cases, nothing outlives its request, but everything lives through the
 * request's whole allocation: it dies young only if the young generation
 * holds one request's worth, otherwise each scavenge copies what the request
 * has built so far and the second promotes it (where a capped young
 * generation costs: the claim in README.md).
 */
export function requestScoped(records: number): () => number {
  let round = 0;
  return () => {
    const base = round++ & 0xff;
    const rows: RequestRecord[] = [];
    for (let i = 0; i < records; i++) {
      const name = `${WORDS[i & 7]}:${base + i}`;
      rows.push({ id: i, name, score: (base + i) % 97, tags: [WORDS[(i >> 3) & 7]!, WORDS[(i >> 6) & 7]!] });
    }
    let sum = 0;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      sum = (sum + r.score + r.name.length + r.tags[0]!.length) | 0;
    }
    return sum;
  };
}

/** Records per request: ~3 MB and ~12 MB of request-lived objects on node (about half on workerd's compressed heap). */
export const REQUEST_RECORDS = [25_000, 100_000] as const;
