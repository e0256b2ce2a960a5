/**
 * Streams built fresh for each iteration (a stream is single-use) from
 * pre-built chunks, and readers that drain them to the end.
 */
import { Tally } from './data.ts';

/**
 * A pull source that hands out a fresh copy of the next chunk per pull, as a
 * socket would. The copy is needed anyway: a byte stream's enqueue() transfers
 * (detaches) the chunk's buffer, so the pre-built chunks must not be enqueued
 * themselves (and Buffer#slice would only make a view of the same buffer). Value and byte streams get the same source, so the copy cost is
 * equal and the difference is the stream machinery.
 */
function pullSource(chunks: readonly Uint8Array[]) {
  let next = 0;
  return {
    pull(controller: ReadableStreamDefaultController<Uint8Array> | ReadableByteStreamController) {
      if (next < chunks.length) {
        controller.enqueue(new Uint8Array(chunks[next++]!));
        return;
      }
      controller.close();
      // A BYOB read pending at close() settles (done) only when the source
      // answers it with respond(0); without this it waits forever on Deno and Bun.
      if ('byobRequest' in controller) controller.byobRequest?.respond(0);
    },
  };
}

/** Default strategy: highWaterMark 1 chunk, so the stream pulls one chunk ahead. */
export function valueStream(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(pullSource(chunks));
}

/** type 'bytes', highWaterMark 4096 bytes: the stream pulls until 4 KB are queued. */
export function byteStream(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({ type: 'bytes', ...pullSource(chunks) }, { highWaterMark: 4096 });
}

export async function drainDefault(stream: ReadableStream<Uint8Array>): Promise<{ bytes: number; hash: number }> {
  const reader = stream.getReader();
  const tally = new Tally();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    tally.add(value);
  }
  return tally.result();
}

/** Size of the buffer a BYOB reader offers per read. */
export const BYOB_BYTES = 64 * 1024;

/**
 * Drains with a BYOB reader into one 64 KB buffer, handed back and forth:
 * read(view) transfers the buffer and returns it in the result. The buffer is
 * kept across iterations (`spare`) so no case pays a 64 KB allocation per read.
 */
export function byobDrainer(): (stream: ReadableStream<Uint8Array>) => Promise<{ bytes: number; hash: number }> {
  let spare: ArrayBuffer = new ArrayBuffer(BYOB_BYTES);
  return async (stream) => {
    const reader = stream.getReader({ mode: 'byob' });
    const tally = new Tally();
    let buffer = spare;
    for (;;) {
      const { value, done } = await reader.read(new Uint8Array(buffer, 0, BYOB_BYTES));
      if (value) buffer = value.buffer as ArrayBuffer;
      if (done) break;
      tally.add(value!);
    }
    spare = buffer.byteLength === BYOB_BYTES ? buffer : new ArrayBuffer(BYOB_BYTES);
    return tally.result();
  };
}

/** A TransformStream whose transform runs JS for each chunk (and passes it on). */
export function passThrough(): TransformStream<Uint8Array, Uint8Array> {
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      controller.enqueue(chunk);
    },
  });
}

/** The buffer each eager hop allocates per chunk, used or not: the 2 KB of the streaming pipeline in the findings. */
export const HOP_BUFFER_BYTES = 2048;

/**
 * A hop that allocates its 2 KB buffer up front for every chunk and copies
 * the chunk into it (as a pipeline that readies a buffer per hop does),
 * passing on only the bytes the chunk filled: the same bytes, a fresh
 * ArrayBuffer outside the heap per chunk and hop.
 */
export function eagerHop(): TransformStream<Uint8Array, Uint8Array> {
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      const out = new Uint8Array(Math.max(HOP_BUFFER_BYTES, chunk.length));
      out.set(chunk);
      controller.enqueue(out.subarray(0, chunk.length));
    },
  });
}
