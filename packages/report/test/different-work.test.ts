/**
 * Different work in one line per case: where the masked answers first differ
 * and each variant's length, or, without that, which variants agree by a
 * short digest (no wall of digests); and the line that says how a request
 * case's changing responses were proven the same work.
 */
import { describe, expect, it } from 'vitest';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { runNotes } from '../src/views/bench.ts';
import { patternNormalizer } from '@rtbench/core/same-work';
import { differentWorkText, lastDigitNumbers, sameWorkMaskedText } from '../src/views/different-work.ts';

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

describe('a number that differs in its last digit', () => {
  // Math.cos(6) and Math.sin(24) as node's V8 build computes them, and as deno's, bun's, workerd's and glibc's do (correctly rounded).
  const node = '"complexity":0.9601702866503661,"value":-0.9055783620066238}';
  const deno = '"complexity":0.960170286650366,"value":-0.9055783620066238}';

  it('is said as such, with the line, each side and the pattern that masks it', () => {
    const where = { answer: 'GET / → 200 text/html', line: 7, variants: { node: { text: node, bytes: 120 }, deno: { text: deno, bytes: 119 }, workerd: { text: deno, bytes: 119 } } };
    const text = differentWorkText({ node: LONG_A, deno: LONG_B, workerd: LONG_B }, where);
    expect(text).toBe("GET / → 200 text/html: a number differs in its last digit on line 7 (node 0.9601702866503661; deno, workerd 0.960170286650366): the engines compute it differently; --normalize '(?<=\\.\\d{12})\\d+' masks it if that is expected");
    // The pattern offered makes the two lines the same text.
    const pattern = /--normalize '([^']+)'/.exec(text)![1]!;
    const masked = patternNormalizer([pattern]);
    const request = { path: '/' };
    expect(masked({ request, status: 200, body: node })).toBe(masked({ request, status: 200, body: deno }));
  });

  it('is one double computed two ways: a few units in its last place apart, in its decimals', () => {
    expect(lastDigitNumbers('x -0.9055783620066238 y', 'x -0.9055783620066239 y')).toEqual({ a: '-0.9055783620066238', b: '-0.9055783620066239', decimals: 16 });
    expect(lastDigitNumbers('[7625.584504796028]', '[7625.584504796027]')).toEqual({ a: '7625.584504796028', b: '7625.584504796027', decimals: 12 });
    // A serializer that drops the leading 0, as a page's inlined data does.
    expect(lastDigitNumbers('complexity:.8079554366909638}', 'complexity:.8079554366909637}')).toEqual({ a: '.8079554366909638', b: '.8079554366909637', decimals: 16 });
    // Another value, another integer, a number and a word, or another sign: different work, said as before.
    expect(lastDigitNumbers('x 0.9055783620066238', 'x 0.9055783620066338')).toBeUndefined();
    expect(lastDigitNumbers('id 12345', 'id 12346')).toBeUndefined();
    expect(lastDigitNumbers('v 1.5 a', 'v 1.5b')).toBeUndefined();
    expect(lastDigitNumbers('v 0.1000000000000001', 'v -0.1000000000000001')).toBeUndefined();
    const other = { answer: 'GET /', line: 3, variants: { node: { text: 'v 0.5' }, deno: { text: 'v 0.6' } } };
    expect(differentWorkText({ node: LONG_A, deno: LONG_B }, other)).toBe('GET /, line 3: node "v 0.5"; deno "v 0.6"');
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
