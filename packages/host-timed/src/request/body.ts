/**
 * A response body as the host reads it: streamed, at most MAX_BODY_BYTES
 * kept (a body that never ends, or a huge one, cannot grow the CLI's
 * memory: the read stops at the bound and the request has no figure), and
 * the status and bytes digested by one function, the seam where what a
 * response is compared on (the same work on every runtime) is decided.
 * Requests in flight together read their bodies within one BodyBudget, so
 * N bodies at once hold no more than the budget and one body.
 */
import { createHash } from 'node:crypto';
import { mediaType } from './answers.ts';

/** The most of one response body the host holds: the CLI's memory bound for a request round, beside its own. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export type BoundedBody = { bytes: Uint8Array } | { tooLong: true };

/** What the bodies of requests in flight together may hold at once, past the first holder's. */
const BODIES_IN_FLIGHT_BYTES = 64 * 1024 * 1024;

/**
 * Bytes held by the bodies being read at once. A reader takes each chunk's
 * bytes before keeping it and gives them all back when its body is
 * digested or dropped; past the budget it waits (the server's writes wait
 * with it), except the reader that began holding first, which always goes
 * on, so the reads never wait on each other in a circle.
 */
export class BodyBudget {
  private held = 0;
  private readonly holders = new Map<object, number>();
  private waiting: (() => void)[] = [];

  constructor(private readonly bytes = BODIES_IN_FLIGHT_BYTES) {}

  async take(reader: object, n: number): Promise<void> {
    for (;;) {
      const first = this.holders.keys().next().value;
      if (this.held + n <= this.bytes || first === undefined || first === reader) break;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.held += n;
    this.holders.set(reader, (this.holders.get(reader) ?? 0) + n);
  }

  give(reader: object): void {
    this.held -= this.holders.get(reader) ?? 0;
    this.holders.delete(reader);
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }

  /** Bytes held now. */
  get heldBytes(): number {
    return this.held;
  }
}

/**
 * Reads `body` to its end, or stops (cancelling the stream) once more than
 * `maxBytes` have come: what was read then is dropped. `take` is awaited
 * before each chunk is kept (a BodyBudget's). A stream that errors
 * (its request aborted at the time-out) rejects as the stream does.
 */
export async function readBoundedBody(body: ReadableStream<Uint8Array> | null, maxBytes = MAX_BODY_BYTES, take?: (n: number) => Promise<void>): Promise<BoundedBody> {
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
    await take?.(value.byteLength);
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

/**
 * What one answered request is compared on across runtimes (--same-work
 * strict): its status, where a redirect points, its media type (a restated
 * default charset aside), the headers its suite declared, and a hash of
 * its whole body. `headers`: comparedHeaders(), location among them.
 */
export function digestResponse(status: number, body: Uint8Array, headers?: Readonly<Record<string, string>>, contentType?: string | null): string {
  const { location, ...declared } = headers ?? {};
  const named = Object.keys(declared)
    .sort()
    .map((name) => ` ${name}: ${declared[name]}`)
    .join('');
  return `${status}${location ? ` → ${location}` : ''}${contentType ? ` ${mediaType(contentType)}` : ''}${named} ${createHash('sha256').update(body).digest('hex')}`;
}
