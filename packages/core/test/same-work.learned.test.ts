/**
 * Same work learned across an arm's processes, bounded by what it hides:
 * a page of a thousand times is one page, a value fixed per process is
 * masked once a second process printed another, and words, sections, a
 * value that held still at another number, a longer body past what is
 * learned, or a page that is nearly all values are never passed as the
 * same work; what stopped the masking is said with its line, or with the
 * bound it hit and the way on.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { MaskedAnswer } from '../src/schema.ts';
import { AnswerLearner, answersDifference, learnFrom, literalTemplate, MOST_LEARNED_CHARS, MOST_MASKED_SHARE, standingAnswers, standingRound, unlikeWithinText, type Response } from '../src/same-work/index.ts';

/** A test round's masked answers, as a request round holds them. */
const answersIn = (r: { readonly requests?: { readonly answers?: readonly MaskedAnswer[] } }): readonly MaskedAnswer[] | undefined => r.requests?.answers;

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/** An arm's answers: one learner over its processes, each a list of bodies (or whole responses). */
function arm(processes: readonly (readonly (string | Omit<Response, 'request'>)[])[], request = 'GET /'): MaskedAnswer[] {
  const learner = new AnswerLearner(sha);
  for (const bodies of processes) {
    learner.nextRound();
    for (const b of bodies) learner.add(typeof b === 'string' ? { request, status: 200, contentType: 'text/html', text: b, bytes: b.length } : { request, ...b });
  }
  return learner.answers();
}

const unpack = (packed: string): string => gunzipSync(Buffer.from(packed, 'base64')).toString('utf8');

/** An arm's round records: one learner (packing as the host does) over its processes, each round's answers as its process ended. */
function rounds(processes: readonly (readonly string[])[]): { requests: { answers: MaskedAnswer[] } }[] {
  const learner = new AnswerLearner(sha, (text) => gzipSync(text).toString('base64'));
  return processes.map((bodies) => {
    learner.nextRound();
    for (const text of bodies) learner.add({ request: 'GET /', status: 200, contentType: 'text/html', text, bytes: text.length });
    return { requests: { answers: learner.answers() } };
  });
}

/** A server-rendered page: a thousand items each stamped with the time in ms, one locale date, and fixed markup around. */
function reactPage(now: number, extra = ''): string {
  const items = Array.from({ length: 1000 }, (_, i) => `<li class="item"><h3>Item ${i}</h3><p>${'lorem ipsum dolor sit amet '.repeat(20)}</p><span>Timestamp: ${now + (i >> 4)}</span></li>`).join('\n');
  const date = new Date(now).toLocaleString('en-US', { timeZone: 'UTC' });
  return `<!DOCTYPE html>\n<html><head><title>bench</title></head><body>\n<header>Rendered ${date}</header>\n<ul>\n${items}\n</ul>${extra}\n<footer>end</footer></body></html>`;
}
const T0 = Date.UTC(2026, 10, 27, 15, 12, 45);

describe('a page of many changing values is one page', () => {
  it('a thousand timestamps and a locale date in a large page are masked, and four arms are the same work', () => {
    const byArm = Object.fromEntries(['node', 'deno', 'bun', 'workerd'].map((id, k) => [id, arm([[reactPage(T0 + k * 10_000), reactPage(T0 + k * 10_000 + 1234)], [reactPage(T0 + k * 10_000 + 98_765)]])]));
    for (const answers of Object.values(byArm)) {
      expect(answers).toHaveLength(1);
      expect(answers[0]!.unmasked).toBeUndefined();
      expect(answers[0]!.spans).toBeGreaterThan(60);
      expect(answers[0]!.bytes).toBeGreaterThan(500_000);
    }
    expect(answersDifference(byArm)).toBeUndefined();
  });

  it('and the same page with a section on one arm only is different work, named by its line past the saved part', () => {
    const planted = '\n<section>only here</section>';
    const plain = rounds([[reactPage(T0), reactPage(T0 + 1234)], [reactPage(T0 + 5000)], [reactPage(T0 + 7000)]]);
    const bun = rounds([[reactPage(T0, planted), reactPage(T0 + 1234, planted)], [reactPage(T0 + 5000, planted)]]);
    // Each packed once, in the round its template changed; the last round points back to it.
    expect(plain.map((r) => r.requests.answers[0]!.packed !== undefined)).toEqual([true, false, false]);
    expect(plain[2]!.requests.answers[0]!.packedRound).toBe(1);
    const [a, b] = [standingAnswers(plain, answersIn, unpack)!, standingAnswers(bun, answersIn, unpack)!];
    expect(a[0]!.truncated).toBeUndefined();
    const d = answersDifference({ node: a, bun: b })!;
    expect(d.line).toBe(1006);
    expect(d.variants.bun!.text).toBe('<section>only here</section>');
    // Without the packed text the saved part cannot say where.
    expect(answersDifference({ node: plain[2]!.requests.answers, bun: bun[1]!.requests.answers })!.variants.bun!.text).toBe('differs past the saved template');
  });

  it('five hundred items each with a UUID are masked', () => {
    const items = (seed: number): string => JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ id: `${sha(`${seed}:${i}`).slice(0, 8)}-${sha(`${seed}`).slice(0, 4)}-4abc-8def-${sha(`${i}`).slice(0, 12)}`, name: `item ${i}`, price: i * 3 })));
    const a = arm([[items(1), items(2), items(3)]]);
    expect(a[0]!.unmasked).toBeUndefined();
    expect(a[0]!.spans).toBe(500);
    expect(answersDifference({ node: a, bun: arm([[items(4), items(5)]]) })).toBeUndefined();
  });
});

