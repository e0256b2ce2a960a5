/** The bytes every stream case carries, and the tally that proves they all arrived. */
import { Buffer } from 'node:buffer';

/** Bytes per stream: one iteration reads this much, whatever the chunk size. */
export const TOTAL_BYTES = 256 * 1024;
export const CHUNK_SIZES = [64, 2048, 65536] as const;

/** TOTAL_BYTES of seeded bytes cut into chunks of `size` (each its own Buffer). */
export function makeChunks(size: number, seed = 0x51): Buffer[] {
  let s = seed >>> 0;
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < TOTAL_BYTES; offset += size) {
    const chunk = Buffer.alloc(Math.min(size, TOTAL_BYTES - offset));
    for (let i = 0; i < chunk.length; i++) {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      chunk[i] = s >>> 24;
    }
    chunks.push(chunk);
  }
  return chunks;
}

/** Sample every STRIDE-th byte of the stream: < the smallest chunk, so every chunk is sampled. */
const STRIDE = 61;

/**
 * What a case returns: the byte count and an order-sensitive hash of the
 * bytes at fixed stream positions. Independent of how the runtime cut the
 * stream into reads (a BYOB reader may coalesce chunks), so every runtime and
 * every case over the same data gives the same digest; a dropped, repeated or
 * reordered chunk changes it. Sampling keeps the tally a small part of the work.
 */
export class Tally {
  bytes = 0;
  private hash = 0x811c9dc5;

  add(chunk: Uint8Array): void {
    const start = this.bytes;
    let i = (STRIDE - (start % STRIDE)) % STRIDE;
    let h = this.hash;
    for (; i < chunk.length; i += STRIDE) h = Math.imul(h ^ chunk[i]!, 0x01000193);
    this.hash = h;
    this.bytes = start + chunk.length;
  }

  result(): { bytes: number; hash: number } {
    return { bytes: this.bytes, hash: this.hash >>> 0 };
  }
}

/** The tally of the whole data read at once: what every case must match. */
export function expectedTally(chunks: readonly Uint8Array[]): { bytes: number; hash: number } {
  const t = new Tally();
  t.add(Buffer.concat(chunks));
  return t.result();
}
