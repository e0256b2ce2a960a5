/**
 * Same work on changing responses, as properties over generated pages: a
 * page whose only changes are times, UUIDs and counters is always the same
 * work whatever values each process printed (and whether or not they changed
 * while it ran), and a difference planted outside the changing spans (an
 * added section, a changed word) is never masked: it does not fit the
 * learned template and it reads as different work across processes.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { AnswerLearner, answersDifference, fits, learn } from '../src/same-work/index.ts';

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A page: fixed lines of words and lines that print a changing value. */
type Line = { fixed: string } | { changing: 'time' | 'uuid' | 'counter' };
const word = fc.stringMatching(/^[a-z]{2,8}$/);
const line: fc.Arbitrary<Line> = fc.oneof(
  fc.array(word, { minLength: 1, maxLength: 5 }).map((ws) => ({ fixed: ws.join(' ') })),
  fc.constantFrom<Line>({ changing: 'time' }, { changing: 'uuid' }, { changing: 'counter' }),
);
/** Characters a changing line's value takes (a time, a UUID, a counter of at most 7 digits). */
const CHANGING_CHARS = { time: 24, uuid: 36, counter: 7 } as const;
/**
 * Pages with some changing value, and fixed text (words and markup) at least two fifths of the page: the learner
 * refuses to mask more than three quarters of an answer (a page of little else reads as different work, by design:
 * same-work.bounds.test.ts), which is not the property here.
 */
const pageShape = fc.array(line, { minLength: 2, maxLength: 12 }).filter((ls) => {
  const changing = ls.reduce((sum, l) => sum + ('changing' in l ? CHANGING_CHARS[l.changing] : 0), 0);
  const fixed = ls.reduce((sum, l) => sum + '<p></p>\n'.length + ('fixed' in l ? l.fixed.length : 0), '<main>\n\n</main>'.length);
  return changing > 0 && fixed >= (2 / 3) * changing;
});

const hex = (n: number, seed: number): string => Array.from({ length: n }, (_, i) => '0123456789abcdef'[(seed * 7 + i * 13 + ((seed * i) % 11)) % 16]).join('');
function value(kind: 'time' | 'uuid' | 'counter', seed: number): string {
  if (kind === 'time') return new Date(Date.UTC(2026, 0, 1) + seed * 1009).toISOString();
  // A UUID never repeats: its last group is the seed's own.
  if (kind === 'uuid') return `${hex(8, seed)}-${hex(4, seed + 1)}-4${hex(3, seed + 2)}-8${hex(3, seed + 3)}-${seed.toString(16).padStart(12, '0')}`;
  return String(seed);
}
/** The page rendered with values from `seed`; `plant` added after line `at`. */
function render(ls: readonly Line[], seed: number, plant?: { at: number; text: string }): string {
  const out = ls.map((l, i) => `<p>${'fixed' in l ? l.fixed : value(l.changing, seed + i * 101)}</p>`);
  if (plant) out.splice(plant.at + 1, 0, `<section>${plant.text}</section>`);
  return `<main>\n${out.join('\n')}\n</main>`;
}
function answers(ls: readonly Line[], seeds: readonly number[], plant?: { at: number; text: string }) {
  const learner = new AnswerLearner(sha);
  for (const seed of seeds) {
    const text = render(ls, seed, plant);
    learner.add({ request: 'GET /', status: 200, contentType: 'text/html', text, bytes: text.length });
  }
  return learner.answers();
}
// As many responses in every process (a round sends each the same requests).
const seeds = fc.uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 3, maxLength: 3 });

describe('changing values only: always the same work', () => {
  it('whatever each process printed', () => {
    fc.assert(
      fc.property(pageShape, seeds, seeds, (ls, a, b) => {
        expect(answersDifference({ node: answers(ls, a), bun: answers(ls, b) })).toBeUndefined();
      }),
    );
  });
  it('also when the values never changed while one process ran', () => {
    fc.assert(
      fc.property(pageShape, seeds, fc.integer({ min: 1, max: 1_000_000 }), (ls, a, still) => {
        // A still value the other arm's few values also took is an answer that changed (same-work.instances.test.ts).
        fc.pre(!a.includes(still));
        const unchanged = answers(ls, [still, still, still]);
        expect(answersDifference({ node: answers(ls, a), deno: unchanged })).toBeUndefined();
        expect(answersDifference({ deno: unchanged, node: answers(ls, a) })).toBeUndefined();
      }),
    );
  });
});

describe('a planted difference outside the changing spans is never masked', () => {
  const plant = fc.record({ at: fc.nat(), text: fc.array(word, { minLength: 1, maxLength: 3 }).map((ws) => ws.join(' ')) });
  it('an added section does not fit the learned template, and is different work', () => {
    fc.assert(
      fc.property(pageShape, seeds, seeds, plant, (ls, a, b, p) => {
        const at = { ...p, at: p.at % ls.length };
        // A page whose values are most of its text learns no template on one side or both: it is said as that, not as
        // the planted words (the share's refusal has tests of its own), so the property holds where both sides learn one.
        const template = learn(a.map((s) => render(ls, s)));
        fc.pre(template !== undefined && learn(b.map((s) => render(ls, s, at))) !== undefined);
        expect(fits(template!, render(ls, b[0]!, at))).toBe(false);
        const d = answersDifference({ node: answers(ls, a), bun: answers(ls, b, at) });
        expect(d).toBeDefined();
        expect(d!.variants.bun!.text).toContain(at.text.split(' ')[0]);
      }),
    );
  });
  it('a changed word in a fixed line is different work', () => {
    fc.assert(
      fc.property(pageShape, seeds, seeds, fc.nat(), (ls, a, b, pick) => {
        const fixed = ls.flatMap((l, i) => ('fixed' in l ? [i] : []));
        fc.pre(fixed.length > 0);
        const i = fixed[pick % fixed.length]!;
        const changed = ls.map((l, j) => (j === i && 'fixed' in l ? { fixed: `${l.fixed}x` } : l));
        const template = learn(a.map((s) => render(ls, s)));
        fc.pre(template !== undefined && learn(b.map((s) => render(changed, s))) !== undefined);
        expect(fits(template!, render(changed, b[0]!))).toBe(false);
        expect(answersDifference({ node: answers(ls, a), bun: answers(changed, b) })).toBeDefined();
      }),
    );
  });
});
