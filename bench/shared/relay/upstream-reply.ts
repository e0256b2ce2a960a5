/**
 * What the upstream answers, as bytes that arrived from the network: a
 * ~400 B JSON reply, or a verbose error (a few KB of details) when the
 * request asks for one. Built from the request's fields alone, so every
 * runtime reads the same bytes; the relay parses them as it would parse
 * a real upstream's reply (Response.json()).
 */
import type { RelayFields } from './fields.ts';

/** The header a request of the error kind carries: the upstream fails it. */
export const FAIL_HEADER = 'x-upstream-fails';

const encoder = new TextEncoder();

/** A successful reply: about 400 bytes of JSON. */
function okReply(f: RelayFields): string {
  return JSON.stringify({
    id: `resp_${f.requestId.toString(36)}_${f.traceId.slice(0, 12)}`,
    object: 'relay.result',
    created: Math.floor(f.timestamp / 1000),
    route: f.route,
    model: `${f.plan}-${f.region}`,
    usage: { input: f.attachment.length, output: f.scores.length * 17, cached: f.cache },
    result: { label: f.scores[0]! > 0 ? 'positive' : 'negative', score: f.scores[1], rank: f.priority, stream: f.stream },
    trace: { id: f.traceId, hops: ['edge', f.region, 'origin'], ms: [1.5, 12.25, 40.125] },
  });
}

/** A verbose error: a message, a stack of frames and the fields the upstream rejected, a few KB. */
function errorReply(f: RelayFields, frames: number): string {
  return JSON.stringify({
    error: {
      type: 'upstream_validation_error',
      message: `request ${f.requestId} on ${f.route} was rejected: attachment of ${f.attachment.length} characters does not match the declared type for plan ${f.plan}`,
      trace: f.traceId,
      stack: Array.from({ length: frames }, (_, i) => `    at handler${i} (/srv/app/src/routes${f.route}/step-${i}.js:${100 + i * 7}:${(i * 13) % 80})`),
      rejected: f.scores.map((s, i) => ({ field: `scores[${i}]`, value: s, expected: 'an integer between 0 and 10', hint: 'round the score or send it as a string' })),
    },
  });
}

/** The upstream's status and body bytes for a request; `frames` > 0 asks for the verbose error. */
export function upstreamReply(f: RelayFields, frames: number): { status: number; body: Uint8Array<ArrayBuffer> } {
  return frames > 0 ? { status: 502, body: encoder.encode(errorReply(f, frames)) } : { status: 200, body: encoder.encode(okReply(f)) };
}