describe('learned across processes', () => {
  const started = (t: number, n: number): string => `<p>server started at ${t}</p><p>request ${n}</p>`;
  it('a value fixed per process is masked once a second process printed another', () => {
    const one = arm([[started(1700000000001, 1), started(1700000000001, 2)]]);
    expect(maskedOf(one)).toBe('<p>server started at 1700000000001</p><p>request ⟨…⟩</p>');
    const two = arm([[started(1700000000001, 1), started(1700000000001, 2)], [started(1700000005555, 1)]]);
    expect(maskedOf(two)).toBe('<p>server started at ⟨…⟩</p><p>request ⟨…⟩</p>');
    expect(two[0]!.rounds).toBe(2);
    expect(answersDifference({ node: two, deno: arm([[started(1700000009999, 1), started(1700000009999, 2)], [started(1700000007777, 1)]]) })).toBeUndefined();
  });

  it('two values that each held still and differ are different work (41 against 42)', () => {
    const held = (n: number) => arm([[`<p>answer ${n}</p><p>at ${T0}</p>`, `<p>answer ${n}</p><p>at ${T0 + 7}</p>`], [`<p>answer ${n}</p><p>at ${T0 + 99}</p>`]]);
    const d = answersDifference({ node: held(42), bun: held(41) })!;
    expect(d.variants).toMatchObject({ node: { text: '<p>answer 42</p><p>at ⟨…⟩</p>' }, bun: { text: '<p>answer 41</p><p>at ⟨…⟩</p>' } });
    expect(answersDifference({ node: held(42), deno: held(42) })).toBeUndefined();
  });

  it('an answer that alternates (41 on every other request) facing one held still (42) is different work; a value that moves on is not', () => {
    const answer = (n: number, k: number): string => `<p>answer ${n}</p><p>at ${T0 + k}</p>`;
    const still = arm([[0, 1, 2, 3].map((k) => answer(42, k)), [4, 5].map((k) => answer(42, k))]);
    const alternating = arm([[0, 1, 2, 3].map((k) => answer(k % 2 ? 41 : 42, k)), [4, 5].map((k) => answer(42, k))]);
    expect(alternating[0]!.returning).toEqual([0]);
    expect(alternating[0]!.spans).toBe(2);
    const d = answersDifference({ node: still, bun: alternating })!;
    expect(d.variants).toMatchObject({ node: { text: '<p>answer 42</p><p>at ⟨…⟩</p>' }, bun: { text: '<p>answer ⟨…⟩</p><p>at ⟨…⟩</p>' } });
    expect(answersDifference({ bun: alternating, node: still })).toBeDefined();
    // Alternating on both is the same work; a counter (it moves on) facing a value held still that it never took is too.
    expect(answersDifference({ node: alternating, bun: arm([[0, 1, 2, 3].map((k) => answer(k % 2 ? 41 : 42, k))]) })).toBeUndefined();
    const counting = arm([[0, 1, 2, 3].map((k) => answer(50 + k, k)), [4, 5].map((k) => answer(50 + k - 4, k))]);
    expect(counting[0]!.returning).toBeUndefined();
    expect(answersDifference({ node: still, bun: counting })).toBeUndefined();
  });

  it('whatever values a hole takes, it is marked returning exactly when one process came back to a value it had left', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 3 }), (processes) => {
        const answers = arm(processes.map((values) => values.map((v, k) => `<p>n ${v}</p><p>k ${k}</p>`)));
        const returned = processes.some((values) => values.some((v, i) => i > 1 && v !== values[i - 1] && values.slice(0, i - 1).includes(v)));
        const hole = answers[0]!.segments[0] === '<p>n ';
        expect(Boolean(answers[0]!.returning?.includes(0)) && hole).toBe(returned && hole);
      }),
    );
  });

  it('the last round stands for the variant when its answers were learned across every round, else the first', () => {
    const answers = arm([['a 1'], ['a 2']]);
    const rounds = [{ requests: { answers: arm([['a 1']]) } }, { requests: { answers } }];
    expect(standingRound(rounds, answersIn)).toBe(rounds[1]);
    const alone = [{ requests: { answers: arm([['a 1']]) } }, { requests: { answers: arm([['a 2']]) } }];
    expect(standingRound(alone, answersIn)).toBe(alone[0]);
    expect(standingRound([{}], answersIn)).toEqual({});
    expect(standingRound([], answersIn)).toBeUndefined();
  });
});

