/**
 * --same-work strict with a request unanswered on one runtime: its rounds
 * answered fewer, which is a time-out counted in the round, not other work,
 * as the masked check reads it; an answer whose bytes differ is still other
 * work, and answers edited apart from their digest prove nothing.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digest } from '@rtbench/core/digest';
import { strictAnswers, strictAnswerText } from '@rtbench/core/same-work';
import type { RunRecord } from '@rtbench/core/schema';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { finishRun, sameWorkOf } from '../src/record.ts';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

interface Served {
  /** Per variant and round (and case), the answers' digests by request; a request left out got no answer. */
  answers: (variant: string, round: number, caseId: string) => [request: string, digest: string][];
  /** Per variant and round (and case), the requests that got no whole response. */
  unanswered?: (variant: string, round: number, caseId: string) => string[];
}

/** node and bun, two rounds each of each request case (one, "page", unless named), saved as a strict run's rounds are. */
function strictRun({ answers, unanswered = () => [] }: Served, cases: readonly string[] = ['page']): RunRecord {
  const record = syntheticRun({ cases: cases.map((id) => ({ id, ns: 2e6 })), arms: [{ id: 'node', factor: 1 }, { id: 'bun', factor: 1 }], rounds: 2, samplesPerRound: 4 });
  record.options = { ...record.options, measurer: 'request-cpu', measurerFields: {} };
  for (const result of record.results) {
    for (const round of result.rounds) {
      const strict = strictAnswers(answers(result.variantId, round.round, result.caseId).map(([request, d]) => ({ request, digest: d })), sha256);
      const missing = unanswered(result.variantId, round.round, result.caseId);
      round.samples = round.samples.map((ns) => ns / 1e6);
      round.digest = digest(strictAnswerText(strict, sha256));
      round.requests = {
        outcomes: { ok: 4 - missing.length, serverError: 0, threw: 0, notAResponse: 0, timedOut: missing.length },
        jsThread: { tid: 1, name: 'main', main: true },
        threads: 1,
        unsettled: 0,
        strictAnswers: strict,
        sameWork: 'strict',
        ...(missing.length ? { unanswered: missing } : {}),
      };
    }
  }
  return record;
}

const finished = (served: Served): RunRecord => {
  const run = strictRun(served);
  finishRun(run, false);
  return run;
};

const PAGE: [string, string] = ['GET /', 'page'];
const SLOW: [string, string] = ['GET /slow', 'slow'];

describe('a strict run with a request unanswered on one runtime', () => {
  it('is the same work, the run complete, when bun got no answer at all to "GET /slow"', () => {
    const run = finished({ answers: (v) => (v === 'bun' ? [PAGE, PAGE, PAGE] : [PAGE, PAGE, SLOW]), unanswered: (v) => (v === 'bun' ? ['GET /slow'] : []) });
    expect(run.digestMismatches).toEqual([]);
    expect(run.status).toBe('complete');
    expect(run.results.every((r) => r.failures.length === 0)).toBe(true);
  });

  it('is the same work when bun answered "GET /slow" fewer times, alike', () => {
    const run = finished({ answers: (v) => (v === 'bun' ? [PAGE, SLOW] : [PAGE, SLOW, SLOW, PAGE]), unanswered: (v) => (v === 'bun' ? ['GET /slow'] : []) });
    expect(run.digestMismatches).toEqual([]);
  });

  it('is the same work, not a value changing between rounds, when one round of bun\'s timed out', () => {
    const run = finished({ answers: (v, round) => (v === 'bun' && round === 1 ? [PAGE] : [PAGE, SLOW]), unanswered: (v, round) => (v === 'bun' && round === 1 ? ['GET /slow'] : []) });
    expect(run.results.find((r) => r.variantId === 'bun')!.failures).toEqual([]);
    expect(run.status).toBe('complete');
  });

  it('is other work when the request is missing and bun says nothing went unanswered', () => {
    const run = finished({ answers: (v) => (v === 'bun' ? [PAGE] : [PAGE, SLOW]) });
    expect(run.digestMismatches.map((m) => m.caseId)).toEqual(['page']);
    expect(run.status).toBe('failed');
  });

  it('is other work when an answer bun gave differs, time-out or not', () => {
    const run = finished({ answers: (v) => (v === 'bun' ? [['GET /', 'other page']] : [PAGE, SLOW]), unanswered: (v) => (v === 'bun' ? ['GET /slow'] : []) });
    expect(run.digestMismatches.map((m) => m.caseId)).toEqual(['page']);
    const warm = finished({ answers: (v) => (v === 'bun' ? [PAGE, ['GET /', 'page 41'], SLOW] : [PAGE, SLOW]) });
    expect(warm.digestMismatches.map((m) => m.caseId)).toEqual(['page']);
  });

  it('is other work in a round of one variant whose answer changed, named as not deterministic', () => {
    const run = finished({ answers: (v, round) => (v === 'bun' && round === 1 ? [['GET /', 'later'], SLOW] : [PAGE, SLOW]) });
    expect(run.results.find((r) => r.variantId === 'bun')!.failures.map((f) => f.kind)).toEqual(['digest-mismatch']);
  });

  it('is other work when the saved answers by request were edited apart from their digest', () => {
    const run = strictRun({ answers: (v) => (v === 'bun' ? [PAGE] : [PAGE, SLOW]), unanswered: (v) => (v === 'bun' ? ['GET /slow'] : []) });
    expect(sameWorkOf(run).digestMismatches).toEqual([]);
    const bun = run.results.find((r) => r.variantId === 'bun')!;
    for (const round of bun.rounds) round.digest = digest('answers by request, sha256 0');
    expect(sameWorkOf(run).digestMismatches.map((m) => m.caseId)).toEqual(['page']);
  });

  it("of two cases, each judged by its own rounds: the other case's alike answers do not stand for this one's", () => {
    const run = strictRun({ answers: (v, _, caseId) => (v === 'bun' && caseId === 'page' ? [['GET /', 'other page']] : [PAGE, SLOW]) }, ['page', 'later']);
    expect(sameWorkOf(run).digestMismatches.map((m) => m.caseId)).toEqual(['page']);
  });

  it("of two cases, each forgiven only its own requests unanswered: the other case's time-out does not excuse this one's missing answer", () => {
    const run = strictRun({ answers: (v) => (v === 'bun' ? [PAGE] : [PAGE, SLOW]), unanswered: (v, _, caseId) => (v === 'bun' && caseId === 'later' ? ['GET /slow'] : []) }, ['page', 'later']);
    expect(sameWorkOf(run).digestMismatches.map((m) => m.caseId)).toEqual(['page']);
  });

  it('is other work in a strict run saved before answers by request, whose digests differ', () => {
    const run = strictRun({ answers: (v) => (v === 'bun' ? [PAGE] : [PAGE, SLOW]), unanswered: (v) => (v === 'bun' ? ['GET /slow'] : []) });
    for (const result of run.results) for (const round of result.rounds) delete (round.requests as { strictAnswers?: unknown }).strictAnswers;
    expect(sameWorkOf(run).digestMismatches.map((m) => m.caseId)).toEqual(['page']);
  });
});
