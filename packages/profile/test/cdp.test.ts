/** The WebSocket framing of the CDP client (src/cdp.ts), without a server. */
import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameReader } from '../src/cdp.ts';

/** An unmasked server frame. */
function serverFrame(opcode: number, payload: Buffer, fin = true): Buffer {
  const len = payload.length;
  const head = len < 126 ? Buffer.from([0, len]) : len < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  head[0] = (fin ? 0x80 : 0) | opcode;
  if (len >= 126 && len < 65536) {
    head[1] = 126;
    head.writeUInt16BE(len, 2);
  } else if (len >= 65536) {
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(len), 2);
  }
  return Buffer.concat([head, payload]);
}

describe('CDP WebSocket framing', () => {
  it('reads 7-, 16- and 64-bit lengths, fragments and split chunks', () => {
    const got: [number, string][] = [];
    const reader = new FrameReader((op, p) => got.push([op, p.toString('utf8')]));
    const mid = 'x'.repeat(300);
    const big = 'y'.repeat(70_000);
    const bytes = Buffer.concat([
      serverFrame(1, Buffer.from('{"id":1}')),
      serverFrame(1, Buffer.from(mid)),
      serverFrame(1, Buffer.from(big.slice(0, 40_000)), false),
      serverFrame(0x9, Buffer.from('ping')),
      serverFrame(0, Buffer.from(big.slice(40_000)), true),
    ]);
    // Fed in awkward pieces, as TCP may deliver them.
    for (let i = 0; i < bytes.length; i += 777) reader.push(bytes.subarray(i, i + 777));
    expect(got.map(([op, s]) => [op, s.length])).toEqual([
      [1, 8],
      [1, 300],
      [9, 4],
      [1, 70_000],
    ]);
    expect(got[3]![1]).toBe(big);
  });

  it('masks what it sends, and the mask undoes', () => {
    const payload = Buffer.from(JSON.stringify({ id: 7, method: 'Profiler.start', params: {} }));
    const frame = encodeFrame(1, payload);
    expect(frame[0]).toBe(0x81);
    expect(frame[1]! & 0x80).toBe(0x80);
    const got: string[] = [];
    new FrameReader((_, p) => got.push(p.toString('utf8'))).push(frame);
    expect(got).toEqual([payload.toString('utf8')]);
  });
});
