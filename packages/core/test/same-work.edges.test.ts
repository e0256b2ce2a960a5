/**
 * Same work's edges that a mutant of the learner or the template would
 * move: the hole bound at its count, the kind an answer is keyed by (content
 * type, headers), what an answer leaves out when it has none, holes listed
 * in order, and the saved part at its exact bound.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AnswerLearner, learnFrom, lineAt, literalTemplate, SAVED_CHARS } from '../src/same-work/index.ts';
import { MOST_HOLES } from '../src/same-work/template.ts';

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('the hole bound', () => {
  const values = (n: number, shift: number): string => Array.from({ length: n }, (_, i) => (i + shift) % 10).join(' ');

  it('holds at its count and is named past it, with the way on', () => {
    expect(learnFrom(literalTemplate(values(MOST_HOLES, 0)), values(MOST_HOLES, 1))).toMatchObject({ template: { widths: { length: MOST_HOLES } } });
    expect(learnFrom(literalTemplate(values(MOST_HOLES + 1, 0)), values(MOST_HOLES + 1, 1))).toEqual({ unlike: { why: 'holes', holes: MOST_HOLES + 1 } });
    const l = new AnswerLearner(sha);
    for (const shift of [0, 1]) l.add({ request: 'GET /', status: 200, text: values(MOST_HOLES + 1, shift), bytes: 1 });
    expect(l.answers()[0]!.unlike!.why).toBe("more than 100,000 changing spans: nothing masked; to compare without such values, replace them first: rtbench run --normalize <regex> for a Worker, a suite's normalize (docs/requests.md)");
  });

  it('a text that fits a literal template holds no values', () => {
    expect(learnFrom(literalTemplate('a 1'), 'a 1')).toEqual({ template: { segments: ['a 1'], widths: [] }, values: [], from: [], was: [] });
  });
});

describe('an answer\'s kind and what it says', () => {
  const kinds = (responses: { contentType?: string; headers?: Record<string, string> }[]) => {
    const l = new AnswerLearner(sha);
    for (const r of responses) l.add({ request: 'GET /', status: 200, text: 'same', bytes: 4, ...r });
    return l.answers();
  };

  it('is keyed by its content type and its headers, and says only those it has', () => {
    expect(kinds([{ contentType: 'text/html' }, { contentType: 'text/plain' }, {}])).toHaveLength(3);
    expect(kinds([{ headers: { 'x-a': '1', 'x-b': '2' } }, { headers: { 'x-a': '1x-b: 2' } }])).toHaveLength(2);
    const [plain] = kinds([{ headers: {} }]);
    for (const field of ['contentType', 'headers', 'tail', 'returning', 'truncated', 'unmasked']) expect(plain).not.toHaveProperty(field);
  });

  it('lists the holes that came back in order', () => {
    const l = new AnswerLearner(sha);
    // Hole 1 comes back to a value first, then hole 0.
    for (const [x, y] of [[0, 0], [1, 1], [2, 0], [0, 5]]) l.add({ request: 'GET /', status: 200, text: `a ${x} b ${y}`, bytes: 1 });
    expect(l.answers()[0]!.returning).toEqual([0, 1]);
  });

  it('saves a template of exactly the saved bound whole', () => {
    const l = new AnswerLearner(sha);
    l.add({ request: 'GET /', status: 200, text: 'x'.repeat(SAVED_CHARS), bytes: 1 });
    l.add({ request: 'GET /b', status: 200, text: 'x'.repeat(SAVED_CHARS + 1), bytes: 1 });
    const [exact, over] = l.answers();
    expect(exact).not.toHaveProperty('truncated');
    expect(over!.truncated).toBe(true);
  });
});

describe('a line where texts differ', () => {
  it('is empty when the offset sits on a line break at the start', () => {
    expect(lineAt('\nabc', 0)).toEqual({ line: 1, column: 0, text: '' });
    expect(lineAt('abc', 1)).toEqual({ line: 1, column: 1, text: 'abc' });
  });
});
