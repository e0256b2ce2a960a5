import { describe, expect, it } from 'vitest';
import type { MaskedAnswer } from '@rtbench/core/schema';
import { answerName, answersDifference } from '@rtbench/core/same-work';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import type { RequestShape } from '@rtbench/core';
import { armAnswers, comparedHeaders, mediaType, RoundAnswers } from '../src/request/answers.ts';

const GET = { path: '/' } as const;
const body = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('a round’s answers', () => {
  it('reads the content types servers spell differently as one media type', () => {
    expect(mediaType('text/plain;charset=UTF-8')).toBe('text/plain; charset=utf-8');
    expect(mediaType(' Text/Plain ; Charset=utf-8 ')).toBe('text/plain; charset=utf-8');
    expect(mediaType('text/html')).not.toBe(mediaType('text/plain'));
  });

  it('reads parameters in any order, spaced or not, as one media type; their values still count', () => {
    expect(mediaType('text/html; level=1; charset=iso-8859-1')).toBe('text/html; charset=iso-8859-1; level=1');
    expect(mediaType('text/html;charset = iso-8859-1;level=1')).toBe('text/html; charset=iso-8859-1; level=1');
    expect(mediaType('text/html; level=1; charset=iso-8859-1')).not.toBe(mediaType('text/html; level=2; charset=iso-8859-1'));
    expect(mediaType('multipart/mixed; b=2; a=1')).toBe(mediaType('multipart/mixed; a=1; b=2'));
  });

  it('drops a charset that restates its type\'s default however it is written, and keeps one that does not', () => {
    for (const type of ['application/json', 'application/problem+json', 'application/ld+json', 'application/javascript', 'application/ecmascript', 'text/javascript', 'text/event-stream']) {
      for (const charset of ['charset=utf-8', 'charset=UTF-8', 'Charset="utf-8"', 'charset = utf-8']) expect(mediaType(`${type};${charset}`)).toBe(type);
    }
    expect(mediaType('application/json; charset=iso-8859-1')).toBe('application/json; charset=iso-8859-1');
    expect(mediaType('application/json; charset=utf-16')).not.toBe(mediaType('application/json'));
    // No default of UTF-8 by definition: said or not, it differs.
    expect(mediaType('text/html; charset=utf-8')).not.toBe(mediaType('text/html'));
    expect(mediaType('application/xml; charset=utf-8')).not.toBe(mediaType('application/xml'));
    expect(mediaType('application/jsonx; charset=utf-8')).not.toBe(mediaType('application/jsonx'));
    expect(mediaType('xapplication/json; charset=utf-8')).not.toBe(mediaType('xapplication/json'));
    // Other parameters are kept, the restated charset among them dropped.
    expect(mediaType('application/json; charset=utf-8; profile=a')).toBe('application/json; profile=a');
    expect(mediaType('')).toBe('');
    expect(mediaType('text/plain;')).toBe('text/plain');
    // Only a parameter that is the charset, and says UTF-8 whole.
    expect(mediaType('application/json; xcharset=utf-8')).toBe('application/json; xcharset=utf-8');
    expect(mediaType('application/json; charset=utf-8x')).toBe('application/json; charset=utf-8x');
  });

  it('digests the same page alike whichever way its server wrote the default content type', () => {
    const digest = (contentType: string): string => {
      const answers = new RoundAnswers();
      answers.add(GET, { status: 200, contentType }, body('hello'));
      return answers.result().answer;
    };
    expect(digest('text/plain;charset=UTF-8')).toBe(digest('text/plain; charset=utf-8'));
    expect(digest('text/plain;charset=UTF-8')).not.toBe(digest('application/json'));
  });
});

