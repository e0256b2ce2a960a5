/**
 * The same-work check and the final status (record.ts's finishRun): a number
 * beside another is only printed as a ratio when both variants computed the
 * same value, so a difference in any one case, or between the rounds of one
 * variant, must be caught and must fail the run.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import type { MaskedAnswer, RunRecord } from '@rtbench/core/schema';
import { AnswerLearner } from '@rtbench/core/same-work';
import { finishRun } from '../../saved-runs/src/record.ts';
import { requestsOf } from '../../measurer-records/src/index.ts';
import { syntheticRun } from '../../../test/compare-synthetic.ts';

const ARMS = ['node', 'node@24'] as const;

/** A two-variant run of `cases.length` cases where variant v of case i returned `values[i][v]` in every round. */
function runReturning(values: readonly (readonly [string, string])[]): RunRecord {
  const run = syntheticRun({ cases: values.map((_, i) => ({ id: `case${i}`, ns: 100 })), arms: ARMS.map((id) => ({ id, factor: 1 })), rounds: 3, samplesPerRound: 3 });
  for (const result of run.results) {
    const i = Number(result.caseId.slice('case'.length));
    const hash = values[i]![ARMS.indexOf(result.variantId as (typeof ARMS)[number])]!;
    for (const round of result.rounds) round.digest = { hash, summary: hash };
  }
  return run;
}

describe('finishRun: the same-work check', () => {
  it('reports exactly the cases whose variants returned different values, each with its own digests', () => {
    const hash = fc.constantFrom('aaaa', 'bbbb', 'cccc');
    fc.assert(
      fc.property(fc.array(fc.tuple(hash, hash), { minLength: 1, maxLength: 4 }), (values) => {
        const run = runReturning(values);
        finishRun(run, false);
        const differing = values.flatMap(([a, b], i) => (a === b ? [] : [{ caseId: `case${i}`, digests: { node: a, 'node@24': b } }]));
        expect(run.digestMismatches.map((m) => ({ caseId: m.caseId, digests: { ...m.digests } }))).toEqual(differing);
        expect(run.status).toBe(differing.length ? 'failed' : 'complete');
      }),
      { numRuns: 25 },
    );
  });

  it('a case that returned a different value in one round fails that variant, even when every variant agrees on round 0', () => {
    const run = runReturning([['aaaa', 'aaaa']]);
    const late = run.results.find((r) => r.variantId === 'node')!;
    late.rounds[2]!.digest = { hash: 'ffff', summary: 'ffff' };
    finishRun(run, false);
    expect(late.failures.map((f) => f.kind)).toEqual(['digest-mismatch']);
    expect(late.failures[0]!.message).toContain('aaaa, ffff');
    expect(late.status).toBe('partial');
    expect(run.results.find((r) => r.variantId === 'node@24')!.status).toBe('ok');
    expect(run.digestMismatches).toEqual([]);
    expect(run.status).toBe('failed');
  });
});

/** A request round's masked answers (core same-work) for a page learned from `pages`, with digests that differ per round as templates learned apart do. */
function answersOf(pages: readonly string[]): MaskedAnswer[] {
  const learner = new AnswerLearner((text) => createHash('sha256').update(text).digest('hex'));
  for (const text of pages) learner.add({ request: 'GET /', status: 200, contentType: 'text/html', text, bytes: text.length });
  return learner.answers();
}
const page = (time: string, extra = ''): string => `<h1>Report</h1>\n<p>at ${time}</p>\n${extra}<p>total 42</p>`;

/** A run whose case0 rounds carry the answers `pagesOf(variant, round)` gave, each round with a digest of its own. */
function runAnswering(pagesOf: (variant: string, round: number) => string[]): RunRecord {
  const run = runReturning([['aaaa', 'aaaa']]);
  for (const result of run.results) {
    result.rounds.forEach((round, i) => {
      const answers = answersOf(pagesOf(result.variantId, i));
      round.digest = { hash: createHash('sha256').update(JSON.stringify(answers.map((a) => a.hash))).digest('hex'), summary: 'responses' };
      round.requests = { outcomes: { ok: 2, serverError: 0, threw: 0, notAResponse: 0, timedOut: 0 }, jsThread: { tid: 1, name: 'main', main: true }, threads: 1, unsettled: 0, answers };
    });
  }
  return run;
}

/** The same run with each variant's answers learned across its rounds, as the measurer learns them (one learner per variant). */
function runLearning(pagesOf: (variant: string, round: number) => string[]): RunRecord {
  const run = runReturning([['aaaa', 'aaaa']]);
  for (const result of run.results) {
    const learner = new AnswerLearner((text) => createHash('sha256').update(text).digest('hex'));
    result.rounds.forEach((round, i) => {
      learner.nextRound();
      for (const text of pagesOf(result.variantId, i)) learner.add({ request: 'GET /', status: 200, contentType: 'text/html', text, bytes: text.length });
      const answers = learner.answers();
      round.digest = { hash: createHash('sha256').update(JSON.stringify(answers.map((a) => a.hash))).digest('hex'), summary: 'responses' };
      round.requests = { outcomes: { ok: 2, serverError: 0, threw: 0, notAResponse: 0, timedOut: 0 }, jsThread: { tid: 1, name: 'main', main: true }, threads: 1, unsettled: 0, answers };
    });
  }
  return run;
}

