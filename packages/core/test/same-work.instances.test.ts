/**
 * Instances of each way different work passed as the same (and the same as
 * different), other than the ones first found: a body longer only past what
 * is learned, a sentence beside a changing value, an answer that cycles
 * among three values, a round cut short. Each fails if the work it plants
 * reads as the same, or the same as different.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { MaskedAnswer } from '../src/schema.ts';
import { AnswerLearner, answersDifference, MOST_LEARNED_CHARS, standingAnswers } from '../src/same-work/index.ts';

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

describe('a round cut short by a time-out', () => {
  it('is compared on the answers it got: fewer of them is not different work', () => {
    const full = arm([Array.from({ length: 10 }, (_, i) => `served ${i}`), Array.from({ length: 10 }, (_, i) => `served ${i}`)]);
    const cut = arm([Array.from({ length: 2 }, (_, i) => `served ${i}`), Array.from({ length: 10 }, (_, i) => `served ${i}`)]);
    expect(full[0]!.count).toBe(20);
    expect(cut[0]!.count).toBe(12);
    expect(answersDifference({ node: full, workerd: cut })).toBeUndefined();
  });
});
