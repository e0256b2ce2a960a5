/** Request-shaped cases: the figures a declaration yields, the mix drawn by weight the same way every time, and declarations refused. */
import { describe, expect, it } from 'vitest';
import { compareHeadersProblem, drawRequests, isRequestCaseSpec, requestSuite, type RequestDeclaration } from '../src/request.ts';
import { MOST_COMPARED_HEADERS } from '../src/request.ts';

const declaration = (over: Partial<RequestDeclaration> = {}): RequestDeclaration => ({
  name: 'relay',
  handler: '/handler.ts',
  mix: [
    { name: 'short', weight: 9, request: { method: 'POST', path: '/', body: 'short' } },
    { name: 'error body', weight: 1, request: (random) => ({ method: 'POST', path: '/', body: 'e'.repeat(100 + Math.floor(random() * 100)) }) },
  ],
  requests: 2000,
  ...over,
});

describe('request suites', () => {
  it('a declaration is three cases: the JavaScript thread, all threads and the empty handler', () => {
    const cases = requestSuite('relay', [declaration({ group: 'relay', params: { size: 'small' } })]).cases();
    expect(cases.map((c) => c.id)).toEqual(['relay / relay [size=small, cpu=js thread]', 'relay / relay [size=small, cpu=all threads]', 'relay / relay [size=small, cpu=empty handler]']);
    expect(cases.every(isRequestCaseSpec)).toBe(true);
    expect(cases.map((c) => c.metric.unit)).toEqual(['ms', 'ms', 'ms']);
  });

  it('draws the mix by weight, the same sequence on every call', () => {
    const d = declaration();
    const a = drawRequests(d);
    expect(a).toHaveLength(2000);
    expect(drawRequests(d)).toEqual(a);
    const errors = a.filter((r) => r.kind === 'error body').length;
    // 10% by weight: 200 expected; a binomial's 4.5 standard deviations either side.
    expect(errors).toBeGreaterThan(150);
    expect(errors).toBeLessThan(250);
    // A kind made by a function varies within it.
    expect(new Set(a.filter((r) => r.kind === 'error body').map((r) => (r.request.body as string).length)).size).toBeGreaterThan(10);
  });

  it('draws weights near the largest number by their shares, not all the last kind', () => {
    const huge = drawRequests(declaration({ mix: [{ name: 'a', weight: 1e308, request: { path: '/a' } }, { name: 'b', weight: 1e308, request: { path: '/b' } }] }), 400);
    const a = huge.filter((r) => r.kind === 'a').length;
    // Half by weight: 200 expected; a binomial's 5 standard deviations either side.
    expect(a).toBeGreaterThan(150);
    expect(a).toBeLessThan(250);
  });

  it('another declaration draws another sequence', () => {
    const kinds = (d: RequestDeclaration): string => drawRequests(d, 200).map((r) => r.kind).join();
    expect(kinds(declaration({ name: 'other' }))).not.toBe(kinds(declaration()));
  });

  it('refuses an empty mix, a weight that is not positive and a count that is not a whole number', () => {
    expect(() => requestSuite('x', [declaration({ mix: [] })])).toThrow(/empty mix/);
    expect(() => requestSuite('x', [declaration({ mix: [{ name: 'a', weight: 0, request: { path: '/' } }] })])).toThrow(/positive weight/);
    expect(() => requestSuite('x', [declaration({ requests: 2.5 })])).toThrow(/whole number/);
    expect(() => requestSuite('x', [declaration(), declaration()])).toThrow(/twice/);
  });

  it('takes headers to compare by name, and refuses those it compares anyway, the server\'s own, a name twice or too many', () => {
    expect(requestSuite('x', [declaration({ compareHeaders: ['x-cache', 'ETag'] })]).declarations[0]!.compareHeaders).toEqual(['x-cache', 'ETag']);
    expect(compareHeadersProblem([])).toBeUndefined();
    expect(() => requestSuite('x', [declaration({ compareHeaders: ['Location'] })])).toThrow('request "relay": compareHeaders: the header location is always compared (the server\'s own origin taken off)');
    for (const name of ['content-length', 'transfer-encoding']) expect(compareHeadersProblem([name])).toBe(`the header ${name} is written by each runtime's server its own way${name === 'content-length' ? ' (or a chunked body has none)' : ''}`);
    for (const name of ['connection', 'keep-alive']) expect(compareHeadersProblem([name])).toBe(`the header ${name} is the connection's, not the handler's answer`);
    expect(compareHeadersProblem(['x-a', 'x-b', 'X-a'])).toBe('the header x-a is named twice');
    expect(compareHeadersProblem(['x:a'])).toBe('the header name "x:a" is not a token HTTP allows');
    expect(compareHeadersProblem(['ok', ''])).toBe('the header name "" is not a token HTTP allows');
    const names = (n: number): string[] => Array.from({ length: n }, (_, i) => `x-${i}`);
    expect(compareHeadersProblem(names(MOST_COMPARED_HEADERS))).toBeUndefined();
    expect(compareHeadersProblem(names(MOST_COMPARED_HEADERS + 1))).toBe(`${MOST_COMPARED_HEADERS + 1} headers to compare, more than ${MOST_COMPARED_HEADERS}`);
  });
});
