/**
 * The payload mix: mostly short notes, some long ones, and requests the
 * upstream answers with a verbose error. The same records go as a JSON body
 * or as a binary frame; each kind draws a record (and a note length, or a
 * number of error frames) from the draw's random numbers.
 */
import type { RequestKind, RequestShape } from '@rtbench/core';
import { encodeBody } from '../shared/relay/body.ts';
import { makeFields, type RelayFields } from '../shared/relay/fields.ts';
import { encodeFrame } from '../shared/relay/frame.ts';
import { FAIL_HEADER } from '../shared/relay/upstream-reply.ts';

type Encoding = 'json' | 'frame';

const WORDS = ['the', 'relay', 'café', 'naïve', 'Zürich', '東京', 'résumé', 'order', 'status', '—', 'please', 'déjà', 'vu', 'ticket', 'again'];

/** A note of about `length` characters, words drawn from `random`. */
function longNote(random: () => number, length: number): string {
  const words: string[] = [];
  let size = 0;
  while (size < length) {
    const w = WORDS[Math.floor(random() * WORDS.length)]!;
    words.push(w);
    size += w.length + 1;
  }
  return words.join(' ');
}

function request(encoding: Encoding, f: RelayFields, headers: Record<string, string> = {}): RequestShape {
  const type = encoding === 'json' ? 'application/json' : 'application/octet-stream';
  return { method: 'POST', path: '/relay', headers: { 'content-type': type, authorization: `Bearer t${f.userId}`, ...headers }, body: encoding === 'json' ? encodeBody(f) : encodeFrame(f) };
}

const record = (random: () => number): RelayFields => makeFields(Math.floor(random() * 2 ** 31));

/** The mix for one encoding: weights out of 100. */
export function relayMix(encoding: Encoding): RequestKind[] {
  return [
    { name: 'short note', weight: 90, request: (random) => request(encoding, record(random)) },
    // Long notes: 8,000–40,000 characters of text with non-ASCII words.
    { name: 'long note', weight: 7, request: (random) => request(encoding, { ...record(random), note: longNote(random, 8_000 + Math.floor(random() * 32_000)) }) },
    // The upstream fails with 40–200 stack frames, passed on to the client.
    { name: 'error body', weight: 3, request: (random) => request(encoding, record(random), { [FAIL_HEADER]: String(40 + Math.floor(random() * 160)) }) },
  ];
}