describe('finishRun: answers learned across a variant\'s rounds', () => {
  it('the last round stands for the variant: a value fixed per process is the same work, though each round digested another template', () => {
    const run = runLearning((variant, round) => [page(`20:46:0${round}`, `<i>pid ${variant === 'node' ? 100 + round : 200 + round}</i>\n`), page(`20:47:1${round}`, `<i>pid ${variant === 'node' ? 100 + round : 200 + round}</i>\n`)]);
    expect(new Set(run.results[0]!.rounds.map((r) => r.digest.hash)).size).toBeGreaterThan(1);
    finishRun(run, false);
    expect(run.results.flatMap((r) => r.failures)).toEqual([]);
    expect(run.digestMismatches).toEqual([]);
    expect(run.sameWorkMasked?.[0]?.spans).toBe(2);
  });

  it('responses of one variant unlike each other fail it with the cause and its line, and are different work', () => {
    const run = runLearning((variant, round) => [page(`20:46:0${round}`), page(`20:47:1${round}`, variant === 'node' && round === 1 ? '<p>late</p>\n' : '')]);
    finishRun(run, false);
    const node = run.results.find((r) => r.variantId === 'node')!;
    expect(node.failures.map((f) => [f.kind, f.message])).toEqual([
      ['digest-mismatch', 'its responses are not proven the same work as each other (GET / → 200 text/html: 1 of 6 responses unlike the rest: another section on line 3 ("<p>late</p>"))'],
    ]);
    expect(node.status).toBe('partial');
    expect(run.digestMismatches.map((m) => m.where?.variants.node?.text)).toEqual(['1 of 6 responses unlike the rest: another section on line 3 ("<p>late</p>")']);
  });
});

describe('finishRun: the same work on changing responses', () => {
  it('answers that differ only where a process saw a time change are the same work, said with the spans masked', () => {
    // node's time changed in its rounds; node@24's stayed on one second, so it masked nothing: its value faces node's hole.
    const run = runAnswering((variant, round) => (variant === 'node' ? [page(`20:46:0${round}`), page(`20:47:1${round}`)] : [page('20:46:05'), page('20:46:05')]));
    finishRun(run, false);
    expect(run.digestMismatches).toEqual([]);
    expect(run.results.flatMap((r) => r.failures)).toEqual([]);
    expect(run.sameWorkMasked).toEqual([{ caseId: 'case0', spans: 1, maskedChars: '20:47:10'.length, bytes: page('20:47:10').length }]);
    expect(run.status).toBe('complete');
  });

  it('a section on one variant only is different work, with the first differing line and each length', () => {
    const run = runAnswering((variant, round) => [page(`20:46:0${round}`, variant === 'node@24' ? '<section>extra</section>\n' : ''), page(`20:47:1${round}`, variant === 'node@24' ? '<section>extra</section>\n' : '')]);
    finishRun(run, false);
    expect(run.digestMismatches).toHaveLength(1);
    const where = run.digestMismatches[0]!.where!;
    expect(where).toMatchObject({ answer: 'GET / → 200 text/html', line: 3 });
    expect(where.variants['node@24']).toEqual({ text: '<section>extra</section>', bytes: page('20:47:12', '<section>extra</section>\n').length });
    expect(where.variants.node).toEqual({ text: '<p>total 42</p>', bytes: page('20:47:12').length });
    expect(run.sameWorkMasked).toBeUndefined();
    expect(run.status).toBe('failed');
  });

  it('a round of one variant whose page differs fails that variant, as a strict digest would', () => {
    const run = runAnswering((variant, round) => [page(`20:46:0${round}`, variant === 'node' && round === 2 ? '<b>late</b>' : ''), page(`20:47:1${round}`, variant === 'node' && round === 2 ? '<b>late</b>' : '')]);
    finishRun(run, false);
    expect(run.results.find((r) => r.variantId === 'node')!.failures.map((f) => f.kind)).toEqual(['digest-mismatch']);
    expect(run.status).toBe('failed');
  });

  it('rounds without answers (strict, or saved before masking) keep the exact rule', () => {
    const run = runAnswering((_, round) => [page(`20:46:0${round}`), page(`20:47:1${round}`)]);
    // Strict digests of raw bodies that printed other times.
    for (const r of run.results) {
      for (const round of r.rounds) {
        delete requestsOf(round)!.answers;
        round.digest = { hash: `raw ${r.variantId}`, summary: 'responses' };
      }
    }
    finishRun(run, false);
    expect(run.digestMismatches.map((m) => m.caseId)).toEqual(['case0']);
    expect(run.digestMismatches[0]!.where).toBeUndefined();
  });
});

