/**
 * A saved run is data, not a verdict: loading it (saved-run.ts) judges the
 * work, the statistics and the notes again from its rounds and their saved
 * answers. Each test plants one edit a user or a tool could make in a run of
 * a request case, saved as the run loop finishes it (record.ts finishRun),
 * and reads it back as every command does; a run as it was saved reads with
 * no note. A file too large, and a run whose rounds were taken out, are
 * refused in one line.
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, ftruncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { digest } from '@rtbench/core/digest';
import { AnswerLearner, maskedDigestText } from '@rtbench/core/same-work';
import { MOST_ROUND_SAMPLES, type CaseResult, type RunRecord } from '@rtbench/core/schema';
import { UsageError } from '@rtbench/core/usage-error';
import { requestsOf } from '@rtbench/measurer-records';
import { benchView } from '@rtbench/report';
import { slower } from '@rtbench/core';
import { checkClaims, claimsBlock, type ClaimCheck } from '@rtbench/verdicts';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { computeStats, finishRun, loadSavedRun, readRegularFile } from '../src/index.ts';
import { sameWorkOf } from '../src/record.ts';
import { refusal } from '../../../test/helpers/refusal.ts';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A page that prints a time, with a figure in it. */
const page = (figure: string, at: number): string => `<h1>total</h1>\n<p>${figure}</p>\n<p>at 2026-11-28T21:00:${String(at % 60).padStart(2, '0')}Z</p>\n`;

/** Per variant, per round, the figure each request's page prints. */
type Figures = Record<string, string[][]>;

/** How a run's answers are made: each round learned alone (as runs saved before learning across rounds were), and the page a figure makes. */
interface Serving {
  perRound?: boolean;
  pageOf?: (figure: string, at: number) => string;
}

/**
 * A request case's run on the variants `figures` names, three rounds of
 * eight requests, each round's answers learned across the arm's rounds as
 * the host learns them (host-timed request/answers.ts), finished as the run
 * loop finishes it.
 */
function requestRun(figures: Figures, samples = 8, cases: readonly string[] = ['page'], { perRound = false, pageOf = page }: Serving = {}): RunRecord {
  const variants = Object.keys(figures);
  const run = syntheticRun({ cases: cases.map((id) => ({ id, ns: 2e6 })), arms: variants.map((id) => ({ id, factor: 1 })), rounds: 3, samplesPerRound: samples });
  run.options = { ...run.options, measurer: 'request-cpu', measurerFields: {} };
  for (const result of run.results) {
    let learner = new AnswerLearner(sha256);
    for (const round of result.rounds) {
      if (perRound) learner = new AnswerLearner(sha256);
      learner.nextRound();
      // A case named "same…" answers the first variant's figures on every variant.
      const pages = figures[result.caseId.startsWith('same') ? variants[0]! : result.variantId]![round.round]!;
      pages.forEach((figure, i) => learner.add({ request: 'GET /', status: 200, contentType: 'text/html', text: pageOf(figure, round.round * 10 + i), bytes: 80 }));
      const answers = learner.answers();
      round.samples = round.samples.map((ns) => ns / 1e6);
      round.digest = digest(maskedDigestText(answers, sha256));
      round.requests = { outcomes: { ok: pages.length, serverError: 0, threw: 0, notAResponse: 0, timedOut: 0 }, jsThread: { tid: 1, name: 'main', main: true }, threads: 1, unsettled: 0, answers, sameWork: 'masked', phases: { steadyFrom: 2 } };
    }
  }
  finishRun(run, false);
  return run;
}

const constant = (figure: string, rounds = 3, requests = 8): string[][] => Array.from({ length: rounds }, () => Array.from({ length: requests }, () => figure));

