/**
 * The line a reader gets when variants' answers differ, from answers as a
 * saved run holds them: each answer's name, each variant's text and which
 * variants are named, for each way they can differ.
 */
import { describe, expect, it } from 'vitest';
import type { MaskedAnswer } from '../src/schema.ts';
import { answerName, answersDifference, maskedDigestText, standingAnswers, standingRound, unlikeText, unlikeWithinText } from '../src/same-work/index.ts';

/** A test round's masked answers, as a request round holds them. */
const answersIn = (r: { readonly requests?: { readonly answers?: readonly MaskedAnswer[] } }): readonly MaskedAnswer[] | undefined => r.requests?.answers;

const answer = (over: Partial<MaskedAnswer> & { segments: string[] }): MaskedAnswer => ({ request: 'GET /', status: 200, count: 1, bytes: 10, spans: over.segments.length - 1, maskedChars: 0, hash: over.segments.join('|'), ...over });

describe('an answer\'s name', () => {
  it('lists the headers compared by name, sorted, after the status and content type', () => {
    expect(answerName({ request: 'GET /', status: 200, contentType: 'text/plain', headers: { 'x-b': '2', 'x-a': '1', etag: 'e' } })).toBe('GET / → 200 text/plain etag: e; x-a: 1; x-b: 2');
    expect(answerName({ request: 'GET /', status: 302, headers: { location: '/next' } })).toBe('GET / → 302 location: /next');
    expect(answerName({ request: 'GET /', status: 204 })).toBe('GET / → 204');
    expect(answerName({ request: 'GET /', status: 200, headers: { etag: 'e', 'x-b': '2', 'x-a': '1' } })).toBe('GET / → 200 etag: e; x-a: 1; x-b: 2');
    expect(unlikeWithinText([answer({ segments: ['x'], unmasked: 1 }), answer({ request: 'GET /b', segments: ['y'], unmasked: 2 })])).toBe('GET / → 200: 1 responses unlike the rest; GET /b → 200: 2 responses unlike the rest');
  });
});

describe('the text a masked round digests', () => {
  it('is each answer\'s request, status, content type, headers and template hash, a line each in order, hashed', () => {
    const hashed: string[] = [];
    const text = maskedDigestText(
      [answer({ segments: ['a'], contentType: 'text/html', headers: { location: '/x' }, hash: 'h1' }), answer({ request: 'GET /b', status: 404, segments: ['b'], hash: 'h2' })],
      (t) => (hashed.push(t), 'HASH'),
    );
    expect(text).toBe('masked sha256 HASH');
    expect(hashed).toEqual(['GET / 200 text/html {"location":"/x"} h1\nGET /b 404  {} h2']);
    expect(maskedDigestText([], (t) => `[${t}]`)).toBe('masked sha256 []');
  });
});

describe('a variant\'s own unlike responses', () => {
  it('say how many, why, and the response\'s line only when both are known', () => {
    expect(unlikeText(answer({ segments: ['x'], count: 9, unmasked: 3 }))).toBe('3 responses unlike the rest');
    expect(unlikeText(answer({ segments: ['x'], count: 9, unmasked: 3, unlike: { responses: 3, why: 'words added on line 2', line: 2, response: 'b c' } }))).toBe('3 of 9 responses unlike the rest: words added on line 2 ("b c")');
    expect(unlikeText(answer({ segments: ['x'], count: 9, unmasked: 3, unlike: { responses: 3, why: 'w', line: 2 } }))).toBe('3 of 9 responses unlike the rest: w');
    expect(unlikeText(answer({ segments: ['x'], count: 9, unmasked: 3, unlike: { responses: 3, why: 'w', response: 'r' } }))).toBe('3 of 9 responses unlike the rest: w');
    expect(unlikeWithinText([answer({ segments: ['x'] }), answer({ request: 'GET /b', segments: ['y'], unmasked: 1 })])).toBe('GET /b → 200: 1 responses unlike the rest');
    expect(unlikeWithinText([answer({ segments: ['x'] })])).toBeUndefined();
  });
});

