/**
 * Instances of each way different work passed as the same (and the same as
 * different), other than the ones first found: a body longer only past what
 * is learned, a sentence beside a changing value, an answer that cycles
 * among three values, an answer wrong once warm or in one process only, a
 * round cut short. Each fails if the work it plants
 * reads as the same, or the same as different.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { maskedAnswerSchema, type MaskedAnswer } from '../src/schema.ts';
import { AnswerLearner, answersDifference, MOST_LEARNED_CHARS, standingAnswers } from '../src/same-work/index.ts';
import { FEW_VALUES } from '../src/same-work/answers.ts';

/** A test round's masked answers, as a request round holds them. */
const answersIn = (r: { readonly requests?: { readonly answers?: readonly MaskedAnswer[] } }): readonly MaskedAnswer[] | undefined => r.requests?.answers;

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const pack = (text: string): string => gzipSync(text).toString('base64');
const unpack = (packed: string): string => gunzipSync(Buffer.from(packed, 'base64')).toString();
/** An arm's answers over rounds of responses, each round a process: its templates made whole again, as a saved run's are read. */
const arm = (rounds: readonly (readonly string[])[]): MaskedAnswer[] => {
  const l = new AnswerLearner(sha, pack);
  const saved: { requests: { answers: MaskedAnswer[] } }[] = [];
  for (const texts of rounds) {
    l.nextRound();
    for (const text of texts) l.add({ request: 'GET /', status: 200, contentType: 'text/html', text, bytes: text.length });
    saved.push({ requests: { answers: l.answers() } });
  }
  return [...standingAnswers(saved, answersIn, unpack)!];
};

describe('a body longer past the characters learned', () => {
  // Exactly the characters learned.
  const head = '<p>row</p>'.repeat(MOST_LEARNED_CHARS / 10 + 1).slice(0, MOST_LEARNED_CHARS);

  it('is different work, though every learned character is the same, and the line says how much more each has', () => {
    const short = arm([[`${head}</html>`, `${head}</html>`]]);
    const long = arm([[`${head}${'<p>more</p>'.repeat(300_000)}</html>`]]);
    expect(short[0]!.truncated).toBeUndefined();
    const d = answersDifference({ node: short, bun: long });
    expect(d?.answer).toBe('GET / → 200 text/html');
    expect(d?.variants.node?.text).toBe(`past the first 4 Mi characters, 7 more (sha256 ${sha('</html>').slice(0, 12)})`);
    expect(d?.variants.bun?.text).toMatch(/^past the first 4 Mi characters, 3,300,007 more \(sha256 [0-9a-f]{12}\)$/);
    expect(answersDifference({ node: short, bun: arm([[`${head}</html>`]]) })).toBeUndefined();
    // A third variant that never gave this answer is left out of the line.
    const other = new AnswerLearner(sha);
    other.add({ request: 'GET /other', status: 200, text: 'x', bytes: 1 });
    expect(Object.keys(answersDifference({ node: short, bun: long, deno: other.answers() })!.variants)).toEqual(['node', 'bun']);
  });

  it('is different work against a body no longer than what is learned', () => {
    const long = arm([[`${head}</html>`]]);
    expect(answersDifference({ node: long, deno: arm([['<html>short</html>']]) })?.variants.deno?.text).toBe('no more than 4 Mi characters');
    const exact = arm([[head]]);
    expect(exact[0]!.tail).toBeUndefined();
    expect(answersDifference({ node: long, deno: exact })?.variants).toMatchObject({ node: { text: expect.stringMatching(/^past the first 4 Mi characters, 7 more/) }, deno: { text: 'no more than 4 Mi characters' } });
  });
});

describe('words beside a changing value', () => {
  it('added on some responses only are different work, whatever shape the words have', () => {
    for (const added of [' (from cache)', ' of 10 in all', ', retried', ' v2 x3']) {
      const a = arm([[`served 1`, `served 2${added}`, `served 3`]]);
      expect(a[0]!.unmasked).toBe(1);
      expect(answersDifference({ node: arm([['served 1', 'served 2', 'served 3']]), bun: a })).toBeDefined();
    }
  });

  it('a value written as a word in one response is not a value', () => {
    expect(arm([['served 1', 'served two']])[0]!.unmasked).toBe(1);
  });
});