/** Writes the run, edited by `edit`, and loads it as report, compare and history do. */
function reloaded(run: RunRecord, edit: (run: RunRecord) => void = () => {}): ReturnType<typeof loadSavedRun> {
  const copy = JSON.parse(JSON.stringify(run)) as RunRecord;
  edit(copy);
  const file = join(mkdtempSync(join(tmpdir(), 'rtbench-planted-')), 'run.json');
  writeFileSync(file, JSON.stringify(copy));
  return loadSavedRun(file);
}

/** The one line loading the run, edited by `edit`, is refused with. */
const refused = (run: RunRecord, edit: (run: RunRecord) => void): string => refusal(() => reloaded(run, edit));

const resultOf = (run: RunRecord, variant: string): CaseResult => run.results.find((r) => r.variantId === variant)!;

const SAME: Figures = { node: constant('42'), bun: constant('42') };
/** bun answers 41 where node answers 42 in every response: different work on line 2. */
const OTHER: Figures = { node: constant('42'), bun: constant('41') };

describe('a saved request run read back as saved', () => {
  it('reads with no note, its same work and its different work as the run loop judged them', () => {
    const same = reloaded(requestRun(SAME));
    expect(same.notes).toBeUndefined();
    expect(same.run.digestMismatches).toEqual([]);
    expect(same.run.status).toBe('complete');
    const other = reloaded(requestRun(OTHER));
    expect(other.notes).toBeUndefined();
    expect(other.run.digestMismatches).toMatchObject([{ caseId: 'page', where: { line: 2, variants: { node: { text: '<p>42</p>' }, bun: { text: '<p>41</p>' } } } }]);
    expect(other.run.status).toBe('failed');
  });
});