describe('variants whose answers differ', () => {
  const a1 = answer({ segments: ['first\nsame line'] });
  const b1 = answer({ request: 'GET /b', segments: ['other'], count: 2 });

  it('with no variants, or the same answers of several kinds, do not', () => {
    expect(answersDifference({})).toBeUndefined();
    expect(answersDifference({ node: [a1, b1], bun: [answer({ segments: ['first\nsame line'] }), answer({ request: 'GET /b', segments: ['other'] })] })).toBeUndefined();
  });

  it('in kinds of answer: each variant\'s count, or the kinds it gave instead', () => {
    const d = answersDifference({ node: [a1, b1], bun: [answer({ segments: ['first\nsame line'] }), answer({ request: 'GET /c', segments: ['c'], count: 4 })] });
    expect(d).toEqual({ answer: 'GET /b → 200', variants: { node: { text: '2 responses', bytes: 10 }, bun: { text: 'no such response (GET / → 200 ×1, GET /c → 200 ×4)' } } });
  });

  it('in a line: each variant\'s own text on it, the variants not compared too, one that lacks the answer left out', () => {
    const lines = (second: string): MaskedAnswer[] => [answer({ request: 'GET /b', segments: ['b'] }), answer({ segments: [`line one\n${second}\nline three`], bytes: second.length })];
    const d = answersDifference({ node: lines('said 1'), bun: lines('told 1'), deno: lines('said 1'), workerd: [answer({ request: 'GET /b', segments: ['b'] })] });
    expect(d).toEqual({ answer: 'GET / → 200', line: 2, variants: { node: { text: 'said 1', bytes: 6 }, bun: { text: 'told 1', bytes: 6 }, deno: { text: 'said 1', bytes: 6 } } });
    // A variant compared later: its own line, though the base's line is the one shown for the base.
    const third = answersDifference({ node: lines('said 1'), deno: lines('said 1'), bun: lines('told 1') });
    expect(third?.variants).toEqual({ node: { text: 'said 1', bytes: 6 }, deno: { text: 'said 1', bytes: 6 }, bun: { text: 'told 1', bytes: 6 } });
    const short = answersDifference({ node: lines('said 1'), bun: lines('told 1'), deno: [answer({ request: 'GET /b', segments: ['b'] }), answer({ segments: ['line one'], bytes: 8 })] });
    expect(short?.variants.deno).toEqual({ text: '', bytes: 8 });
  });

  it('within a variant: the first line named, each other variant alike or its own reason', () => {
    const unlike = answer({ segments: ['x'], count: 4, unmasked: 1, unlike: { responses: 1, why: 'words added on line 3', line: 3, response: 'r' } });
    const d = answersDifference({ node: [unlike], bun: [answer({ segments: ['x'] })], deno: [answer({ request: 'GET /b', segments: ['b'] })] });
    expect(d).toEqual({ answer: 'GET / → 200', line: 3, variants: { node: { text: '1 of 4 responses unlike the rest: words added on line 3 ("r")', bytes: 10 }, bun: { text: 'alike', bytes: 10 } } });
    const noLine = answersDifference({ node: [answer({ segments: ['x'], unmasked: 2 })], bun: [answer({ segments: ['x'], unmasked: 1, unlike: { responses: 1, why: 'w', line: 5 } })] });
    expect(noLine).toEqual({ answer: 'GET / → 200', line: 5, variants: { node: { text: '2 responses unlike the rest', bytes: 10 }, bun: { text: '1 of 1 responses unlike the rest: w', bytes: 10 } } });
    expect(answersDifference({ node: [answer({ segments: ['x'], unmasked: 2 })], bun: [answer({ segments: ['x'] })] })).not.toHaveProperty('line');
  });

  it('past a saved part that agrees, on either side: differs past the saved template, a variant without the answer left out', () => {
    const cut = answer({ segments: ['same'], truncated: true, hash: 'h1' });
    const whole = answer({ segments: ['same'], hash: 'h2' });
    const lacks = [answer({ request: 'GET /b', segments: ['b'] })];
    expect(answersDifference({ node: [whole], bun: [cut], deno: lacks })).toEqual({ answer: 'GET / → 200', variants: { node: { text: 'differs past the saved template', bytes: 10 }, bun: { text: 'differs past the saved template', bytes: 10 } } });
    expect(answersDifference({ node: [cut], bun: [whole] })).toBeDefined();
    expect(answersDifference({ node: [whole], bun: [answer({ segments: ['same'], hash: 'h3' })] })).toBeUndefined();
  });
});

describe('the round that stands for a variant', () => {
  it('is the first when the last learned from fewer rounds, or holds no answers', () => {
    const round = (answers?: MaskedAnswer[]) => ({ requests: { ...(answers ? { answers } : {}) } });
    const [r1, r2] = [round([answer({ segments: ['x'], rounds: 1 })]), round([answer({ segments: ['x'], rounds: 2 })])];
    expect(standingRound([r1, r2], answersIn)).toBe(r2);
    expect(standingRound([r1, round([answer({ segments: ['x'], rounds: 1 })])], answersIn)).toBe(r1);
    expect(standingRound([r1, round([])], answersIn)).toBe(r1);
    expect(standingRound([r1, round()], answersIn)).toBe(r1);
    expect(standingRound([], answersIn)).toBeUndefined();
  });
});

