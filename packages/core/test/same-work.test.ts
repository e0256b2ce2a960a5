/**
 * Same work on changing responses (src/same-work/): the mask is learned only
 * from what changed between one process's responses to one request, a span
 * is masked as a whole token, and across processes only a hole facing a
 * changing value is forgiven. Each test names a way different work could
 * pass as the same, and fails if it does.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { MaskedAnswer } from '../src/schema.ts';
import {
  AnswerLearner,
  answersDifference,
  bodyText,
  firstDifferingLine,
  fits,
  holes,
  learn,
  lineAt,
  maskedText,
  MOST_KINDS,
  SAVED_CHARS,
  templateDifference,
  tokenize,
  widen,
  HOLE_MARK,
} from '../src/same-work/index.ts';
import { markToken, valueText, valueToken } from '../src/same-work/tokens.ts';

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const page = (time: string, id: string, n: number, extra = ''): string => `<html><p>at ${time}</p><p>request ${id}</p><p>served ${n}</p>${extra}<p>fixed text</p></html>`;
const T1 = '2026-11-26T20:46:02.123Z';
const T2 = '2026-11-26T20:46:02.987Z';
const U1 = '123e4567-e89b-12d3-a456-426614174000';
const U2 = '9f0c1d2e-3b4a-4c5d-8e6f-0a1b2c3d4e5f';

describe('tokens by shape', () => {
  it('joins back to the text, with a date-time, a UUID and a clock time each one token', () => {
    const text = `at ${T1}, id ${U1}, ${'8:46:02 PM'} on 11/26/2026: 3.14 req_12 9f86d081884c`;
    const tokens = tokenize(text);
    expect(tokens.join('')).toBe(text);
    for (const t of [T1, U1, '8:46:02 PM', '11/26/2026', '3.14', 'req_12', '9f86d081884c']) expect(tokens).toContain(t);
  });
});

describe('learning the mask', () => {
  it('masks the time, the id and the counter as whole tokens, and nothing else', () => {
    const t = learn([page(T1, U1, 9), page(T2, U2, 10)])!;
    expect(holes(t)).toBe(3);
    expect(maskedText(t)).toBe(`<html><p>at ${HOLE_MARK}</p><p>request ${HOLE_MARK}</p><p>served ${HOLE_MARK}</p><p>fixed text</p></html>`);
    expect(t.widths).toEqual([T2.length, U2.length, 2]);
  });

  it('a page of a few hundred thousand tokens (a long list) is learned and compared like a short one', () => {
    const rows = Array.from({ length: 60_000 }, (_, i) => `<li>${i}</li>`).join('');
    const t = learn([page(T1, U1, 9, rows), page(T2, U2, 10, rows)])!;
    expect(holes(t)).toBe(3);
    expect(templateDifference(t, learn([page(T1, U1, 9, `${rows}<li>extra</li>`), page(T2, U2, 10, `${rows}<li>extra</li>`)])!)).toBeDefined();
  });

  it('masks nothing when the responses are equal, and one response is the template itself', () => {
    expect(holes(learn([page(T1, U1, 1), page(T1, U1, 1)])!)).toBe(0);
    expect(learn([page(T1, U1, 1)])!.segments).toEqual([page(T1, U1, 1)]);
    expect(learn([])).toBeUndefined();
  });

  it('a later response that fits leaves the template as it is; one that does not widens it', () => {
    const t = learn([page(T1, U1, 1), page(T2, U2, 2)])!;
    expect(widen(t, page(T1, U2, 3))).toBe(t);
    const seven = learn([page(T1, U1, 1, '<i>7</i>'), page(T2, U2, 2, '<i>7</i>')])!;
    expect(holes(widen(seven, page(T1, U2, 3, '<i>8</i>'))!)).toBe(4);
    // A word that changed is not a changing value.
    expect(widen(t, page(T1, U2, 3).replace('fixed', 'other'))).toBeUndefined();
  });

  it('two different pages are not one page with changing spans', () => {
    const a = Array.from({ length: 1200 }, (_, i) => `w${i}`).join(' ');
    const b = Array.from({ length: 1200 }, (_, i) => `v${i}`).join(' ');
    expect(widen(learn([a])!, b)).toBeUndefined();
    expect(learn([a, b])).toBeUndefined();
  });
});

describe('a response fits a template', () => {
  const t = learn([page(T1, U1, 1), page(T2, U2, 2)])!;
  it('when only the holes hold other values', () => {
    expect(fits(t, page('2027-01-01T00:00:00.000Z', U1, 12345))).toBe(true);
  });
  it('not when text outside the holes changed, was added or went missing', () => {
    expect(fits(t, page(T1, U1, 1).replace('fixed', 'fixes'))).toBe(false);
    expect(fits(t, page(T1, U1, 1, '<section>only here</section>'))).toBe(false);
    expect(fits(t, page(T1, U1, 1).replace('<p>fixed text</p>', ''))).toBe(false);
    expect(fits(t, `x${page(T1, U1, 1)}`)).toBe(false);
    expect(fits(t, `${page(T1, U1, 1)}x`)).toBe(false);
  });
  it('not when a section is added right beside a hole (a hole stands for at most a little more than it did)', () => {
    expect(fits(t, page(T1, U1, 1).replace('</p><p>fixed', '</p><p>x</p><p>planted</p><p>fixed'))).toBe(false);
    expect(fits(t, page(`${T1} and more text here`, U1, 1))).toBe(false);
  });
  it('a template without holes fits its own text only', () => {
    expect(fits(learn(['abc'])!, 'abc')).toBe(true);
    expect(fits(learn(['abc'])!, 'abd')).toBe(false);
  });
});

describe('templates compared across processes', () => {
  const moving = learn([page(T1, U1, 1), page(T2, U2, 2)])!;
  it('the same holes are the same work', () => {
    expect(templateDifference(moving, learn([page(T2, U1, 7), page(T1, U2, 8)])!)).toBeUndefined();
  });
  it('a hole facing a value of a changing shape is forgiven (it did not change in that process)', () => {
    const still = learn([page(T1, U1, 5), page(T1, U2, 6)])!;
    expect(holes(still)).toBe(2);
    expect(templateDifference(moving, still)).toBeUndefined();
    expect(templateDifference(still, moving)).toBeUndefined();
  });
  it('a hole facing a word is not, nor is an added section, nor a changed word', () => {
    const worded = learn([page(T1, U1, 1).replace(`at ${T1}`, 'at noon'), page(T2, U2, 2).replace(`at ${T2}`, 'at noon')])!;
    expect(templateDifference(moving, worded)).toBeDefined();
    const planted = learn([page(T1, U1, 1, '<section>x</section>'), page(T2, U2, 2, '<section>x</section>')])!;
    const at = templateDifference(moving, planted)!;
    expect(maskedText(planted).slice(at.b)).toMatch(/^(<section>|section>|<p>fixed)/);
    expect(templateDifference(moving, learn([page(T1, U1, 1).replace('fixed', 'fixes'), page(T2, U2, 2).replace('fixed', 'fixes')])!)).toBeDefined();
  });
  it('a line added where another is empty differs on that line, not at the end of the one before', () => {
    const at = templateDifference({ segments: ['a ', '\n\nb'] }, { segments: ['a ', '\nextra\nb'] })!;
    expect(lineAt(maskedText({ segments: ['a ', '\n\nb'] }), at.a)).toMatchObject({ line: 2, text: '' });
    expect(lineAt(maskedText({ segments: ['a ', '\nextra\nb'] }), at.b)).toMatchObject({ line: 2, text: 'extra' });
  });
  it('two holes on both sides next to a word that differs are not forgiven', () => {
    expect(templateDifference({ segments: ['a ', ' b'] }, { segments: ['a ', ' c'] })).toBeDefined();
  });
  it('too many differences to diff still differ, from the first differing character', () => {
    const a = { segments: [Array.from({ length: 1200 }, (_, i) => `w${i}`).join(' ')] };
    const b = { segments: [Array.from({ length: 1200 }, (_, i) => `v${i}`).join(' ')] };
    expect(templateDifference(a, b)).toEqual({ a: 0, b: 0 });
  });
  it('a value holds a digit; a mark is one character that is not a letter, digit or space; a value\'s text is only those', () => {
    for (const t of ['12', 'a1', T1, U1]) expect(valueToken(t)).toBe(true);
    for (const t of ['word', ' ', ':', '-']) expect(valueToken(t)).toBe(false);
    for (const t of [':', '-', ',', '.']) expect(markToken(t)).toBe(true);
    for (const t of ['a', ' ', '\n', '1', 'é', '--']) expect(markToken(t)).toBe(false);
    for (const t of ['1,000', '-5', T1, '', '3:12:45 PM']) expect(valueText(t)).toBe(true);
    for (const t of ['1 000', '5 items', 'a', ' ']) expect(valueText(t)).toBe(false);
  });
});

describe('where two texts first differ', () => {
  it('the 1-based line and each side of it', () => {
    expect(firstDifferingLine('a\nb\nc', 'a\nb\nd')).toEqual({ line: 3, a: 'c', b: 'd' });
    expect(firstDifferingLine('a\nb', 'a\nb\nextra')).toEqual({ line: 2, a: 'b', b: 'b' });
    expect(firstDifferingLine('same', 'same')).toBeUndefined();
  });
  it('a long line is clipped around the column where they differ', () => {
    const long = `${'x'.repeat(500)}A${'y'.repeat(500)}`;
    const at = lineAt(long, 500);
    expect(at).toMatchObject({ line: 1, column: 500 });
    expect(at.text).toBe(`…${'x'.repeat(40)}A${'y'.repeat(39)}…`);
  });
});

/** A round's answers learned from pages rendered with its own values. */
function answersOf(pages: readonly string[], request = 'GET /', status = 200): MaskedAnswer[] {
  const learner = new AnswerLearner(sha);
  for (const text of pages) learner.add({ request, status, contentType: 'text/html', text, bytes: text.length });
  return learner.answers();
}
const renders = (n: number, extra = '', from = 0): string[] => Array.from({ length: n }, (_, i) => page(new Date(Date.UTC(2026, 10, 26) + (from + i) * 7).toISOString(), i % 2 ? U1 : U2, from + i, extra));