describe('planted edits read as what the rounds say', () => {
  it('an emptied list of different work: the difference is found again, named by its line, the run failed, and the edit said', () => {
    const loaded = reloaded(requestRun(OTHER), (run) => {
      run.digestMismatches = [];
      run.status = 'complete';
    });
    expect(loaded.run.digestMismatches).toMatchObject([{ caseId: 'page', where: { line: 2 } }]);
    expect(loaded.run.status).toBe('failed');
    expect(loaded.notes).toContain('the saved list of cases with different work is not what the rounds of "page" say (the file was edited after it was saved?): the rounds\' judgement is shown');
    const view = benchView(loaded.run, { notes: loaded.notes! });
    expect(view.notes.some((n) => n.level === 'error' && n.text.startsWith('different work on "page"'))).toBe(true);
  });

  it('of two cases, only the one whose listing was edited is named', () => {
    const loaded = reloaded(requestRun(OTHER, 8, ['same page', 'page']), (run) => {
      run.digestMismatches = [];
    });
    expect(loaded.run.digestMismatches.map((m) => m.caseId)).toEqual(['page']);
    expect(loaded.notes?.[0]).toMatch(/^the saved list of cases with different work is not what the rounds of "page" say/);
  });

  it('an interrupted run whose rounds differ stays interrupted, the difference listed', () => {
    const loaded = reloaded(requestRun(OTHER), (run) => {
      run.digestMismatches = [];
      run.status = 'interrupted';
    });
    expect(loaded.run.status).toBe('interrupted');
    expect(loaded.run.digestMismatches).toHaveLength(1);
  });

  it('a case listed as different work that the rounds say is the same: taken off the list, the edit said', () => {
    const run = requestRun(SAME);
    const loaded = reloaded(run, (r) => {
      r.digestMismatches = [{ caseId: 'page', digests: { node: 'a', bun: 'b' } }];
    });
    expect(loaded.run.digestMismatches).toEqual([]);
    expect(loaded.notes?.[0]).toMatch(/^the saved list of cases with different work is not what the rounds of "page" say/);
  });

  it("every round's digest made alike while the saved answers still differ: the answers' digests are used, and the work differs", () => {
    const run = requestRun(OTHER);
    const nodeDigest = resultOf(run, 'node').rounds[0]!.digest;
    const loaded = reloaded(run, (r) => {
      for (const result of r.results) for (const round of result.rounds) round.digest = { ...nodeDigest };
      r.digestMismatches = [];
      r.status = 'complete';
    });
    expect(loaded.notes).toContain('the digests of "page" on bun are not what their saved answers give (the file was edited after it was saved?): the answers\' are used');
    expect(resultOf(loaded.run, 'bun').rounds[0]!.digest).toEqual(resultOf(run, 'bun').rounds[0]!.digest);
    expect(loaded.run.digestMismatches).toMatchObject([{ caseId: 'page', where: { line: 2 } }]);
    expect(loaded.run.status).toBe('failed');
  });

  it('a run saved before answers were learned across rounds (its digest also of a count) is read as saved', () => {
    const loaded = reloaded(requestRun(SAME), (r) => {
      for (const result of r.results) {
        for (const round of result.rounds) {
          const answers = requestsOf(round)!.answers!;
          for (const answer of answers) delete answer.rounds;
          round.digest = digest(`8 responses, ${maskedDigestText(answers, sha256)}`);
        }
      }
    });
    expect(loaded.notes).toBeUndefined();
  });

  it('a run of other cases (no request rounds) reads with no note', () => {
    const run = syntheticRun({ cases: [{ id: 'a', ns: 1000 }], arms: [{ id: 'node', factor: 1 }, { id: 'deno', factor: 1.1 }], rounds: 3 });
    finishRun(run, false);
    expect(reloaded(run).notes).toBeUndefined();
  });

  it('statistics within JSON\'s round trip of the samples\' are the samples\'; a result saved without them says nothing', () => {
    const run = requestRun(SAME);
    expect(reloaded(run, (r) => void (resultOf(r, 'bun').stats!.median *= 1 + 1e-12)).notes).toBeUndefined();
    expect(reloaded(run, (r) => void delete resultOf(r, 'bun').stats).notes).toBeUndefined();
    // The bound is relative: a figure of seconds in ns moves by more than 1e-9 in its last digits.
    const large = syntheticRun({ cases: [{ id: 'a', ns: 2e9 }], arms: [{ id: 'node', factor: 1 }], rounds: 3 });
    finishRun(large, false);
    expect(reloaded(large, (r) => void (r.results[0]!.stats!.median *= 1 + 1e-12)).notes).toBeUndefined();
    expect(reloaded(run, (r) => void (resultOf(r, 'bun').stats!.median *= 1 + 1e-6)).notes?.[0]).toMatch(/^the samples of "page" on bun do not give/);
  });

  it('names six cells and counts the rest', () => {
    const ids = Array.from({ length: 8 }, (_, i) => `case ${i}`);
    const loaded = reloaded(requestRun(SAME, 8, ids), (r) => {
      for (const result of r.results) if (result.variantId === 'bun') result.stats!.median *= 2;
    });
    expect(loaded.notes?.[0]).toMatch(/^the samples of "case 0" on bun, "case 1" on bun, "case 2" on bun, "case 3" on bun, "case 4" on bun, "case 5" on bun and 2 more do not give/);
  });

  it('edited statistics: the figures are the samples\', the cell named', () => {
    const run = requestRun(SAME);
    const loaded = reloaded(run, (r) => {
      resultOf(r, 'bun').stats!.median *= 1000;
    });
    expect(resultOf(loaded.run, 'bun').stats!.median).toBeCloseTo(resultOf(run, 'bun').stats!.median, 9);
    expect(loaded.notes).toEqual([expect.stringMatching(/^the samples of "page" on bun do not give the statistics stored with them/)]);
  });

  it('a round taken out of one result: read from the rounds it holds, named with how many it holds of how many', () => {
    const run = requestRun(SAME);
    const loaded = reloaded(run, (r) => {
      resultOf(r, 'bun').rounds.splice(1, 1);
    });
    const held = JSON.parse(JSON.stringify(run)) as RunRecord;
    resultOf(held, 'bun').rounds.splice(1, 1);
    computeStats(held);
    expect(resultOf(loaded.run, 'bun').stats).toEqual(resultOf(held, 'bun').stats);
    expect(resultOf(loaded.run, 'bun').stats!.rounds).toBe(2);
    expect(resultOf(loaded.run, 'node').stats).toEqual(resultOf(run, 'node').stats);
    expect(loaded.notes).toEqual(['"page" on bun holds 2 of its 3 rounds (rounds taken out after the run was saved?): the figures shown are those of the rounds held']);
  });

  it('rounds taken out with the statistics made to match: the adaptive record still counts them', () => {
    const run = requestRun(SAME);
    for (const result of run.results) result.precision = { target: 0.02, rounds: 3, stoppedBy: 'target' };
    const loaded = reloaded(run, (r) => {
      const bun = resultOf(r, 'bun');
      bun.rounds = bun.rounds.slice(0, 1);
      bun.stats!.rounds = 1;
    });
    expect(loaded.notes).toEqual(['"page" on bun holds 1 of its 3 rounds (rounds taken out after the run was saved?): the figures shown are those of the rounds held']);
    // A failed result's record may count a round a late crash took out: that is no edit.
    const crashed = JSON.parse(JSON.stringify(run)) as RunRecord;
    const bun = resultOf(crashed, 'bun');
    bun.rounds = bun.rounds.slice(0, 2);
    bun.status = 'failed';
    bun.failures = [{ kind: 'crash', message: 'the server exited', round: 2 }];
    computeStats(crashed);
    expect(reloaded(crashed).notes).toBeUndefined();
  });

  it('rounds taken out of a result that keeps its statistics: refused in one line naming it', () => {
    const message = refused(requestRun(SAME), (r) => {
      resultOf(r, 'bun').rounds = [];
    });
    expect(message).toMatch(/is not a consistent rtbench run: the result for "page" on "bun" holds statistics but no rounds to read them from$/);
    expect(message).not.toContain('\n');
  });

  it('every round taken out, statistics too: refused in one line', () => {
    const message = refused(requestRun(SAME), (r) => {
      for (const result of r.results) {
        result.rounds = [];
        delete result.stats;
      }
    });
    expect(message).toMatch(/is not a consistent rtbench run: it holds no rounds, and no failure saying why$/);
  });

  it('a variant\'s results taken out, or a variant added that none names: refused in one line naming the first', () => {
    const dropped = refused(requestRun(SAME, 8, ['page', 'feed']), (r) => {
      r.results = r.results.filter((result) => result.variantId !== 'bun');
    });
    expect(dropped).toMatch(/is not a consistent rtbench run: it holds no result for "page" on "bun" and 1 more case × variant$/);
    const added = refused(requestRun(SAME), (r) => {
      r.variants.push({ ...r.variants[0]!, id: 'deno' });
    });
    expect(added).toMatch(/is not a consistent rtbench run: it holds no result for "page" on "deno"$/);
  });

  it('a run whose variants all failed, or that was interrupted before a round, is read', () => {
    const failed = requestRun(SAME);
    for (const result of failed.results) {
      result.rounds = [];
      delete result.stats;
      result.failures = [{ kind: 'crash', message: 'the server exited' }];
      result.status = 'failed';
    }
    expect(reloaded(failed).run.results.every((r) => r.stats === undefined)).toBe(true);
    const interrupted = reloaded(requestRun(SAME), (r) => {
      for (const result of r.results) {
        result.rounds = [];
        delete result.stats;
      }
      r.status = 'interrupted';
    });
    expect(interrupted.run.status).toBe('interrupted');
  });
});