describe('the answers that stand for a variant', () => {
  it('take each template saved in part whole from the round that packed it, by its name, and leave the rest as they are', () => {
    const unpack = (packed: string): string => JSON.stringify([`whole ${packed}`]);
    const cut = (request: string, over: Partial<MaskedAnswer>): MaskedAnswer => answer({ request, segments: ['part'], truncated: true, ...over });
    const rounds = [
      // A round that crashed early learned from as many rounds as the next: it packed nothing.
      { requests: { answers: [cut('GET /', { rounds: 1 })] } },
      { requests: { answers: [cut('GET /', { rounds: 1, packedRound: 1, packed: 'A1' }), cut('GET /b', { rounds: 1, packedRound: 1, packed: 'B1' }), answer({ request: 'GET /e', segments: ['e'], rounds: 1, packedRound: 1, packed: 'E1' })] } },
      {},
      {
        requests: {
          answers: [
            cut('GET /', { rounds: 4, packedRound: 1 }),
            cut('GET /b', { rounds: 4, packedRound: 4, packed: 'B4' }),
            answer({ request: 'GET /c', segments: ['c'], rounds: 4 }),
            cut('GET /d', { rounds: 4, packedRound: 2 }),
            answer({ request: 'GET /e', segments: ['e'], rounds: 4, packedRound: 1 }),
          ],
        },
      },
    ];
    const [a, b, c, d, e] = standingAnswers(rounds, answersIn, unpack)!;
    expect(a).toEqual(answer({ segments: ['whole A1'], rounds: 4, packedRound: 1, hash: 'part' }));
    expect(b).toEqual(answer({ request: 'GET /b', segments: ['whole B4'], rounds: 4, packedRound: 4, hash: 'part' }));
    expect(c).toBe(rounds[3]!.requests!.answers[2]);
    // Packed in a round that is not there: left in part.
    expect(d).toBe(rounds[3]!.requests!.answers[3]);
    // Whole already: a packed round named beside it is not read.
    expect(e).toBe(rounds[3]!.requests!.answers[4]);
    expect(standingAnswers([], answersIn, unpack)).toBeUndefined();
    expect(standingAnswers([{}], answersIn, unpack)).toBeUndefined();
  });

  it('take each kind\'s own packed text from a round that packed several, and none for a template that names no packing round', () => {
    const unpack = (packed: string): string => JSON.stringify([`whole ${packed}`]);
    const cut = (request: string, over: Partial<MaskedAnswer>): MaskedAnswer => answer({ request, segments: ['part'], truncated: true, ...over });
    const rounds = [
      { requests: { answers: [answer({ request: 'GET /', segments: ['x'], packed: 'unnumbered' }), cut('GET /', { rounds: 1, packedRound: 1, packed: 'A1' }), cut('GET /b', { rounds: 1, packedRound: 1, packed: 'B1' })] } },
      { requests: { answers: [cut('GET /b', { rounds: 2, packedRound: 1 }), cut('GET /', { rounds: 2 })] } },
    ];
    const [b, a] = standingAnswers(rounds, answersIn, unpack)!;
    expect(b!.segments).toEqual(['whole B1']);
    expect(a).toBe(rounds[1]!.requests.answers[1]);
  });
});

describe('a kind of answer one variant lacks', () => {
  const slow = answer({ request: 'GET /slow', segments: ['done'] });
  const page = answer({ segments: ['page'] });
  const served = answer({ request: 'GET /slow', status: 500, segments: ['error'] });

  it('is a time-out, not other work, where every one of its requests of that name went unanswered', () => {
    expect(answersDifference({ node: [page, slow], bun: [page] }, { bun: new Set(['GET /slow']) })).toBeUndefined();
    expect(answersDifference({ bun: [page], node: [page, slow] }, { bun: new Set(['GET /slow']) }), 'the base lacking it').toBeUndefined();
  });

  it('is other work where nothing of that name went unanswered, or another request did', () => {
    expect(answersDifference({ node: [page, slow], bun: [page] })).toMatchObject({ answer: 'GET /slow → 200', variants: { bun: { text: 'no such response (GET / → 200 ×1)' } } });
    expect(answersDifference({ node: [page, slow], bun: [page] }, { bun: new Set(['GET /']) })?.answer).toBe('GET /slow → 200');
    expect(answersDifference({ node: [page, slow], bun: [page] }, { node: new Set(['GET /slow']) }), 'the other variant timed out').toMatchObject({ answer: 'GET /slow → 200' });
  });

  it('is other work where the variant answered a request of that name otherwise, one of them timing out', () => {
    expect(answersDifference({ node: [page, slow], bun: [page, served] }, { bun: new Set(['GET /slow']) })).toMatchObject({ answer: 'GET /slow → 200' });
    expect(answersDifference({ bun: [page, served], node: [page, slow] }, { bun: new Set(['GET /slow']) })).toMatchObject({ answer: 'GET /slow → 500' });
  });
});
