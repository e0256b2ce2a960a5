/**
 * Different work in one line per case: where the masked answers first differ
 * and each variant's length, or, without that, which variants agree by a
 * short digest (no wall of digests); and the line that says how a request
 * case's changing responses were proven the same work.
 */
import { describe, expect, it } from 'vitest';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { runNotes } from '../src/views/bench.ts';
import { differentWorkText, sameWorkMaskedText } from '../src/views/different-work.ts';

const LONG_A = 'a'.repeat(64);
const LONG_B = 'b'.repeat(64);

describe('different work, one line', () => {
  it('names the first differing line of the masked bodies, each variant\'s text there and its length', () => {
    const text = differentWorkText(
      { node: LONG_A, bun: LONG_B },
      { answer: 'GET / → 200 text/html', line: 12, variants: { node: { text: '<p>total</p>', bytes: 92113 }, bun: { text: '<section>bun</section>', bytes: 92140 } } },
    );
    expect(text).toBe('GET / → 200 text/html, line 12: node "<p>total</p>" (92,113 B); bun "<section>bun</section>" (92,140 B)');
    expect(text).not.toContain(LONG_A);
  });
  it('without a line (another status, count), says what differs', () => {
    expect(differentWorkText({ node: LONG_A, bun: LONG_B }, { answer: 'GET / → 500', variants: { node: { text: 'no such response (GET / → 200 ×10)' }, bun: { text: '10 responses', bytes: 5 } } })).toBe(
      'GET / → 500: node "no such response (GET / → 200 ×10)"; bun "10 responses" (5 B)',
    );
  });
  it('an ordinary case groups the variants that agree, each digest cut short', () => {
    expect(differentWorkText({ node: LONG_A, deno: LONG_A, bun: LONG_B })).toBe(`node, deno ${'a'.repeat(12)}…; bun ${'b'.repeat(12)}…`);
    expect(differentWorkText({ node: `${LONG_A} ≠ ${LONG_B}` })).toBe(`node ${'a'.repeat(12)}… ≠ ${'b'.repeat(12)}…`);
  });
  it('says how the work was proven when spans were masked', () => {
    expect(sameWorkMaskedText({ caseId: 'c', spans: 3, maskedChars: 41, bytes: 92113 })).toBe('same work, 3 changing spans masked: 41 of 92,113 bytes');
    expect(sameWorkMaskedText({ caseId: 'c', spans: 1, maskedChars: 24, bytes: 300 })).toBe('same work, 1 changing span masked: 24 of 300 bytes');
  });
});

describe('the notes under a table', () => {
  it('one error line per differing case and one info line per masked case', () => {
    const run = syntheticRun({ cases: [{ id: 'page', ns: 100 }, { id: 'other', ns: 100 }], arms: [{ id: 'node', factor: 1 }, { id: 'bun', factor: 1 }], rounds: 3, samplesPerRound: 3 });
    run.digestMismatches = [{ caseId: 'other', digests: { node: LONG_A, bun: LONG_B }, where: { answer: 'GET /', line: 2, variants: { node: { text: 'x', bytes: 1 }, bun: { text: 'y', bytes: 1 } } } }];
    run.sameWorkMasked = [{ caseId: 'page', spans: 2, maskedChars: 60, bytes: 1000 }];
    const notes = runNotes(run);
    const errors = notes.filter((n) => n.level === 'error');
    expect(errors.map((n) => n.text)).toEqual(['different work on "other": GET /, line 2: node "x" (1 B); bun "y" (1 B) — results are not comparable']);
    expect(notes.find((n) => n.text.includes('changing spans'))).toEqual({ level: 'info', text: '"page": same work, 2 changing spans masked: 60 of 1,000 bytes' });
  });
});