describe('claims decided again from the samples', () => {
  /** node@24 1.6× slower than node@26 on case a over ten rounds, and `count` claims that it is slower by 1.2× (each holds). */
  function claimsRun(count: number): RunRecord {
    const run = syntheticRun({ cases: [{ id: 'a', ns: 1000 }], arms: [{ id: 'node@26', factor: 1 }, { id: 'node@24', factor: 1.6 }], rounds: 10, sigma: 0.02, seed: 7 });
    finishRun(run, false);
    const family = { confidence: 0.95, size: count, threshold: 0.01 };
    const checks = Array.from({ length: count }, (_, i): ClaimCheck => ({ says: `claim ${i}`, suite: 'synthetic', subject: { caseId: 'a', variantId: 'node@24' }, other: { caseId: 'a', variantId: 'node@26' }, measure: 'time', expect: slower(1.2) }));
    run.claims = claimsBlock(checkClaims(run, checks, family), family);
    return run;
  }

  it('as saved: the same words, no note', () => {
    const loaded = reloaded(claimsRun(2));
    expect(loaded.run.claims!.outcomes.map((o) => o.word)).toEqual(['held', 'held']);
    expect(loaded.notes).toBeUndefined();
  });

  it("edited words: the samples' shown, four claims named and the rest counted", () => {
    const loaded = reloaded(claimsRun(5), (r) => {
      for (const outcome of r.claims!.outcomes) outcome.word = 'broken';
    });
    expect(loaded.run.claims!.outcomes.map((o) => o.word)).toEqual(['held', 'held', 'held', 'held', 'held']);
    const named = [0, 1, 2, 3].map((i) => `"claim ${i}" on node@24 (saved broken, the samples say held)`).join(', ');
    expect(loaded.notes).toEqual([`the claims ${named} and 1 more are not what the samples stored with them decide (the file was edited after it was saved?): the words shown are the samples'`]);
    const one = reloaded(claimsRun(1), (r) => void (r.claims!.outcomes[0]!.word = 'broken'));
    expect(one.notes).toEqual(['the claims "claim 0" on node@24 (saved broken, the samples say held) are not what the samples stored with them decide (the file was edited after it was saved?): the words shown are the samples\'']);
  });
});