describe('the headers an answer is compared on', () => {
  const headers = (h: Record<string, string>): Headers => new Headers(h);

  it('are where a redirect points and each declared header the response has, by lowercase name', () => {
    expect(comparedHeaders(null, headers({ 'x-cache': 'HIT' }))).toBeUndefined();
    expect(comparedHeaders('/next', headers({}))).toEqual({ location: '/next' });
    expect(comparedHeaders(null, headers({ 'X-Cache': 'HIT', etag: '"a"', 'x-other': '1' }), ['X-Cache', 'etag'])).toEqual({ 'x-cache': 'HIT', etag: '"a"' });
    // A declared header the response lacks is left out: its absence differs from any value.
    expect(comparedHeaders('/next', headers({}), ['x-cache'])).toEqual({ location: '/next' });
    expect(comparedHeaders(null, headers({}), ['x-cache'])).toBeUndefined();
  });

  it('make a declared header that differs another answer, named in the line that says the work differs', () => {
    const arm = (cache: string | undefined): MaskedAnswer[] => {
      const answers = new RoundAnswers();
      for (let i = 0; i < 3; i++) answers.add(GET, { status: 200, contentType: 'text/plain', ...(cache ? { headers: comparedHeaders(null, headers({ 'x-cache': cache }), ['x-cache'])! } : {}) }, body(`served ${i}`));
      return answers.result().answers;
    };
    const hit = arm('HIT');
    expect(hit.map(answerName)).toEqual(['GET / → 200 text/plain x-cache: HIT']);
    expect(answersDifference({ node: hit, bun: arm('HIT') })).toBeUndefined();
    const miss = answersDifference({ node: hit, bun: arm('MISS') });
    expect(miss).toMatchObject({ answer: 'GET / → 200 text/plain x-cache: HIT', variants: { node: { text: '3 responses' }, bun: { text: 'no such response (GET / → 200 text/plain x-cache: MISS ×3)' } } });
    expect(answersDifference({ node: hit, bun: arm(undefined) })).toMatchObject({ variants: { bun: { text: 'no such response (GET / → 200 text/plain ×3)' } } });
  });

  it('and the round digest differs with them', () => {
    const digest = (head: Parameters<RoundAnswers['add']>[1]): string => {
      const answers = new RoundAnswers();
      answers.add(GET, head, body('same'));
      return answers.result().answer;
    };
    const plain = { status: 200, contentType: 'text/plain' };
    expect(digest({ ...plain, headers: { 'x-cache': 'HIT' } })).toBe(digest({ ...plain, headers: { 'x-cache': 'HIT' } }));
    expect(digest({ ...plain, headers: { 'x-cache': 'HIT' } })).not.toBe(digest({ ...plain, headers: { 'x-cache': 'MISS' } }));
    expect(digest({ ...plain, headers: { 'x-cache': 'HIT' } })).not.toBe(digest(plain));
    expect(digest({ status: 302, contentType: null, headers: { location: '/a' } })).not.toBe(digest({ status: 302, contentType: null, headers: { location: '/b' } }));
  });

  it('run the suite\'s normalize on the body before it is learned', () => {
    const seen: unknown[] = [];
    const answers = new RoundAnswers((r) => {
      seen.push({ status: r.status, contentType: r.contentType, request: r.request });
      return r.body.replace(/pid \w+/, 'pid');
    });
    answers.add(GET, { status: 200, contentType: 'text/plain' }, body('pid abc'));
    answers.add(GET, { status: 200, contentType: null }, body('pid xyz'));
    expect(seen).toEqual([{ status: 200, contentType: 'text/plain', request: GET }, { status: 200, contentType: undefined, request: GET }]);
    expect(answers.result().answers.map((a) => [a.segments, a.unmasked, a.contentType])).toEqual([[['pid'], undefined, 'text/plain'], [['pid'], undefined, undefined]]);
  });
});

describe('an arm\'s answers across its rounds', () => {
  it('are learned by one learner for every round, each round a process, a long template packed whole', () => {
    const learner = armAnswers();
    const page = (n: number): string => `<p>started ${n}</p>${'<p>row</p>'.repeat(2000)}`;
    // Each round's answers are read as it ends: the template that changed is packed in that round.
    const packedIn = [1, 2].map((n) => {
      const round = new RoundAnswers(undefined, learner);
      round.add(GET, { status: 200, contentType: 'text/html' }, body(page(n)));
      return round.result().answers[0]!;
    });
    expect(packedIn.map((a) => [a.packedRound, a.packed !== undefined])).toEqual([[1, true], [2, true]]);
    const [answer] = new RoundAnswers(undefined, learner).result().answers;
    expect(answer).toMatchObject({ rounds: 3, count: 2, spans: 1, truncated: true, packedRound: 2 });
    expect(answer!.packed).toBeUndefined();
    // The round that packed it holds the whole template, gzipped.
    const packer = armAnswers();
    packer.nextRound();
    packer.add({ request: 'GET /', status: 200, text: page(1), bytes: 1 });
    packer.add({ request: 'GET /', status: 200, text: page(2), bytes: 1 });
    const packed = packer.answers()[0]!.packed!;
    expect(JSON.parse(gunzipSync(Buffer.from(packed, 'base64')).toString())).toEqual(['<p>started ', `</p>${'<p>row</p>'.repeat(2000)}`]);
  });

  it('tell requests apart by method, path, headers and body, a body by its bytes whether text or not', () => {
    const names = (requests: RequestShape[]): string[] => {
      const answers = new RoundAnswers();
      for (const r of requests) answers.add(r, { status: 200, contentType: null }, body('same'));
      return answers.result().answers.map((a) => a.request);
    };
    const post = (b: string | Uint8Array, headers?: Record<string, string>): RequestShape => ({ method: 'POST', path: '/api', body: b, ...(headers ? { headers } : {}) });
    expect(names([GET, { path: '/' }, { method: 'GET', path: '/' }])).toEqual(['GET /']);
    const [a, b, c, d, e] = names([post('a'), post('b'), post('a', { 'x-a': '1' }), { method: 'POST', path: '/api' }, post(new Uint8Array([97]))]);
    expect([a, b, c, d, e]).toEqual([expect.stringMatching(/^POST \/api \[[0-9a-f]{8}\]$/), expect.stringMatching(/^POST \/api \[[0-9a-f]{8}\]$/), expect.stringMatching(/^POST \/api \[[0-9a-f]{8}\]$/), 'POST /api', expect.stringMatching(/^POST \/api \[[0-9a-f]{8}\]$/)]);
    expect(new Set([a, b, c, e]).size).toBe(4);
    expect(names([{ path: '/', headers: { 'x-a': '1' } }, { path: '/', headers: { 'x-a': '2' } }, { path: '/', headers: { 'x-a': '1' } }])).toHaveLength(2);
    // A text body is hashed as it is, bytes by their hash, no body as none: a text that reads like bytes is not them.
    const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
    expect(names([{ path: '/', headers: { 'x-a': '1' } }])).toEqual([`GET / [${sha(`{"x-a":"1"}\n${sha('')}`).slice(0, 8)}]`]);
    expect(names([post('97'), post(new Uint8Array([97]))])).toEqual([`POST /api [${sha('{}\n97').slice(0, 8)}]`, `POST /api [${sha(`{}\n${sha('a')}`).slice(0, 8)}]`]);
  });
});