describe('words are not changing values', () => {
  it('a sentence added beside a counter on some responses is unlike the rest, said with its line', () => {
    const page = (n: number, said = ''): string => `<main>\n<p>fixed</p>\n<p>count ${n}${said}</p>\n</main>`;
    const a = arm([[page(1), page(2), page(3, ' and a sentence only here'), page(4)]]);
    expect(a[0]!.unmasked).toBe(1);
    expect(a[0]!.unlike).toMatchObject({ responses: 1, line: 3, why: 'words added on line 3', response: '<p>count 3 and a sentence only here</p>' });
    expect(unlikeWithinText(a)).toBe('GET / → 200 text/html: 1 of 4 responses unlike the rest: words added on line 3 ("<p>count 3 and a sentence only here</p>")');
    expect(answersDifference({ node: arm([[page(1), page(2)]]), bun: a })!.variants.bun!.text).toMatch(/^1 of 4 responses unlike the rest/);
  });

  it('a word that changed, or a line that went missing, is named as such', () => {
    const page = (n: number, word = 'fixed', tail = '\n<p>tail</p>'): string => `<main>\n<p>${word}</p>\n<p>count ${n}</p>${tail}\n</main>`;
    expect(arm([[page(1), page(2, 'other')]])[0]!.unlike).toMatchObject({ why: expect.stringMatching(/^they differ on line 2 in more than a changing value \(to compare without such values, replace them first: rtbench run --normalize <regex> for a Worker/), template: '<p>fixed</p>', response: '<p>other</p>' });
    expect(arm([[page(1), page(2, 'fixed', '')]])[0]!.unlike!.why).toBe('a section missing at line 4');
  });

  it('so do generated pages: a word planted beside a value in one response is never masked', () => {
    const word = fc.stringMatching(/^[a-z]{2,8}$/);
    fc.assert(
      fc.property(fc.array(fc.oneof(word, fc.constant('#')), { minLength: 2, maxLength: 10 }), fc.nat(), word, fc.integer({ min: 1, max: 5 }), (shape, pick, planted, at) => {
        fc.pre(shape.includes('#'));
        const render = (seed: number, plant?: boolean): string => shape.map((s, i) => `<p>${s === '#' ? String(seed * 7919 + i) : s}${plant && i === pick % shape.length ? ` ${planted}` : ''}</p>`).join('\n');
        const bodies = Array.from({ length: 6 }, (_, k) => render(k + 1, k === at));
        const a = arm([bodies.slice(0, 3), bodies.slice(3)]);
        expect(a[0]!.unmasked).toBe(1);
        expect(a[0]!.unlike!.line).toBe((pick % shape.length) + 1);
        expect(answersDifference({ node: arm([[render(1), render(2)]]), bun: a })).toBeDefined();
      }),
    );
  });

  it('and values alone never are different work, whatever each process printed', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.stringMatching(/^[a-z]{2,8}$/), fc.constantFrom('#', 'T', 'U')), { minLength: 1, maxLength: 12 }), fc.uniqueArray(fc.integer({ min: 1, max: 1e9 }), { minLength: 4, maxLength: 4 }), (shape, seeds) => {
        const value = (kind: string, seed: number): string => (kind === '#' ? String(seed) : kind === 'T' ? new Date(seed * 1000).toISOString() : `${sha(String(seed)).slice(0, 8)}-0000-4000-8000-${sha(String(seed)).slice(8, 20)}`);
        const render = (seed: number): string => shape.map((s, i) => `<p>${s.length === 1 ? value(s, seed + i) : s}</p>`).join('\n');
        // Past 256 characters masking hides at most 75% of a response (same-work.bounds.test.ts): a page nearly all values is that rule's case.
        const valueChars = shape.reduce((n, s, i) => n + (s.length === 1 ? value(s, seeds[0]! + i).length : 0), 0);
        fc.pre(valueChars <= 0.6 * render(seeds[0]!).length);
        const [a, b, c, d] = seeds as [number, number, number, number];
        expect(answersDifference({ node: arm([[render(a), render(b)], [render(c)]]), bun: arm([[render(d)], [render(c)], [render(a)]]) })).toBeUndefined();
      }),
    );
  });
});

