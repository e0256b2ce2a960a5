/**
 * What the output keeper keeps of a step's output (bounded-output.mjs): the
 * head as it comes, the tail at the end, the middle counted and said in one
 * line; nothing said of an output within the bounds.
 */
import { describe, expect, it } from 'vitest';
import { BoundedOutput, droppedLine } from '../src/bounded-output.mjs';

/** Feeds `chunks` and returns what would be written: each chunk's head part as it came, then the end. */
function kept(headBytes: number, tailBytes: number, chunks: readonly string[]): { text: string; dropped: number } {
  const out = new BoundedOutput(headBytes, tailBytes);
  const written = chunks.map((c) => out.add(Buffer.from(c)).toString());
  return { text: written.join('') + out.end().toString(), dropped: out.dropped };
}

describe('an output kept within a head and a tail', () => {
  it('is kept whole, with no line, when it fits', () => {
    expect(kept(4, 4, ['abcd', 'efgh'])).toEqual({ text: 'abcdefgh', dropped: 0 });
    expect(kept(4, 4, ['ab', 'cdef'])).toEqual({ text: 'abcdef', dropped: 0 });
  });

  it('keeps the first and last bytes across chunks, the middle counted and said where it was', () => {
    expect(kept(3, 4, ['ab', 'cdef', 'gh', 'ijklm', 'n'])).toEqual({ text: `abc${droppedLine(7, 3, 4)}klmn`, dropped: 7 });
    // One chunk that holds the head, a middle and the tail.
    expect(kept(2, 2, ['0123456789'])).toEqual({ text: `01${droppedLine(6, 2, 2)}89`, dropped: 6 });
    // Many short chunks after the head: whole ones dropped, a part of the oldest cut.
    expect(kept(1, 3, ['a', 'bc', 'de', 'fg', 'h'])).toEqual({ text: `a${droppedLine(4, 1, 3)}fgh`, dropped: 4 });
  });

  it('holds no more than the tail however much comes', () => {
    const out = new BoundedOutput(8, 16);
    for (let i = 0; i < 10_000; i++) out.add(Buffer.alloc(100, i % 256));
    expect(out.end().length).toBe(droppedLine(10_000 * 100 - 24, 8, 16).length + 16);
    expect(out.tail.reduce((n: number, b: Buffer) => n + b.length, 0)).toBe(16);
  });

  it('says the bytes and bounds in its line', () => {
    expect(droppedLine(7, 3, 4)).toBe('\n[rtbench: 7 bytes of this output left out here; the first 3 and the last 4 bytes are kept]\n');
  });
});