describe('a request round that learned no answer', () => {
  it('reads back: there is no digest of answers to take again', () => {
    const loaded = reloaded(requestRun(SAME), (r) => {
      requestsOf(resultOf(r, 'bun').rounds[0]!)!.answers = [];
    });
    expect(resultOf(loaded.run, 'bun').rounds).toHaveLength(3);
  });
});

describe('same work judged from the rounds (record.ts sameWorkOf)', () => {
  it('digests made alike over answers that differ: the answers decide', () => {
    const run = requestRun(OTHER);
    const nodeDigest = resultOf(run, 'node').rounds.at(-1)!.digest;
    for (const round of resultOf(run, 'bun').rounds) round.digest = { ...nodeDigest };
    expect(sameWorkOf(run).digestMismatches).toMatchObject([{ caseId: 'page', where: { line: 2 } }]);
  });

  it('alike digests over alike answers are the same work, with the spans masked said', () => {
    const work = sameWorkOf(requestRun(SAME));
    expect(work.digestMismatches).toEqual([]);
    expect(work.sameWorkMasked).toMatchObject([{ caseId: 'page', spans: 1 }]);
  });
});

describe('same work judged from the rounds: what a digest alone does not decide', () => {
  /** node's figure constant, bun's different in every response: its template has one hole more. */
  const counting: Figures = { node: constant('42'), bun: constant('0').map((round, r) => round.map((_, i) => String(40 + r * 8 + i))) };

  it('answers with nothing masked prove the work with no spans said', () => {
    const work = sameWorkOf(requestRun(SAME, 8, ['page'], { pageOf: (figure) => `<p>${figure}</p>\n` }));
    expect(work.digestMismatches).toEqual([]);
    expect(work.sameWorkMasked).toBeUndefined();
  });

  it('the spans said are those of the variant that masked the most, whichever comes first', () => {
    const most = (run: RunRecord) => sameWorkOf(run).sameWorkMasked;
    const bun = requestsOf(resultOf(requestRun(counting), 'bun').rounds.at(-1)!)!.answers![0]!;
    expect(bun.spans).toBe(2);
    expect(most(requestRun(counting))).toEqual([{ caseId: 'page', spans: 2, maskedChars: bun.maskedChars, bytes: bun.bytes }]);
    expect(most(requestRun({ bun: counting.bun!, node: counting.node! }))).toEqual([{ caseId: 'page', spans: 2, maskedChars: bun.maskedChars, bytes: bun.bytes }]);
  });

  /** Both variants' rounds: a figure fixed in two, changing in the third (a template with a hole more), each round learned alone. */
  const mixed = (): RunRecord => {
    const rounds = [constant('42')[0]!, constant('42')[0]!, counting.bun![2]!];
    return requestRun({ node: rounds, bun: rounds }, 8, ['page'], { perRound: true });
  };

  it("a run saved before learning across rounds, whose rounds digested other templates of alike answers, is the same work as each round's", () => {
    const run = mixed();
    expect(new Set(resultOf(run, 'node').rounds.map((r) => r.digest.hash)).size).toBe(2);
    expect(run.results.flatMap((r) => r.failures)).toEqual([]);
    expect(run.status).toBe('complete');
  });

  it('a run saved before learning across rounds, one of whose rounds saved no answers, is not proven the same over its rounds', () => {
    const run = mixed();
    const node = resultOf(run, 'node');
    delete requestsOf(node.rounds[0]!)!.answers;
    finishRun(run, false);
    expect(node.failures.map((f) => f.kind)).toEqual(['digest-mismatch']);
    expect(node.failures[0]!.message).toMatch(/^the case returned different values in different rounds/);
  });
});