describe('an answer that comes back to a value it left', () => {
  it('cycling among three values, facing one held still, is different work; a counter is not', () => {
    const cycling = arm([Array.from({ length: 9 }, (_, i) => `answer ${40 + (i % 3)}`)]);
    expect(cycling[0]!.returning).toEqual([0]);
    expect(answersDifference({ node: arm([Array.from({ length: 9 }, () => 'answer 42')]), bun: cycling })).toBeDefined();
    const counting = arm([Array.from({ length: 9 }, (_, i) => `answer ${40 + i}`)]);
    expect(counting[0]!.returning).toBeUndefined();
    expect(answersDifference({ node: arm([Array.from({ length: 9 }, () => 'answer 42')]), bun: counting })).toBeUndefined();
  });

  it('a value fixed per process, another in each process, is not an answer that alternates', () => {
    const perProcess = arm([['started 41', 'started 41'], ['started 42', 'started 42'], ['started 41', 'started 41']]);
    expect(perProcess[0]!.returning).toBeUndefined();
    expect(answersDifference({ node: arm([['started 7', 'started 7']]), bun: perProcess })).toBeUndefined();
  });
});

describe('an answer that changed once, or in one process only, facing one held still', () => {
  /** A page with the time in ms (it moves on every response) beside the answer. */
  const page = (answer: number, k: number): string => `<p>at ${1764390000000 + k}</p><p>answer ${answer}</p>`;
  /** Processes of `n` responses each; `answer(process, request)` says what each answered. */
  const processes = (count: number, n: number, answer: (p: number, r: number) => number): string[][] =>
    Array.from({ length: count }, (_, p) => Array.from({ length: n }, (_, r) => page(answer(p, r), p * n + r)));
  const node = arm(processes(3, 50, () => 42));

  it('42 for forty requests and 41 after, in every process or in one, is different work on its line', () => {
    for (const [count, wrong] of [[3, () => true], [1, () => true], [3, (p: number) => p === 2]] as const) {
      const bun = arm(processes(count, 50, (p, r) => (r >= 40 && wrong(p) ? 41 : 42)));
      expect(bun[0]!.fewValues).toEqual([[1, ['41', '42']]]);
      for (const d of [answersDifference({ node, bun }), answersDifference({ bun, node })]) {
        expect(d).toMatchObject({ answer: 'GET / → 200 text/html', line: 1 });
        expect(d!.variants).toMatchObject({ node: { text: '<p>at ⟨…⟩</p><p>answer 42</p>' }, bun: { text: '<p>at ⟨…⟩</p><p>answer ⟨…⟩</p>' } });
      }
    }
  });

  it('a wrong answer in any one process only is different work', () => {
    for (const wrong of [0, 1, 2]) expect(answersDifference({ node, bun: arm(processes(3, 50, (p) => (p === wrong ? 41 : 42))) }), `process ${wrong}`).toBeDefined();
  });

  it('a value that took more than a few values is a counter, and one that never took the held value is one fixed per process', () => {
    const counter = arm(processes(1, FEW_VALUES + 1, (_, r) => 38 + r));
    expect(counter[0]!.fewValues).toEqual([]);
    expect(answersDifference({ node, bun: counter })).toBeUndefined();
    expect(answersDifference({ node, bun: arm(processes(1, FEW_VALUES, (_, r) => 38 + r)) })).toBeDefined();
    expect(answersDifference({ node, bun: arm(processes(3, 50, (p) => 7 + p)) })).toBeUndefined();
  });

  it('is read from a saved run: the few values survive the schema, and a run saved before them is read as before', () => {
    const bun = arm(processes(2, 50, (p) => (p === 1 ? 41 : 42)));
    const saved = bun.map((a) => maskedAnswerSchema.parse(JSON.parse(JSON.stringify(a))));
    expect(answersDifference({ node, bun: saved })).toBeDefined();
    const before = saved.map(({ fewValues: _, ...a }) => a);
    expect(answersDifference({ node, bun: before })).toBeUndefined();
  });

  it('a hole widened over two holes and the text between them has no few values: what it held was not followed', () => {
    // "1,2" and "3,4" make two holes around the comma; "5" takes both and the comma into one.
    const l = new AnswerLearner(sha);
    l.nextRound();
    for (const text of ['a 1,2 b', 'a 3,4 b']) l.add({ request: 'GET /', status: 200, text, bytes: text.length });
    expect(l.answers()[0]!.fewValues).toEqual([[0, ['1', '3']], [1, ['2', '4']]]);
    l.add({ request: 'GET /', status: 200, text: 'a 5 b', bytes: 5 });
    expect(l.answers()[0]).toMatchObject({ spans: 1, fewValues: [] });
    // A hole that stayed keeps its values across a widening elsewhere.
    const m = new AnswerLearner(sha);
    m.nextRound();
    for (const text of ['a 1 b 7 c', 'a 2 b 7 c', 'a 3 b 8 c']) m.add({ request: 'GET /', status: 200, text, bytes: text.length });
    expect(m.answers()[0]!.fewValues).toEqual([[0, ['1', '2', '3']], [1, ['7', '8']]]);
  });

  it('a value of several tokens the other arm held is one of the few: different work', () => {
    const moving = arm([['v 1/5 w', 'v 2:6 w']]);
    expect(moving[0]!.fewValues).toEqual([[0, ['1/5', '2:6']]]);
    expect(answersDifference({ node: arm([['v 1/5 w', 'v 1/5 w']]), bun: moving })).toBeDefined();
    expect(answersDifference({ node: arm([['v 3/7 w', 'v 3/7 w']]), bun: moving })).toBeUndefined();
  });

  it('an answer that came back to a value it left is different work though the held value is not among its few', () => {
    expect(answersDifference({ node: arm([['n 42', 'n 42']]), bun: arm([['n 41', 'n 43', 'n 41']]) })).toBeDefined();
    // Two holes in one region: the second came back (1, 2, 1), the first moved on.
    const two = arm([['a 10 b 20-1 c', 'a 11 b 21-2 c', 'a 12 b 22-1 c']]);
    expect(two[0]!.returning).toEqual([2]);
    expect(answersDifference({ node: arm([['a 100 b 7:9 c', 'a 100 b 7:9 c']]), bun: two })).toBeDefined();
  });

  it('saves the few values of holes whose text fills the bound exactly, and none past it', () => {
    const page = (base: number): string => Array.from({ length: 257 }, (_, i) => `<p>${i}: ${base + i}</p>`).join('');
    const [answer] = arm([[page(10_000_000), page(20_000_000)]]);
    expect(answer!.spans).toBe(257);
    // 256 holes of two 8-digit values each: 4 KiB.
    expect(answer!.fewValues).toHaveLength(256);
  });

  it('saves few values only within its bound', () => {
    const wide = (v: string, k: number): string => Array.from({ length: 200 }, (_, i) => `<p>${i}: ${v}${'x'.repeat(20)}${k}</p>`).join('');
    const many = arm([[wide('a', 0), wide('a', 1)]]);
    expect(many[0]!.spans).toBe(200);
    expect(many[0]!.fewValues!.length).toBeGreaterThan(0);
    expect(many[0]!.fewValues!.length).toBeLessThan(200);
    expect(many[0]!.fewValues!.map(([hole]) => hole)).toEqual(many[0]!.fewValues!.map((_, i) => i));
  });
});

describe('a round cut short by a time-out', () => {
  it('is compared on the answers it got: fewer of them is not different work', () => {
    const full = arm([Array.from({ length: 10 }, (_, i) => `served ${i}`), Array.from({ length: 10 }, (_, i) => `served ${i}`)]);
    const cut = arm([Array.from({ length: 2 }, (_, i) => `served ${i}`), Array.from({ length: 10 }, (_, i) => `served ${i}`)]);
    expect(full[0]!.count).toBe(20);
    expect(cut[0]!.count).toBe(12);
    expect(answersDifference({ node: full, workerd: cut })).toBeUndefined();
  });
});
