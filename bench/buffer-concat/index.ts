/**
 * buffer-concat: what it costs to learn the length of many chunks, and to
 * join them. See README.md for the claim and how to read the result.
 */
import { Buffer } from 'node:buffer';
import { bench, group, suite } from '@rtbench/core';
import { bytesOf, COUNTS, makeChunks } from './chunks.ts';

// Each sample after 150 ms of untimed running: V8 paces these cases' full collections by their allocation rate in wall
// time, which a process waiting its turn lowers (README.md, "How to read the result").
export default suite('buffer-concat', () => {
  group('length', () => {
    // The pattern from the field: a full copy, only to read one number.
    bench('Buffer.concat(chunks).length', function* (ctx) {
      const chunks = makeChunks(ctx.get('chunks'));
      yield () => Buffer.concat(chunks).length;
    }).args('chunks', COUNTS);

    bench('sum of chunk lengths', function* (ctx) {
      const chunks = makeChunks(ctx.get('chunks'));
      yield () => {
        let total = 0;
        for (let i = 0; i < chunks.length; i++) total += chunks[i]!.length;
        return total;
      };
    }).args('chunks', COUNTS);
  });

  // Every case here returns the joined bytes: equal digests prove equal output.
  group('join', () => {
    bench('Buffer.concat(chunks)', function* (ctx) {
      const chunks = makeChunks(ctx.get('chunks'));
      yield () => bytesOf(Buffer.concat(chunks));
    }).args('chunks', COUNTS);

    // Buffer.concat first sums the lengths itself when totalLength is absent;
    // here the caller sums them (as it must to know the total), then passes it.
    bench('Buffer.concat(chunks, totalLength)', function* (ctx) {
      const chunks = makeChunks(ctx.get('chunks'));
      yield () => {
        let total = 0;
        for (let i = 0; i < chunks.length; i++) total += chunks[i]!.length;
        return bytesOf(Buffer.concat(chunks, total));
      };
    }).args('chunks', COUNTS);

    bench('new Uint8Array(total) + set()', function* (ctx) {
      const chunks = makeChunks(ctx.get('chunks'));
      yield () => {
        let total = 0;
        for (let i = 0; i < chunks.length; i++) total += chunks[i]!.length;
        const out = new Uint8Array(total);
        let offset = 0;
        for (let i = 0; i < chunks.length; i++) {
          out.set(chunks[i]!, offset);
          offset += chunks[i]!.length;
        }
        return out;
      };
    }).args('chunks', COUNTS);

    // As above without the zero-fill: Buffer.allocUnsafe leaves memory as it
    // finds it (and set() overwrites all of it). Isolates the zeroing cost.
    bench('Buffer.allocUnsafe(total) + set()', function* (ctx) {
      const chunks = makeChunks(ctx.get('chunks'));
      yield () => {
        let total = 0;
        for (let i = 0; i < chunks.length; i++) total += chunks[i]!.length;
        const out = Buffer.allocUnsafe(total);
        let offset = 0;
        for (let i = 0; i < chunks.length; i++) {
          out.set(chunks[i]!, offset);
          offset += chunks[i]!.length;
        }
        return bytesOf(out);
      };
    }).args('chunks', COUNTS);
  });
}, { runUp: '150ms' });
export { claims } from './claims.ts';
