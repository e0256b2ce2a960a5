/**
 * A normalize written as patterns (a brought Worker's --normalize): each
 * match replaced by one mark, every pattern checked before the run, and a
 * page of values past masking's bound the same work once normalized.
 */
import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AnswerLearner, answersDifference, NORMALIZED_MARK, normalizePatternsProblem, patternNormalizer } from '../src/same-work/index.ts';
import { MOST_NORMALIZE_PATTERNS } from '../src/same-work/normalize.ts';

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const said = (body: string) => ({ request: { path: '/' }, status: 200, body });

describe('patterns to normalize', () => {
  it('replace each match of each pattern, in order, by one mark, and nothing else', () => {
    const n = patternNormalizer(['started \\d+', '[a-z]+-[a-z]+-[a-z]+']);
    expect(n(said('started 17 by red-fox-jumps; started at noon'))).toBe(`${NORMALIZED_MARK} by ${NORMALIZED_MARK}; started at noon`);
    // In order: the second pattern sees the first's marks.
    expect(patternNormalizer(['a', '⟨normalized⟩b'])(said('ab ab'))).toBe(`${NORMALIZED_MARK} ${NORMALIZED_MARK}`);
    expect(patternNormalizer([])(said('as it is 1'))).toBe('as it is 1');
  });

  it('are each checked, the first that cannot normalize named', () => {
    expect(normalizePatternsProblem(['\\d+', 'id-[0-9a-f]{8}'])).toBeUndefined();
    expect(normalizePatternsProblem(['\\d+', '[', 'x*'])).toMatch(/^the pattern "\[" is not a regular expression: .*/);
    expect(normalizePatternsProblem(['x*'])).toBe('the pattern "x*" matches the empty text: it must match at least one character');
    expect(normalizePatternsProblem(['x'.repeat(1000)])).toBeUndefined();
    expect(normalizePatternsProblem(['x'.repeat(1001)])).toBe(`the pattern "${'x'.repeat(1001)}" is 1001 characters, more than 1000`);
    expect(normalizePatternsProblem(Array.from({ length: MOST_NORMALIZE_PATTERNS }, (_, i) => `p${i}`))).toBeUndefined();
    expect(normalizePatternsProblem(Array.from({ length: MOST_NORMALIZE_PATTERNS + 1 }, (_, i) => `p${i}`))).toBe(`${MOST_NORMALIZE_PATTERNS + 1} patterns to normalize, more than ${MOST_NORMALIZE_PATTERNS}`);
    expect(() => patternNormalizer(['('])).toThrow(/^the pattern "\(" is not a regular expression/);
  });

  it('make a page of 500 random ids, past what masking hides, the same work', () => {
    const page = (): string => `<ul>${Array.from({ length: 500 }, () => `<li>${randomUUID()}</li>`).join('')}</ul>`;
    const arm = (normalize?: (text: string) => string): AnswerLearner => {
      const l = new AnswerLearner(sha);
      for (let round = 0; round < 2; round++) {
        l.nextRound();
        for (let i = 0; i < 3; i++) {
          const text = page();
          l.add({ request: 'GET /', status: 200, contentType: 'text/html', text: normalize ? normalize(text) : text, bytes: text.length });
        }
      }
      return l;
    };
    const raw = arm().answers();
    // Masking stops at its bound, and says which and the way on.
    expect(raw[0]!.unlike!.why).toMatch(/more than 75%: nothing masked; to compare without such values, replace them first: rtbench run --normalize <regex> for a Worker/);
    const n = patternNormalizer(['[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}']);
    const normalized = (text: string): string => n(said(text));
    const [a, b] = [arm(normalized).answers(), arm(normalized).answers()];
    expect(a[0]!.unmasked).toBeUndefined();
    expect(a[0]!.spans).toBe(0);
    expect(answersDifference({ a, b })).toBeUndefined();
  });
});
