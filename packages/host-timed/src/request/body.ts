/**
 * A response body as the host reads it: streamed, at most MAX_BODY_BYTES
 * kept (a body that never ends, or a huge one, cannot grow the CLI's
 * memory: the read stops at the bound and the request has no figure), and
 * the status and bytes digested by one function, the seam where what a
 * response is compared on (the same work on every runtime) is decided.
 */
import { createHash } from 'node:crypto';

/** The most of one response body the host holds: the CLI's memory bound for a request round, beside its own. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export type BoundedBody = { bytes: Uint8Array } | { tooLong: true };

/**
 * Reads `body` to its end, or stops (cancelling the stream) once more than
 * `maxBytes` have come: what was read then is dropped. A stream that errors
 * (its request aborted at the time-out) rejects as the stream does.
 */
export async function readBoundedBody(body: ReadableStream<Uint8Array> | null, maxBytes = MAX_BODY_BYTES): Promise<BoundedBody> {
  if (!body) return { bytes: new Uint8Array(0) };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > maxBytes) {
      // Cancelling ends the connection's stream; the chunks are let go at once.
      chunks.length = 0;
      await reader.cancel().catch(() => undefined);
      return { tooLong: true };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { bytes };
}

/** What one answered request is compared on across runtimes: its status and a hash of its body. */
export function digestResponse(status: number, body: Uint8Array): string {
  return `${status} ${createHash('sha256').update(body).digest('hex')}`;
}