describe('a request run whose every round kept its first request alone (a time-out under --concurrency)', () => {
  it('finishes and reads back without statistics, and its cell says why', () => {
    const run = requestRun(SAME, 1);
    expect(run.results.every((r) => r.rounds.length === 3 && r.stats === undefined)).toBe(true);
    const loaded = reloaded(run);
    const row = benchView(loaded.run).cases[0]!.rows[0]!;
    expect(row.stats).toBeUndefined();
    expect(row.note).toMatch(/^no statistics: every round kept its first request alone/);
  });

  it('a round of one request beside rounds of more is left out of the figure, not a failure', () => {
    const run = requestRun(SAME);
    const node = resultOf(run, 'node');
    node.rounds[0]!.samples = node.rounds[0]!.samples.slice(0, 1);
    computeStats(run);
    expect(node.stats).toBeDefined();
  });
});

describe('samples no clock reads', () => {
  it('samples of 1e308 have no statistics, said as such, not as a clock too coarse', () => {
    const run = syntheticRun({ cases: [{ id: 'huge', ns: 1 }], arms: [{ id: 'node', factor: 1 }], rounds: 3, samplesPerRound: 5 });
    for (const round of run.results[0]!.rounds) round.samples = round.samples.map(() => 1e308);
    computeStats(run);
    const row = benchView(run).cases[0]!.rows[0]!;
    expect(row.stats).toBeUndefined();
    expect(row.note).toBe('no statistics: its samples cannot be summarized (the largest is 1e+308, past what their squares hold)');
  });
});

describe('a file that is not this version\'s run', () => {
  const written = (json: unknown): string => {
    const file = join(mkdtempSync(join(tmpdir(), 'rtbench-planted-')), 'run.json');
    writeFileSync(file, JSON.stringify(json));
    return file;
  };

  it('is refused in one line saying what it is', () => {
    const run = requestRun(SAME);
    for (const [json, says] of [
      [[1, 2], 'is not an rtbench run (a JSON array)'],
      [null, 'is not an rtbench run (a JSON object)'],
      ['run', 'is not an rtbench run (a JSON string)'],
      [{ ...run, schema: 'other' }, 'is not an rtbench run (its "schema" is "other", expected "rtbench.run")'],
      [{ ...run, schemaVersion: 2 }, 'has schema version 2, from a newer rtbench; this one reads version 1'],
      [{ ...run, schemaVersion: '1' }, 'has no valid schema version ("1"); this rtbench reads version 1'],
      // Past this version only as a whole number: text, a fraction or a version before the first is no version.
      [{ ...run, schemaVersion: '2' }, 'has no valid schema version ("2"); this rtbench reads version 1'],
      [{ ...run, schemaVersion: 1.5 }, 'has no valid schema version (1.5); this rtbench reads version 1'],
      [{ ...run, schemaVersion: 0 }, 'has no valid schema version (0); this rtbench reads version 1'],
      [{ ...run, schemaVersion: undefined }, 'has no valid schema version (missing); this rtbench reads version 1'],
    ] as const) {
      const file = written(json);
      expect(() => loadSavedRun(file)).toThrow(new UsageError(`${file} ${says}`));
    }
  });
});