describe('a round\'s answers', () => {
  it('one kind per request, status and content type, with its count, spans and masked share', () => {
    const [a, ...rest] = answersOf(renders(50));
    expect(rest).toEqual([]);
    expect(a).toMatchObject({ request: 'GET /', status: 200, contentType: 'text/html', count: 50, spans: 3 });
    expect(a!.maskedChars).toBe(T1.length + U1.length + '49'.length);
    expect(a!.bytes).toBe(renders(50).at(-1)!.length);
  });
  it('two processes that answered alike but for times, ids and counters hash alike', () => {
    expect(answersOf(renders(20)).map((x) => x.hash)).toEqual(answersOf(renders(30, '', 1000)).map((x) => x.hash));
    expect(answersDifference({ node: answersOf(renders(20)), bun: answersOf(renders(20, '', 1000)) })).toBeUndefined();
  });
  it('an added section is different work, said on the line where it starts, with each variant\'s length', () => {
    const d = answersDifference({ node: answersOf(renders(20)), deno: answersOf(renders(20)), bun: answersOf(renders(20, '<section>bun only</section>')) })!;
    expect(d.answer).toBe('GET / → 200 text/html');
    expect(d.line).toBe(1);
    expect(d.variants.bun!.text).toContain('<section>bun only');
    expect(d.variants.node!.text).not.toContain('bun only');
    expect(Object.keys(d.variants)).toEqual(['node', 'deno', 'bun']);
    expect(d.variants.bun!.bytes).toBeGreaterThan(d.variants.node!.bytes!);
  });
  it('another status or a missing kind is different work; fewer answers (a round cut short) are not', () => {
    const base = answersOf(renders(10));
    expect(answersDifference({ a: base, b: answersOf(renders(10), 'GET /', 500) })!.variants.b!.text).toMatch(/^no such response \(GET \/ → 500/);
    expect(answersDifference({ a: base, b: answersOf(renders(10), 'GET /other') })).toBeDefined();
    expect(answersDifference({ a: base, b: answersOf(renders(2)) })).toBeUndefined();
    expect(answersDifference({ a: base, b: [] })!.variants.b!.text).toMatch(/^no such response/);
  });
  it('a template saved only in part cannot prove agreement past what was saved', () => {
    const big = (n: number, tail: string): string => `${'a'.repeat(SAVED_CHARS + 10)} ${n} ${tail}`;
    const a = answersOf([big(1, 'same'), big(2, 'same')]);
    const b = answersOf([big(1, 'other'), big(2, 'other')]);
    expect(a[0]!.truncated).toBe(true);
    expect(a[0]!.segments.join('').length).toBe(SAVED_CHARS);
    expect(answersDifference({ a, b })?.variants.a!.text).toBe('differs past the saved template');
    expect(answersDifference({ a, b: answersOf([big(3, 'same'), big(4, 'same')]) })).toBeUndefined();
  });
  it('responses too unlike the rest are counted and their text hashed, never masked', () => {
    const w = (p: string): string => Array.from({ length: 1200 }, (_, i) => `${p}${i}`).join(' ');
    const a = answersOf([w('w'), w('v')]);
    expect(a[0]!.unmasked).toBe(1);
    expect(a[0]!.hash).not.toBe(answersOf([w('w'), w('u')])[0]!.hash);
  });
  it(`past ${MOST_KINDS} kinds a kind is not learned: a change in it is counted unmasked`, () => {
    const learner = new AnswerLearner(sha);
    for (let k = 0; k <= MOST_KINDS; k++) for (let i = 0; i < 2; i++) learner.add({ request: `GET /${k}`, status: 200, text: `page ${k} at ${i}`, bytes: 9 });
    const answers = learner.answers();
    expect(answers).toHaveLength(MOST_KINDS + 1);
    expect(answers[0]!.spans).toBe(1);
    expect(answers.at(-1)!.unmasked).toBe(1);
  });
  it('reads a body as UTF-8, and bytes that are not as one character each', () => {
    expect(bodyText(new TextEncoder().encode('héllo'))).toBe('héllo');
    expect(bodyText(new Uint8Array([0xff, 0x41]))).toBe('\u00ffA');
    expect(bodyText(new Uint8Array([0xfe, 0x41]))).not.toBe(bodyText(new Uint8Array([0xff, 0x41])));
  });
});
