/**
 * Same work under --same-work strict: answers by request name, free of how
 * many came; a request one variant got no answer to at all is forgiven only
 * where that variant says it went unanswered; a value that differs is caught.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { strictAnswers, strictAnswerText, strictDifference } from '../src/same-work/index.ts';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const answer = (request: string, digest: string) => ({ request, digest });

describe('a strict round\'s answers', () => {
  it('are per request name the hash of its distinct digests: not how many came, nor in what order', () => {
    const one = strictAnswers([answer('GET /', 'a'), answer('GET /slow', 's'), answer('GET /', 'a'), answer('GET /', 'b')], sha256);
    const other = strictAnswers([answer('GET /', 'b'), answer('GET /slow', 's'), answer('GET /', 'a')], sha256);
    expect(one).toEqual(other);
    expect(one).toEqual({ 'GET /': sha256('a\nb'), 'GET /slow': sha256('s') });
    expect(Object.keys(strictAnswers([answer('b', 'x'), answer('a', 'x'), answer('c', 'x')], sha256))).toEqual(['a', 'b', 'c']);
    expect(Object.getPrototypeOf(strictAnswers([answer('__proto__', 'x')], sha256))).toBeNull();
    expect(strictAnswers([], sha256)).toEqual({});
  });

  it('give a digest text of their names and hashes in name order', () => {
    const text = strictAnswerText({ b: '2', a: '1' }, sha256);
    expect(text).toBe(`answers by request, sha256 ${sha256('a 1\nb 2')}`);
    expect(strictAnswerText({ a: '1', b: '2' }, sha256)).toBe(text);
    expect(strictAnswerText({ a: '1', b: '3' }, sha256)).not.toBe(text);
    expect(strictAnswerText({}, sha256)).toBe(`answers by request, sha256 ${sha256('')}`);
  });
});

describe('strict answers compared across variants', () => {
  const both = { 'GET /': 'h', 'GET /slow': 's' };

  it('are the same work when every request\'s answers agree, with no variants or one', () => {
    expect(strictDifference({ node: both, bun: { ...both } })).toBeUndefined();
    expect(strictDifference({ node: both })).toBeUndefined();
    expect(strictDifference({})).toBeUndefined();
  });

  it('forgive a request a variant sent and got no answer to at all, on either side', () => {
    const { 'GET /slow': _slow, ...noSlow } = both;
    expect(strictDifference({ node: both, bun: noSlow }, { bun: new Set(['GET /slow']) })).toBeUndefined();
    expect(strictDifference({ bun: noSlow, node: both }, { bun: new Set(['GET /slow']) })).toBeUndefined();
  });

  it('name a request missing where that variant says nothing went unanswered, or another went unanswered', () => {
    const { 'GET /slow': _slow, ...noSlow } = both;
    expect(strictDifference({ node: both, bun: noSlow })).toBe('GET /slow');
    expect(strictDifference({ node: both, bun: noSlow }, { node: new Set(['GET /slow']), bun: new Set(['GET /']) })).toBe('GET /slow');
    expect(strictDifference({ bun: noSlow, node: both }, { node: new Set(['GET /slow']) })).toBe('GET /slow');
  });

  it('name a request whose answers differ even where that variant also had a time-out', () => {
    expect(strictDifference({ node: both, bun: { ...both, 'GET /': 'other' } }, { bun: new Set(['GET /']) })).toBe('GET /');
    expect(strictDifference({ node: both, bun: both, deno: { ...both, 'GET /slow': 'x' } })).toBe('GET /slow');
    expect(strictDifference({ node: { b: '1', a: '1' }, bun: { a: '2', b: '2' } })).toBe('a');
  });

  it('take a request named like an object\'s property as a request', () => {
    expect(strictDifference({ node: { constructor: 'x' }, bun: {} })).toBe('constructor');
    expect(strictDifference({ node: {}, bun: { toString: 'x' } }, { node: new Set(['toString']) })).toBeUndefined();
  });
});
