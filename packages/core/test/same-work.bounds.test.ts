/**
 * Same work's bounds, each pinned at its edge: how much more a hole may
 * hold, what share of a body masking may hide, how many places beyond
 * values two pages may differ in, how many kinds are learned and saved,
 * how much of a template is saved and when it is packed whole, after how
 * many unlike responses alignment stops, and how many values a hole is
 * remembered to have left.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { AnswerLearner, answersDifference, fits, HOLE_SLACK, holes, learn, learnFrom, literalTemplate, maskedText, MOST_KINDS, MOST_SHAPE_EDITS, SAVED_CHARS, SAVED_KINDS, templateDifference } from '../src/same-work/index.ts';

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const add = (l: AnswerLearner, text: string, request = 'GET /'): void => l.add({ request, status: 200, text, bytes: text.length });

describe('a hole holds at most HOLE_SLACK more than it stood for', () => {
  const t = learn(['<p>1234</p>', '<p>5678</p>'])!;
  it('and nothing but values', () => {
    expect(t.widths).toEqual([4]);
    expect(fits(t, `<p>${'9'.repeat(4 + HOLE_SLACK)}</p>`)).toBe(true);
    expect(fits(t, `<p>${'9'.repeat(5 + HOLE_SLACK)}</p>`)).toBe(false);
    expect(fits(t, '<p></p>')).toBe(true);
    expect(fits(t, '<p>12 34</p>')).toBe(false);
    expect(fits(t, '<p>1x</p>')).toBe(true);
    expect(fits(t, '<p>ab</p>')).toBe(false);
  });
  it('between segments too', () => {
    const two = learn(['a 1 b 2 c', 'a 3 b 4 c'])!;
    expect(holes(two)).toBe(2);
    expect(fits(two, `a ${'5'.repeat(1 + HOLE_SLACK)} b 6 c`)).toBe(true);
    expect(fits(two, `a ${'5'.repeat(2 + HOLE_SLACK)} b 6 c`)).toBe(false);
    expect(fits(two, 'a 5 b 6 c d')).toBe(false);
    expect(fits(two, 'a 5 c 6 b')).toBe(false);
    expect(fits(two, 'x 5 b 6 c')).toBe(false);
    expect(fits(two, 'a b c')).toBe(false);
  });
  it('a hole widens to the longest it stood for', () => {
    const t2 = learnFrom(literalTemplate('<p>1</p>'), '<p>123456</p>');
    expect(t2).toMatchObject({ template: { widths: [6] }, values: ['123456'], from: [[]], was: ['1'] });
    const t3 = learnFrom(learn(['<p>123456</p>', '<p>654321</p>'])!, '<p>1,000,000,000,000</p>');
    expect(t3).toMatchObject({ template: { segments: ['<p>', '</p>'], widths: [17] }, from: [[0]] });
  });
});

describe('what masking may hide', () => {
  const body = (value: string, fixed: number): string => `${'f'.repeat(fixed)}<${value}>`;
  it('up to 256 characters whatever the length, and at most 75% beyond', () => {
    expect(learnFrom(literalTemplate(body('1'.repeat(256), 10)), body('2'.repeat(256), 10))).toHaveProperty('template');
    expect(learnFrom(literalTemplate(body('1'.repeat(257), 10)), body('2'.repeat(257), 10))).toMatchObject({ unlike: { why: 'share', maskedChars: 257, chars: 269 } });
    // 600 of 800 is 75%: masked; 601 of 800 is not.
    expect(learnFrom(literalTemplate(body('1'.repeat(600), 198)), body('2'.repeat(600), 198))).toHaveProperty('template');
    expect(learnFrom(literalTemplate(body('1'.repeat(601), 197)), body('2'.repeat(601), 197))).toMatchObject({ unlike: { why: 'share' } });
  });
  it(`two pages that differ in more than ${MOST_SHAPE_EDITS} places beyond values are two pages, first differing where they do`, () => {
    const words = (prefix: string, n: number): string => Array.from({ length: n }, (_, i) => (i < 3 ? 'same' : `${prefix}${String.fromCharCode(97 + (i % 26))}`)).join(' ');
    expect(learnFrom(literalTemplate(words('x', 200)), words('y', 200))).toEqual({ unlike: { why: 'structure', a: 15, b: 15, many: true } });
    expect(learnFrom(literalTemplate(words('x', 40)), words('y', 40))).toMatchObject({ unlike: { why: 'structure', a: 15, b: 15 } });
  });
  it('a page unlike the first is not learned, whatever follows it', () => {
    expect(learn(['a 1 b', 'a 2 c', 'a 3 b'])).toBeUndefined();
    expect(learn(['a 1 b', 'a 2 b', 'a 3 b'])!.segments).toEqual(['a ', ' b']);
  });
  it('two templates that differ in more places beyond values than are aligned differ where they first do', () => {
    const words = (prefix: string): string => Array.from({ length: 200 }, (_, i) => (i < 3 ? 'same' : `${prefix}${String.fromCharCode(97 + (i % 26))}`)).join(' ');
    expect(templateDifference({ segments: [words('x')] }, { segments: [words('y')] })).toEqual({ a: 15, b: 15 });
  });
  it('a section added or gone, or words changed, say which side', () => {
    expect(learnFrom(literalTemplate('a\nb'), 'a\nnew\nb')).toMatchObject({ unlike: { side: 'added' } });
    expect(learnFrom(literalTemplate('a\nold\nb'), 'a\nb')).toMatchObject({ unlike: { side: 'missing' } });
    expect(learnFrom(literalTemplate('a old b'), 'a new b')).toEqual({ unlike: { why: 'structure', a: 2, b: 2 } });
  });
  it('shows holes with their mark', () => {
    expect(maskedText(learn(['a 1 b', 'a 2 b'])!)).toBe('a ⟨…⟩ b');
  });
});

describe('an arm\'s learner', () => {
  it(`learns ${MOST_KINDS} kinds and saves the text of ${SAVED_KINDS}`, () => {
    const l = new AnswerLearner(sha);
    for (let k = 0; k <= MOST_KINDS; k++) add(l, `page ${k}`, `GET /${k}`);
    const answers = l.answers();
    expect(answers.map((a) => a.segments.join(''))).toEqual(Array.from({ length: MOST_KINDS + 1 }, (_, k) => (k < SAVED_KINDS ? `page ${k}` : k < MOST_KINDS ? '' : '')));
    expect(answers.map((a) => a.truncated === true)).toEqual(Array.from({ length: MOST_KINDS + 1 }, (_, k) => k >= SAVED_KINDS));
  });

  it('saves a template to SAVED_CHARS, cut inside the segment that passes it', () => {
    const l = new AnswerLearner(sha);
    const text = (n: number): string => `${'a'.repeat(SAVED_CHARS - 2)} ${n} ${'b'.repeat(10)}`;
    add(l, text(1));
    add(l, text(2));
    const [a] = l.answers();
    expect(a!.segments).toEqual([`${'a'.repeat(SAVED_CHARS - 2)} `, ' ']);
    expect(a!.truncated).toBe(true);
    expect(a!.packed).toBeUndefined();
  });

  it('packs a truncated template once per change, and points later rounds back to it', () => {
    const packs: string[] = [];
    const l = new AnswerLearner(sha, (text) => {
      packs.push(text);
      return `packed ${packs.length}`;
    });
    const text = (n: number, m = 0): string => `${'a'.repeat(SAVED_CHARS)} ${n} b ${m}`;
    l.nextRound();
    add(l, text(1));
    add(l, text(2));
    expect(l.answers()[0]).toMatchObject({ packed: 'packed 1', packedRound: 1 });
    l.nextRound();
    add(l, text(3));
    expect(l.answers()[0]).toMatchObject({ packedRound: 1 });
    expect(l.answers()[0]!.packed).toBeUndefined();
    l.nextRound();
    add(l, text(4, 1));
    expect(l.answers()[0]).toMatchObject({ packed: 'packed 2', packedRound: 3, rounds: 3 });
    expect(JSON.parse(packs[1]!)).toEqual([`${'a'.repeat(SAVED_CHARS)} `, ' b ', '']);
  });

  it('does not save a packed text over 1 MiB', () => {
    const l = new AnswerLearner(sha, () => 'x'.repeat((1 << 20) + 1));
    l.nextRound();
    add(l, `${'a'.repeat(SAVED_CHARS)} 1`);
    add(l, `${'a'.repeat(SAVED_CHARS)} 2`);
    expect(l.answers()[0]!.packedRound).toBeUndefined();
    const within = new AnswerLearner(sha, () => 'x'.repeat(1 << 20));
    within.nextRound();
    add(within, `${'a'.repeat(SAVED_CHARS)} 1`);
    add(within, `${'a'.repeat(SAVED_CHARS)} 2`);
    expect(within.answers()[0]!.packedRound).toBe(1);
  });

  it('aligns at most three unlike responses; later ones only fit or are unlike', () => {
    const l = new AnswerLearner(sha);
    add(l, '<p>fixed</p> 1');
    for (const w of ['one', 'two', 'three']) add(l, `<p>${w}</p> 1`);
    // A new value no response showed yet: aligned it would be learned; past three unlike it is not.
    add(l, '<p>fixed</p> 2');
    expect(l.answers()[0]).toMatchObject({ unmasked: 4, spans: 0 });
    // One that fits is not unlike.
    add(l, '<p>fixed</p> 1');
    expect(l.answers()[0]).toMatchObject({ unmasked: 4, count: 6 });
    const fewer = new AnswerLearner(sha);
    add(fewer, '<p>fixed</p> 1');
    for (const w of ['one', 'two']) add(fewer, `<p>${w}</p> 1`);
    add(fewer, '<p>fixed</p> 2');
    expect(fewer.answers()[0]).toMatchObject({ unmasked: 2, spans: 1 });
  });

  it('hashes the first eight unlike responses into the digest', () => {
    const hashOf = (unlike: string[]): string => {
      const l = new AnswerLearner(sha);
      add(l, 'base');
      for (const u of unlike) add(l, u);
      return l.answers()[0]!.hash;
    };
    const eight = Array.from({ length: 8 }, (_, i) => `other ${String.fromCharCode(97 + i)}`);
    expect(hashOf([...eight, 'nine'])).toBe(hashOf([...eight, 'ten']));
    expect(hashOf([...eight.slice(0, 7), 'eighth'])).not.toBe(hashOf(eight));
  });

  it('remembers eight values a hole left in one process', () => {
    const returning = (values: number[]): number[] | undefined => {
      const l = new AnswerLearner(sha);
      l.nextRound();
      for (const v of values) add(l, `<p>n ${v}</p>`);
      return l.answers()[0]!.returning;
    };
    expect(returning([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0])).toEqual([0]);
    expect(returning([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 8])).toBeUndefined();
    expect(returning([0, 1, 2, 3, 4, 5, 6, 7, 8, 7])).toEqual([0]);
    // Another process starts afresh: 0 again in round 2 is its own first value.
    const l = new AnswerLearner(sha);
    l.nextRound();
    for (const v of [0, 1]) add(l, `<p>n ${v}</p>`);
    l.nextRound();
    for (const v of [0, 2]) add(l, `<p>n ${v}</p>`);
    expect(l.answers()[0]!.returning).toBeUndefined();
  });

  it('says why a response was unlike the rest', () => {
    const why = (texts: string[]): string | undefined => {
      const l = new AnswerLearner(sha);
      for (const t of texts) add(l, t);
      return l.answers()[0]!.unlike?.why;
    };
    const words = (prefix: string): string => Array.from({ length: 200 }, (_, i) => `${prefix}${String.fromCharCode(97 + (i % 26))}`).join(' ');
    expect(why([words('x'), words('y')])).toBe(`they differ in more than ${MOST_SHAPE_EDITS} places beyond changing values, first on line 1: nothing masked; to compare without such values, replace them first: rtbench run --normalize <regex> for a Worker, a suite's normalize (docs/requests.md)`);
    expect(why(['a\nb 1', 'a\nnew\nb 2'])).toBe('another section on line 2');
    expect(why(['a old b 1', 'a b 2'])).toBe('words missing at line 1');
    expect(why(['a\nold\nb 1', 'a\nb 2'])).toBe('a section missing at line 2');
    const many = new AnswerLearner(sha);
    for (let k = 0; k <= MOST_KINDS; k++) for (const n of [1, 2]) add(many, `page ${n}`, `GET /${k}`);
    expect(many.answers().at(-1)!.unlike!.why).toBe(`past the first ${MOST_KINDS} kinds of answer, responses are compared whole`);
  });

  it('packs only a template saved in part', () => {
    const l = new AnswerLearner(sha, () => 'packed');
    l.nextRound();
    add(l, 'short 1');
    add(l, 'short 2');
    expect(l.answers()[0]!.packedRound).toBeUndefined();
  });

  it('says the share bound it hit, with the counts grouped', () => {
    const l = new AnswerLearner(sha);
    for (const v of ['1', '2']) add(l, `${'f'.repeat(200)}<${v.repeat(1000)}>`);
    expect(l.answers()[0]!.unlike!.why).toBe("masking it would hide 1,000 of its 1,202 characters, more than 75%: nothing masked; to compare without such values, replace them first: rtbench run --normalize <regex> for a Worker, a suite's normalize (docs/requests.md)");
  });

  it('learns the first 4 Mi characters and hashes the rest with its length', () => {
    const most = 4 << 20;
    const exact = 'a'.repeat(most);
    const l = new AnswerLearner(sha);
    add(l, exact);
    expect(l.answers()[0]!.hash).toBe(sha(JSON.stringify([exact])));
    const long = `${exact}tail`;
    const m = new AnswerLearner(sha);
    add(m, long);
    expect(m.answers()[0]!.hash).toBe(sha(`${JSON.stringify([exact])}\ntail 4 ${sha('tail')}`));
    add(m, `${exact}tails`);
    expect(m.answers()[0]!.unlike!.why).toBe('past the first 4 Mi characters learned, what follows differs (4,194,308 characters, then 4,194,309)');
  });

  it('an answer alternating in the second hole facing one held still is different work; two alternating answers are not', () => {
    const arm = (values: (k: number) => number): ReturnType<AnswerLearner['answers']> => {
      const l = new AnswerLearner(sha);
      l.nextRound();
      for (let k = 0; k < 5; k++) add(l, `<p>at ${1000 + k}</p><p>answer ${values(k)}</p>`);
      return l.answers();
    };
    const alternating = arm((k) => (k % 2 ? 41 : 42));
    expect(alternating[0]!.returning).toEqual([1]);
    expect(answersDifference({ node: arm(() => 42), bun: alternating })).toBeDefined();
    expect(answersDifference({ node: arm((k) => (k % 2 ? 43 : 44)), bun: alternating })).toBeUndefined();
  });

  it('keys a kind by its headers in any order, and says them', () => {
    const k = new AnswerLearner(sha);
    k.add({ request: 'GET /', status: 200, headers: { b: '2', a: '1' }, text: 'x', bytes: 1 });
    k.add({ request: 'GET /', status: 200, headers: { a: '1', b: '2' }, text: 'x', bytes: 1 });
    expect(k.answers()).toHaveLength(1);
    k.add({ request: 'GET /', status: 200, contentType: 'text/plain', text: 'x', bytes: 1 });
    k.add({ request: 'GET /', status: 200, text: 'x', bytes: 1 });
    expect(k.answers().map((a) => a.contentType)).toEqual([undefined, 'text/plain', undefined]);
    const l = new AnswerLearner(sha);
    l.add({ request: 'GET /', status: 302, headers: { location: '/a' }, text: '', bytes: 0 });
    l.add({ request: 'GET /', status: 302, headers: { location: '/b' }, text: '', bytes: 0 });
    expect(l.answers().map((a) => a.headers)).toEqual([{ location: '/a' }, { location: '/b' }]);
  });

  it('counts the characters its holes stood for in the last response', () => {
    const l = new AnswerLearner(sha);
    for (const n of [1, 22, 333]) add(l, `<p>${n}</p>`);
    expect(l.answers()[0]).toMatchObject({ spans: 1, maskedChars: 3, bytes: '<p>333</p>'.length, count: 3 });
  });
});
