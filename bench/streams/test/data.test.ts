/** The stream tally must not depend on how the bytes were cut into reads. */
import { describe, expect, it } from 'vitest';
import { CHUNK_SIZES, expectedTally, makeChunks, Tally, TOTAL_BYTES } from '../data.ts';

function tallyOf(pieces: Uint8Array[]): { bytes: number; hash: number } {
  const t = new Tally();
  for (const p of pieces) t.add(p);
  return t.result();
}

describe('streams data', () => {
  it('every chunk size carries the same TOTAL_BYTES of the same data', () => {
    const expected = expectedTally(makeChunks(CHUNK_SIZES[0]));
    expect(expected.bytes).toBe(TOTAL_BYTES);
    for (const size of CHUNK_SIZES) expect(tallyOf(makeChunks(size))).toEqual(expected);
  });

  it('re-cutting the stream at odd boundaries (as a BYOB reader may) gives the same tally', () => {
    const whole = Uint8Array.from(Buffer.concat(makeChunks(2048)));
    const pieces: Uint8Array[] = [];
    for (let at = 0, step = 1; at < whole.length; at += step, step = (step * 7 + 3) % 5000 + 1) pieces.push(whole.subarray(at, at + step));
    expect(tallyOf(pieces)).toEqual(expectedTally([whole]));
  });

  it('a dropped or reordered chunk changes the tally', () => {
    const chunks = makeChunks(2048);
    const expected = expectedTally(chunks);
    expect(tallyOf(chunks.slice(1))).not.toEqual(expected);
    expect(tallyOf([chunks[1]!, chunks[0]!, ...chunks.slice(2)]).hash).not.toBe(expected.hash);
  });
});
