/** The chunks every case reads: `count` Buffers of 2 KB, as a socket would deliver them. */
import { Buffer } from 'node:buffer';

export const CHUNK_BYTES = 2048;
export const COUNTS = [50, 500, 2000] as const;

/**
 * Each chunk is its own allocation (Buffer.alloc never slices the shared
 * pool), filled from a 32-bit LCG so every runtime holds the same bytes.
 */
export function makeChunks(count: number, seed = 0x2b): Buffer[] {
  let s = seed >>> 0;
  const chunks: Buffer[] = [];
  for (let c = 0; c < count; c++) {
    const chunk = Buffer.alloc(CHUNK_BYTES);
    for (let i = 0; i < CHUNK_BYTES; i++) {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      chunk[i] = s >>> 24;
    }
    chunks.push(chunk);
  }
  return chunks;
}

/**
 * The bytes a concatenating case produced, as a plain Uint8Array view: the
 * digest then hashes every byte, and Buffer and Uint8Array results compare
 * equal (the digest includes the class name). A view costs one small object.
 */
export function bytesOf(b: Uint8Array): Uint8Array {
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}
