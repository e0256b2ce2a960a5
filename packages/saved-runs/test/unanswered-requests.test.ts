/**
 * A request that got no whole response on one runtime only: its kind of
 * answer is missing from that variant's answers. The run reads it as what it
 * is — a time-out, counted in the round — and not as other work; a kind
 * missing where nothing went unanswered is still other work.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digest } from '@rtbench/core/digest';
import { AnswerLearner, maskedDigestText } from '@rtbench/core/same-work';
import type { RunRecord } from '@rtbench/core/schema';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { requestsOf } from '@rtbench/measurer-records';
import { finishRun } from '../src/index.ts';
import { sameWorkOf } from '../src/record.ts';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * node and bun serve "GET /" and "GET /slow" in each of two rounds; on bun
 * every "GET /slow" got no response (`bunTimedOut`: the round says so, as the
 * host saves it) or, without it, was simply never answered.
 */
function run(bunTimedOut: boolean): RunRecord {
  const record = syntheticRun({ cases: [{ id: 'page', ns: 2e6 }], arms: [{ id: 'node', factor: 1 }, { id: 'bun', factor: 1 }], rounds: 2, samplesPerRound: 4 });
  record.options = { ...record.options, measurer: 'request-cpu', measurerFields: {} };
  for (const result of record.results) {
    const learner = new AnswerLearner(sha256);
    const bun = result.variantId === 'bun';
    for (const round of result.rounds) {
      learner.nextRound();
      for (let i = 0; i < 3; i++) learner.add({ request: 'GET /', status: 200, contentType: 'text/plain', text: 'page', bytes: 4 });
      if (!bun) learner.add({ request: 'GET /slow', status: 200, contentType: 'text/plain', text: 'slow', bytes: 4 });
      const answers = learner.answers();
      round.samples = round.samples.map((ns) => ns / 1e6);
      round.digest = digest(maskedDigestText(answers, sha256));
      const timedOut = bun ? 1 : 0;
      round.requests = {
        outcomes: { ok: 4 - timedOut, serverError: 0, threw: 0, notAResponse: 0, timedOut },
        jsThread: { tid: 1, name: 'main', main: true },
        threads: 1,
        unsettled: 0,
        answers,
        sameWork: 'masked',
        ...(bun && bunTimedOut ? { unanswered: ['GET /slow'] } : {}),
      };
    }
  }
  finishRun(record, false);
  return record;
}

describe('a request unanswered on one runtime only', () => {
  it('is a time-out counted in its rounds, not different work', () => {
    const finished = run(true);
    expect(finished.digestMismatches).toEqual([]);
    expect(sameWorkOf(finished).digestMismatches).toEqual([]);
    expect(finished.results.find((r) => r.variantId === 'bun')!.rounds.map((r) => requestsOf(r)?.outcomes.timedOut)).toEqual([1, 1]);
  });

  it('is different work, said by the kind missing, where the rounds name no request unanswered', () => {
    expect(run(false).digestMismatches).toMatchObject([{ caseId: 'page', where: { answer: 'GET /slow → 200 text/plain', variants: { bun: { text: 'no such response (GET / → 200 text/plain ×6)' } } } }]);
  });
});