describe('finishRun: the final status', () => {
  it('a clean run is complete, and its results stay ok', () => {
    const run = runReturning([['aaaa', 'aaaa']]);
    finishRun(run, false);
    expect(run.results.map((r) => r.status)).toEqual(['ok', 'ok']);
    expect(run.status).toBe('complete');
  });

  it('an unsupported variant and a warning do not fail the run; an error does, and a failed variant that measured rounds is partial', () => {
    const run = runReturning([['aaaa', 'aaaa']]);
    const [node, other] = run.results;
    node!.failures.push({ kind: 'warning', message: 'slow clock' });
    other!.failures.push({ kind: 'unsupported', message: 'no such API' });
    finishRun(run, false);
    expect(run.status).toBe('complete');

    other!.failures.push({ kind: 'error', message: 'threw' });
    other!.status = 'failed';
    finishRun(run, false);
    expect(other!.status).toBe('partial');
    expect(run.status).toBe('failed');
  });

  it('an interrupted run says so, whatever else happened', () => {
    const run = runReturning([['aaaa', 'bbbb']]);
    finishRun(run, true);
    expect(run.status).toBe('interrupted');
    expect(run.digestMismatches.map((m) => m.caseId)).toEqual(['case0']);
  });
});

describe('finishRun: a case without work', () => {
  it('saves the flag for a case that returned undefined or ran at its floor, with the figures, and not for one that did work', () => {
    const run = runReturning([['aaaa', 'aaaa'], ['bbbb', 'bbbb'], ['cccc', 'cccc']]);
    const cell = (caseId: string, variantId: string) => run.results.find((r) => r.caseId === caseId && r.variantId === variantId)!;
    for (const round of cell('case0', 'node').rounds) round.digest = { hash: 'dddd', summary: 'undefined' };
    for (const round of cell('case0', 'node@24').rounds) round.digest = { hash: 'dddd', summary: 'undefined' };
    // case1 on node@24: 100 ns per call against a floor of 90 ns; case2: the same floor, well under the case's time.
    for (const round of cell('case1', 'node@24').rounds) round.floorNs = 90;
    for (const round of cell('case2', 'node').rounds) round.floorNs = 20;
    for (const round of cell('case2', 'node@24').rounds) round.digest = { hash: 'cccc', summary: "undefined (Node core's main() times a region and returns nothing)" };
    finishRun(run, false);
    expect(cell('case0', 'node').withoutWork).toEqual({ returnsUndefined: true });
    // A harness that returns nothing by design says so in the summary (core execute.ts): not without work.
    expect(cell('case2', 'node@24').withoutWork).toBeUndefined();
    expect(cell('case1', 'node@24').withoutWork).toEqual({ returnsUndefined: false, nearFloor: { fastestNs: expect.any(Number), floorNs: 90 } });
    expect(cell('case1', 'node').withoutWork).toBeUndefined();
    expect(cell('case2', 'node').withoutWork).toBeUndefined();
    // Not a failure: the run is complete (--strict makes it one for the command).
    expect(run.status).toBe('complete');
    // Finished again from an edited record, the flag follows the record.
    for (const round of cell('case1', 'node@24').rounds) delete round.floorNs;
    finishRun(run, false);
    expect(cell('case1', 'node@24').withoutWork).toBeUndefined();
  });
});

describe('finishRun: the memory summary', () => {
  const MiB = 1024 * 1024;
  /** A one-case run whose round i opened at 50 MiB and peaked `above[i]` MiB above that, after `servedBefore[i]` other cases in its process (undefined: a process of its own). */
  function runWithPeaks(above: readonly number[], servedBefore: readonly (number | undefined)[]): RunRecord {
    const run = syntheticRun({ cases: [{ id: 'case0', ns: 100 }], arms: [{ id: 'node', factor: 1 }], rounds: above.length, samplesPerRound: 3 });
    run.results[0]!.rounds.forEach((round, i) => {
      round.memory = { source: 'test', openBytes: 50 * MiB, sampleBytes: [], callsPerSample: 1, peakBytes: (50 + above[i]!) * MiB, processes: 1 };
      const before = servedBefore[i];
      if (before !== undefined) round.lockstep = { positions: round.samples.map(() => 0), servedBefore: before };
    });
    return run;
  }

  it("reads the peak above open from rounds whose process served another case first, where there are any", () => {
    // The case came first in two processes (paying the runtime's own first growth) and second in one.
    const run = runWithPeaks([77, 64, 76], [0, 1, 0]);
    finishRun(run, false);
    expect(run.results[0]!.memory).toMatchObject({ rounds: 3, peakAboveOpenBytes: 64 * MiB, peakBytes: 126 * MiB });
  });

  it('reads every round where each was its process\'s first case or a process of its own', () => {
    for (const servedBefore of [[0, 0, 0], [undefined, undefined, undefined]]) {
      const run = runWithPeaks([77, 64, 76], servedBefore);
      finishRun(run, false);
      expect(run.results[0]!.memory?.peakAboveOpenBytes).toBe(76 * MiB);
    }
  });
});