describe('a file too large to be a run', () => {
  it('is refused by its size in one line, unread (a sparse file: no disk used)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rtbench-large-')), 'run.json');
    const fd = openSync(file, 'w');
    ftruncateSync(fd, 1.2e9);
    closeSync(fd);
    expect(() => loadSavedRun(file)).toThrow(new UsageError(`${file} is 1200MB, more than the 256MiB rtbench reads of a file; not read`));
  });

  it('a file of the bound is read; a byte more is not', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'rtbench-large-')), 'run.json');
    writeFileSync(file, 'x'.repeat(1024));
    expect(readRegularFile(file, 1024)).toHaveLength(1024);
    expect(() => readRegularFile(file, 1023)).toThrow(new UsageError(`${file} is 1KiB, more than the 1023 bytes rtbench reads of a file; not read`));
  });
});

describe('a run an editor saved with a byte-order mark', () => {
  it('reads as the run it holds, compressed or not; a mark inside the JSON is still refused', () => {
    const run = syntheticRun({ cases: [{ id: 'c', ns: 1000 }], arms: [{ id: 'node', factor: 1 }], rounds: 2, samplesPerRound: 3 });
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-bom-'));
    const file = join(dir, 'run.json');
    writeFileSync(file, `\uFEFF${JSON.stringify(run)}`);
    expect(loadSavedRun(file).run.id).toBe(run.id);
    writeFileSync(`${file}.gz`, gzipSync(`\uFEFF${JSON.stringify(run)}`));
    expect(loadSavedRun(`${file}.gz`).run.id).toBe(run.id);
    // Only the first character is the mark an editor adds: one after a space is text JSON refuses.
    writeFileSync(file, ` \uFEFF${JSON.stringify(run)}`);
    expect(refusal(() => loadSavedRun(file))).toMatch(new RegExp(`^${file} is not valid JSON \\(truncated or corrupt\\?\\): `));
  });
});

describe('a round holding more samples than a saved round may', () => {
  it('is refused in one line naming the round, unread past its length', () => {
    const run = syntheticRun({ cases: [{ id: 'c', ns: 1000 }], arms: [{ id: 'node', factor: 1 }], rounds: 2, samplesPerRound: 3 });
    const file = join(mkdtempSync(join(tmpdir(), 'rtbench-samples-')), 'run.json');
    const round = run.results[0]!.rounds[1]!;
    round.samples = new Array<number>(MOST_ROUND_SAMPLES + 1).fill(1000);
    writeFileSync(file, JSON.stringify(run));
    expect(refusal(() => loadSavedRun(file))).toBe(`${file} is not a valid rtbench run: more than 1,000,000 samples in a round (the most a saved round holds) at results.0.rounds.1.samples`);
    // The samples' start times are held to the same bound.
    round.samples = [1000];
    round.sampleStartMs = new Array<number>(MOST_ROUND_SAMPLES + 1).fill(1);
    writeFileSync(file, JSON.stringify(run));
    expect(refusal(() => loadSavedRun(file))).toBe(`${file} is not a valid rtbench run: more than 1,000,000 samples in a round (the most a saved round holds) at results.0.rounds.1.sampleStartMs`);
  });
});
