/**
 * streams: what reading a whole body through web streams costs, by stream
 * type, reader, adapter and transform chain. See README.md for the claims.
 *
 * Every case builds a fresh stream per iteration from pre-built chunks, reads
 * it to the end (TOTAL_BYTES = 256 KB) and returns { bytes, hash } (data.ts),
 * so every case over the same data has the same digest on every runtime.
 */
import { Buffer } from 'node:buffer';
import { Readable } from 'node:stream';
import { bench, group, suite, type CaseContext } from '@rtbench/core';
import { CHUNK_SIZES, makeChunks } from './data.ts';

/** The chunk sizes a 2 KB hop buffer is meant for: one that fits it, and one that wastes most of it. */
const HOP_CHUNK_SIZES = [64, 2048] as const;
import { byobDrainer, byteStream, drainDefault, eagerHop, passThrough, valueStream } from './sources.ts';

/** ReadableStream.from is newer than TypeScript's DOM lib; reach it through a typed view. */
interface StreamStatics {
  from?: (source: Iterable<Uint8Array>) => ReadableStream<Uint8Array>;
}
const Statics = ReadableStream as unknown as StreamStatics;

function needFrom(ctx: CaseContext): (source: Iterable<Uint8Array>) => ReadableStream<Uint8Array> {
  if (typeof Statics.from !== 'function') ctx.unsupported('ReadableStream.from is not available');
  return (source) => Statics.from!(source);
}

function needToWeb(ctx: CaseContext): void {
  if (typeof Readable?.toWeb !== 'function') ctx.unsupported('node:stream Readable.toWeb is not available');
  if (typeof Readable.from !== 'function') ctx.unsupported('node:stream Readable.from is not available');
}

function needByob(ctx: CaseContext): void {
  try {
    new ReadableStream({ type: 'bytes' }).getReader({ mode: 'byob' }).releaseLock();
  } catch (error) {
    ctx.unsupported(`ReadableStream type 'bytes' with a BYOB reader is not available: ${String(error)}`);
  }
}

export default suite('streams', () => {
  group('source', () => {
    bench('value stream (hwm 1), default reader', function* (ctx) {
      const chunks = makeChunks(ctx.get('chunk'));
      yield () => drainDefault(valueStream(chunks));
    }).args('chunk', CHUNK_SIZES);

    bench('byte stream (hwm 4096), default reader', function* (ctx) {
      needByob(ctx);
      const chunks = makeChunks(ctx.get('chunk'));
      yield () => drainDefault(byteStream(chunks));
    }).args('chunk', CHUNK_SIZES);

    bench('byte stream (hwm 4096), BYOB reader', function* (ctx) {
      needByob(ctx);
      const chunks = makeChunks(ctx.get('chunk'));
      const drain = byobDrainer();
      yield () => drain(byteStream(chunks));
    }).args('chunk', CHUNK_SIZES);
  });

  group('adapter', () => {
    bench('ReadableStream.from(chunks)', function* (ctx) {
      const from = needFrom(ctx);
      const chunks = makeChunks(ctx.get('chunk'));
      yield () => drainDefault(from(chunks));
    }).args('chunk', CHUNK_SIZES);

    // The pattern from the field: concatenate, wrap in a Node stream, adapt.
    bench('Readable.toWeb(Readable.from(Buffer.concat(chunks)))', function* (ctx) {
      needToWeb(ctx);
      const chunks = makeChunks(ctx.get('chunk'));
      yield () => drainDefault(Readable.toWeb(Readable.from(Buffer.concat(chunks))) as ReadableStream<Uint8Array>);
    }).args('chunk', CHUNK_SIZES);

    // The same adapters without the concat: separates its copy from the adapters' cost.
    bench('Readable.toWeb(Readable.from(chunks))', function* (ctx) {
      needToWeb(ctx);
      const chunks = makeChunks(ctx.get('chunk'));
      yield () => drainDefault(Readable.toWeb(Readable.from(chunks)) as ReadableStream<Uint8Array>);
    }).args('chunk', CHUNK_SIZES);
  });

  group('transform', () => {
    bench('ReadableStream.from(chunks) + 3 x pipeThrough(TransformStream)', function* (ctx) {
      const from = needFrom(ctx);
      const chunks = makeChunks(ctx.get('chunk'));
      yield () => drainDefault(from(chunks).pipeThrough(passThrough()).pipeThrough(passThrough()).pipeThrough(passThrough()));
    }).args('chunk', CHUNK_SIZES);

    // The memory half of the pipeline finding: the same three hops, each allocating a 2 KB buffer per chunk.
    bench('ReadableStream.from(chunks) + 3 x pipeThrough(eager 2 KB copy)', function* (ctx) {
      const from = needFrom(ctx);
      const chunks = makeChunks(ctx.get('chunk'));
      yield () => drainDefault(from(chunks).pipeThrough(eagerHop()).pipeThrough(eagerHop()).pipeThrough(eagerHop()));
    }).args('chunk', HOP_CHUNK_SIZES);
  });
});
export { claims } from './claims.ts';
