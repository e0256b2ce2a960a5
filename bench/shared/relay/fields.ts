/**
 * The request a Workers-style relay receives, and what it forwards. One
 * record type (RelayFields) is carried two ways: a ~1.6 KB JSON body
 * (body.ts) and a binary frame (frame.ts). Both readers must return equal
 * records; both upstream writers (upstream.ts) must return equal strings.
 */

import { seededRandom } from '@rtbench/core';

export interface RelayFields {
  requestId: number;
  /** ms since the epoch; whole numbers, exact in a float64. */
  timestamp: number;
  userId: number;
  plan: string;
  region: string;
  route: string;
  priority: number;
  stream: boolean;
  cache: boolean;
  scores: number[];
  /** 32 lowercase hex digits. */
  traceId: string;
  /** base64 of a small binary blob (a thumbnail, a signed token). */
  attachment: string;
  /** Free text from the user, with non-ASCII characters; read but not forwarded. */
  note: string;
}


const PLANS = ['free', 'pro', 'team', 'enterprise'];
const REGIONS = ['eu-west-1', 'us-east-2', 'ap-south-1', 'sa-east-1'];
const ROUTES = ['/v1/relay/chat', '/v1/relay/embed', '/v2/relay/search', '/v1/relay/image-caption'];
const WORDS = ['the', 'relay', 'sends', 'café', 'naïve', 'Zürich', '東京', 'résumé', 'order', 'status', '—', 'please', 'update', 'déjà', 'vu'];

/** Attachment bytes: 660 bytes are 880 base64 characters. */
const ATTACHMENT_BYTES = 660;
const SCORES = 12;

/** A request drawn from `seed`: same seed, same record on every runtime. */
export function makeFields(seed: number): RelayFields {
  const rnd = seededRandom(seed);
  const int = (n: number): number => Math.floor(rnd() * n);
  const blob = new Array<string>(ATTACHMENT_BYTES);
  for (let i = 0; i < ATTACHMENT_BYTES; i++) blob[i] = String.fromCharCode(int(256));
  let trace = '';
  for (let i = 0; i < 32; i++) trace += (int(16)).toString(16);
  const words: string[] = [];
  while (words.join(' ').length < 240) words.push(WORDS[int(WORDS.length)]!);
  return {
    requestId: int(2 ** 32),
    timestamp: Date.UTC(2025, 0, 1) + int(365 * 86_400_000),
    userId: int(2 ** 32),
    plan: PLANS[int(PLANS.length)]!,
    region: REGIONS[int(REGIONS.length)]!,
    route: ROUTES[int(ROUTES.length)]!,
    priority: int(8),
    stream: rnd() < 0.5,
    cache: rnd() < 0.5,
    // Scores with a full float64 mantissa: JSON must round-trip them exactly.
    scores: Array.from({ length: SCORES }, () => rnd() * 100 - 50),
    traceId: trace,
    attachment: btoa(blob.join('')),
    note: words.join(' '),
  };
}

/** Requests per case: iterations cycle through them, so no two in a row are the same. */
export const REQUESTS = 16;