describe('bounded by what it hides', () => {
  it('a page that is nearly all values masks nothing, and says the bound and the way on', () => {
    const numbers = (seed: number): string => Array.from({ length: 300 }, (_, i) => String((seed * 7919 + i * 104729) % 1e9)).join(',');
    const a = arm([[numbers(1), numbers(2)]]);
    expect(a[0]!.spans).toBe(0);
    expect(a[0]!.unlike!.why).toMatch(new RegExp(`^masking it would hide [\\d,]+ of its [\\d,]+ characters, more than ${MOST_MASKED_SHARE * 100}%: nothing masked; to compare without such values, replace them first: rtbench run --normalize <regex>`));
  });

  it('a short body may be mostly a value', () => {
    const a = arm([[`{"t":${T0}}`, `{"t":${T0 + 5}}`]]);
    expect(a[0]!.unlike).toBeUndefined();
    expect(a[0]!.spans).toBe(1);
  });

  it('a hole stands only for values: a run of words or white space beside it is not taken in', () => {
    const t = literalTemplate('<p>at 12 and</p>');
    expect(learnFrom(t, '<p>at 13 and</p>')).toMatchObject({ template: { segments: ['<p>at ', ' and</p>'] } });
    expect(learnFrom(t, '<p>at 13 or</p>')).toMatchObject({ unlike: { why: 'structure' } });
    expect(learnFrom(t, '<p>at 13  and</p>')).toMatchObject({ unlike: { why: 'structure' } });
    expect(learnFrom(t, '<p>at -13 and</p>')).toMatchObject({ template: { segments: ['<p>at ', ' and</p>'] } });
    // Marks alone, with no value beside them, are not a value.
    expect(learnFrom(literalTemplate('a-b'), 'a+b')).toMatchObject({ unlike: { why: 'structure' } });
  });
});

describe('the whole body and what the response says besides it', () => {
  it(`past the first ${MOST_LEARNED_CHARS >> 20} Mi characters, a body longer on one arm is different work, and a rest that differs between responses is named`, () => {
    const head = `${'x'.repeat(MOST_LEARNED_CHARS - 10)} at 1 `;
    const long = (rest: string): string => `${head}${rest}`;
    const a = arm([[long('tail'), long('tail')]]);
    expect(a[0]!.unlike).toBeUndefined();
    const b = arm([[long(`tail${'y'.repeat(3_000_000)}`), long(`tail${'y'.repeat(3_000_000)}`)]]);
    expect(answersDifference({ node: a, bun: b })).toBeDefined();
    const c = arm([[long('tail'), long('tails')]]);
    expect(c[0]!.unlike!.why).toMatch(/^past the first 4 Mi characters learned, what follows differs \([\d,]+ characters, then [\d,]+\)/);
  });

  it('a redirect is compared by where it points', () => {
    const to = (location: string) => arm([[{ status: 302, headers: { location }, text: '', bytes: 0 }]]);
    const d = answersDifference({ node: to('/next'), bun: to('/heavy') })!;
    expect(d.answer).toBe('GET / → 302 location: /next');
    expect(answersDifference({ node: to('/next'), bun: to('/next') })).toBeUndefined();
  });
});

/** The one answer's saved template, holes shown. */
function maskedOf(answers: readonly MaskedAnswer[]): string {
  return answers[0]!.segments.join('⟨…⟩');
}
