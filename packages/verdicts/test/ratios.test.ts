/**
 * The ratio behind every relative column, comparison and gate (views/ratios.ts):
 * different work is flagged in paired and unpaired comparisons alike and kept
 * out of the geomean, the reason a case is not compared is said, the table's
 * FDR level follows --confidence, and throughputs compare as costs.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { CaseResult, MaskedAnswer, Metric } from '@rtbench/core/schema';
import { AnswerLearner } from '@rtbench/core/same-work';
import { requestsOf } from '@rtbench/measurer-records';
import { syntheticRun, type SyntheticArm } from '../../../test/compare-synthetic.ts';
import { adjustAll, geomeanOf, pairedCase, ratioHalfWidth, roundMedians, unpairedArm, unpairedCase, type PairedCase } from '../src/ratios.ts';

const OPTIONS = { threshold: 0.01, confidence: 0.95 };
const label = (r: CaseResult): string => r.variantId;

/** The results of one case on two arms: [baseline, candidate]. */
function results(candidate: Omit<SyntheticArm, 'id'>, o: { rounds?: number; sigma?: number; seed?: number; cases?: number } = {}): [CaseResult, CaseResult][] {
  const cases = Array.from({ length: o.cases ?? 1 }, (_, i) => ({ id: `c${i}`, ns: 1000 * (i + 1) }));
  const run = syntheticRun({ cases, arms: [{ id: 'node', factor: 1 }, { id: 'node@24', ...candidate }], rounds: o.rounds ?? 6, sigma: o.sigma ?? 0.02, seed: o.seed ?? 1 });
  return cases.map((c) => [run.results.find((r) => r.caseId === c.id && r.variantId === 'node')!, run.results.find((r) => r.caseId === c.id && r.variantId === 'node@24')!]);
}

/** The results of the first case: [baseline, candidate]. */
function onePair(candidate: Omit<SyntheticArm, 'id'>, o: { rounds?: number; sigma?: number } = {}): [CaseResult, CaseResult] {
  return results(candidate, o)[0]!;
}

describe('different work is flagged, paired or not', () => {
  it('the digests of both arms are given when they differ, and only then', () => {
    const [b, c] = onePair({ factor: 1.1, overrides: { c0: { digest: 'fedcba9876543210' } } });
    for (const pair of [pairedCase(b, c, OPTIONS, label), unpairedCase(b, c, OPTIONS, label)]) {
      expect(pair.digests).toEqual({ baseline: '0123456789abcdef', candidate: 'fedcba9876543210' });
      expect(pair.raw).toBeDefined();
    }
    const [b2, c2] = onePair({ factor: 1.1 });
    expect(pairedCase(b2, c2, OPTIONS, label).digests).toBeUndefined();
    expect(unpairedCase(b2, c2, OPTIONS, label).digests).toBeUndefined();
  });

  it('request answers that differ only in their changing spans are the same work; a planted section is not, and says where', () => {
    const learned = (pages: string[]): MaskedAnswer[] => {
      const learner = new AnswerLearner((text) => `h${text.length}:${text}`);
      for (const text of pages) learner.add({ request: 'GET /', status: 200, text, bytes: text.length });
      return learner.answers();
    };
    const page = (t: string, extra = ''): string => `<p>at ${t}</p>\n${extra}<p>end</p>`;
    const [b, c] = onePair({ factor: 1.1, overrides: { c0: { digest: 'fedcba9876543210' } } });
    b.rounds[0]!.requests = { outcomes: { ok: 2, serverError: 0, threw: 0, notAResponse: 0, timedOut: 0 }, jsThread: { tid: 1, name: 'main', main: true }, threads: 1, unsettled: 0, answers: learned([page('10:00:01'), page('10:00:02')]) };
    c.rounds[0]!.requests = { ...requestsOf(b.rounds[0]!), answers: learned([page('11:00:01'), page('11:00:01')]) };
    expect(pairedCase(b, c, OPTIONS, label).digests).toBeUndefined();
    c.rounds[0]!.requests = { ...requestsOf(b.rounds[0]!), answers: learned([page('11:00:01', '<hr>\n'), page('11:00:03', '<hr>\n')]) };
    const differs = pairedCase(b, c, OPTIONS, label).digests!;
    expect(differs.where).toMatchObject({ line: 2, variants: { node: { text: '<p>end</p>' }, 'node@24': { text: '<hr>' } } });
  });

  it('the geomean leaves out the cases that did different work, and says how many', () => {
    const pairs = results({ factor: 1.2, overrides: { c2: { digest: 'different' } } }, { cases: 4 }).map(([b, c]) => pairedCase(b, c, OPTIONS, label));
    const g = geomeanOf(pairs, OPTIONS, 'paired')!;
    expect(g.cases).toBe(3);
    expect(g.excluded).toBe(1);
    expect(g.ratio).toBeGreaterThan(1.1);
    expect(g.ci[0]).toBeLessThanOrEqual(g.ratio);
    expect(g.ratio).toBeLessThanOrEqual(g.ci[1]);
    const unpaired = results({ factor: 1.2 }, { cases: 3 }).map(([b, c]) => unpairedCase(b, c, OPTIONS, label));
    expect(geomeanOf(unpaired, OPTIONS, 'unpaired')).toMatchObject({ cases: 3, excluded: 0 });
    // Fewer than two comparable cases: no geomean.
    expect(geomeanOf(pairs.slice(0, 1), OPTIONS, 'paired')).toBeUndefined();
  });
});

describe('an arm without work', () => {
  const workless = (r: CaseResult): CaseResult => ({ ...r, withoutWork: { returnsUndefined: true } });

  it('marks the pair, whichever arm it is, paired or not, and a pair of two working arms is not marked', () => {
    const [b, c] = onePair({ factor: 1.2 });
    for (const make of [pairedCase, unpairedCase]) {
      expect(make(workless(b), c, OPTIONS, label).withoutWork).toBe(true);
      expect(make(b, workless(c), OPTIONS, label).withoutWork).toBe(true);
      expect(make(workless(b), workless(c), OPTIONS, label).withoutWork).toBe(true);
      expect(make(b, c, OPTIONS, label).withoutWork).toBeUndefined();
      // The ratio is still formed: it is shown, with its interval.
      expect(make(workless(b), c, OPTIONS, label).raw).toBeDefined();
    }
  });

  it('is left out of the geomean and counted apart from different work; a case not compared counts as neither', () => {
    const pairs = results({ factor: 1.2 }, { cases: 6 }).map(([b, c], i): PairedCase => {
      if (i === 0) return pairedCase(workless(b), c, OPTIONS, label);
      if (i === 1) return pairedCase(b, { ...c, rounds: c.rounds.map((r) => ({ ...r, digest: { ...r.digest, hash: 'other' } })) }, OPTIONS, label);
      // Without work and different work: counted once, as different work.
      if (i === 2) return pairedCase(workless(b), { ...c, rounds: c.rounds.map((r) => ({ ...r, digest: { ...r.digest, hash: 'other' } })) }, OPTIONS, label);
      if (i === 3) return pairedCase(workless(b), undefined, OPTIONS, label);
      return pairedCase(b, c, OPTIONS, label);
    });
    expect(geomeanOf(pairs, OPTIONS, 'paired')).toMatchObject({ cases: 2, excluded: 2, withoutWork: 1 });
  });
});

describe('why a case is not compared', () => {
  it('an unsupported arm without a failure saved still says so', () => {
    const [b, c] = onePair({ factor: 1 });
    expect(pairedCase(b, { ...c, status: 'unsupported', rounds: [], failures: [] }, OPTIONS, label).note).toBe('unsupported on node@24: ');
    expect(roundMedians(undefined).size).toBe(0);
  });

  it('an arm whose request rounds were all cut short after their first request still has a median, paired or not: its rounds\' own', () => {
    const [b] = onePair({ factor: 1 });
    const cut: CaseResult = {
      ...b,
      rounds: b.rounds.map((r, i) => ({ ...r, samples: [1 + i], requests: { ...(r as { requests?: object }).requests, phases: { steadyFrom: 1 } } }) as typeof r),
    };
    expect(roundMedians(cut).size).toBe(0);
    const arm = unpairedArm(cut);
    expect(arm.median).toBe(3.5);
    expect(arm.costs).toHaveLength(b.rounds.length);
    // The same arm in a run's own table: paired with itself, its median is read the same way.
    expect(pairedCase(cut, cut, OPTIONS, label).baseline).toEqual({ median: 3.5, rounds: 0 });
  });

  it('a digest that one arm lacks is no sign of different work', () => {
    const [b, c] = onePair({ factor: 1 });
    const unhashed: CaseResult = { ...c, rounds: c.rounds.map((r) => ({ ...r, digest: { ...r.digest, hash: '' } })) };
    expect(pairedCase(b, unhashed, OPTIONS, label).digests).toBeUndefined();
    expect(unpairedCase(unhashed, b, OPTIONS, label).digests).toBeUndefined();
  });

  it('names the arm and the reason: not measured, unsupported, no rounds (with the last failure), no common round', () => {
    const [b, c] = onePair({ factor: 1 });
    expect(pairedCase(b, undefined, OPTIONS, label).note).toBe('not measured');
    const unsupported: CaseResult = { ...c, status: 'unsupported', rounds: [], failures: [{ kind: 'unsupported', message: 'no Intl' }] };
    expect(pairedCase(b, unsupported, OPTIONS, label).note).toBe('unsupported on node@24: no Intl');
    // Without a label (a bench table, a comparison of one run), the arm is named by its variant id.
    expect(pairedCase(b, unsupported, OPTIONS).note).toBe('unsupported on node@24: no Intl');
    const crashed: CaseResult = { ...c, status: 'failed', rounds: [], failures: [{ kind: 'error', message: 'first' }, { kind: 'crash', message: 'segfault\nat frame 0' }] };
    expect(unpairedCase(b, crashed, OPTIONS, label).note).toBe('no rounds on node@24 (crash: segfault)');
    expect(pairedCase(b, { ...c, rounds: [], failures: [] }, OPTIONS, label).note).toBe('no rounds on node@24');
    const shifted: CaseResult = { ...c, rounds: c.rounds.map((r) => ({ ...r, round: r.round + 100 })) };
    const none = pairedCase(b, shifted, OPTIONS, label);
    expect(none.note).toBe('no round in which both arms finished');
    expect(none.raw).toBeUndefined();
    expect(none.baseline).toMatchObject({ rounds: 6 });
  });

  it('counts failed rounds (not unsupported, warnings or digest mismatches) beside the pairs compared', () => {
    const [b, c] = onePair({ factor: 1 });
    const lossy: CaseResult = { ...c, failures: [{ kind: 'timeout', message: 't' }, { kind: 'warning', message: 'w' }, { kind: 'digest-mismatch', message: 'd' }] };
    expect(pairedCase(b, lossy, OPTIONS, label).note).toBe('1 failed round; compared 6 pairs');
    const lossier: CaseResult = { ...c, failures: [{ kind: 'timeout', message: 't' }, { kind: 'crash', message: 'c' }, { kind: 'unsupported', message: 'u' }] };
    expect(pairedCase(b, lossier, OPTIONS, label).note).toBe('2 failed rounds; compared 6 pairs');
    expect(pairedCase(b, c, OPTIONS, label).note).toBeUndefined();
  });

  it('a round median of 0 ns gives no ratio', () => {
    const [b, c] = onePair({ factor: 1 });
    const zero: CaseResult = { ...c, rounds: c.rounds.map((r, i) => (i === 2 ? { ...r, samples: r.samples.map(() => 0) } : r)) };
    for (const pair of [pairedCase(b, zero, OPTIONS, label), unpairedCase(zero, b, OPTIONS, label)]) {
      expect(pair.note).toMatch(/round median is 0 ns/);
      expect(pair.raw).toBeUndefined();
    }
  });
});

describe('the ratio itself', () => {
  it('is the candidate cost over the baseline cost; a throughput (higher is better) compares as time per request', () => {
    const [b, c] = onePair({ factor: 1.5 }, { sigma: 0.005 });
    const timed = pairedCase(b, c, OPTIONS, label).raw!;
    expect(timed.ratio).toBeCloseTo(1.5, 1);
    const throughput: Metric = { name: 'requests', unit: 'req/s', direction: 'higher-is-better' };
    expect(pairedCase(b, c, OPTIONS, label, throughput).raw!.ratio).toBeCloseTo(1 / 1.5, 1);
    expect(unpairedCase(b, c, OPTIONS, label, throughput).raw!.ratio).toBeCloseTo(1 / 1.5, 1);
  });

  it('unpaired: rounds from one warm process are one unit of that arm', () => {
    const [b, c] = onePair({ factor: 1.1 }, { rounds: 6 });
    const warm = (r: CaseResult): CaseResult => ({ ...r, rounds: r.rounds.map((x, i) => ({ ...x, lockstep: { process: i % 3, positions: x.samples.map((_, k) => k) } })) });
    const pair = unpairedCase(warm(b), warm(c), OPTIONS, label);
    expect(pair.raw!.units).toBe(3);
    expect(pair.logTimes!.baseline.units).toEqual([0, 1, 2, 0, 1, 2]);
    expect(unpairedCase(b, c, OPTIONS, label).raw!.units).toBe(6);
    // Either arm's processes bound the units (the smaller run), and each arm keeps its own for the geomean.
    expect(unpairedCase(warm(b), c, OPTIONS, label).raw!.units).toBe(3);
    const candidateWarm = unpairedCase(b, warm(c), OPTIONS, label);
    expect(candidateWarm.raw!.units).toBe(3);
    expect(candidateWarm.logTimes!.candidate.units).toEqual([0, 1, 2, 0, 1, 2]);
    expect(candidateWarm.baseline).toMatchObject({ rounds: 6 });
    expect(candidateWarm.baseline!.median).toBeGreaterThan(0);
  });

  it("the geomean's interval is read at the table's confidence, paired and unpaired", () => {
    const cases = results({ factor: 1.2 }, { cases: 3, sigma: 0.05 });
    for (const [make, pairing] of [[pairedCase, 'paired'], [unpairedCase, 'unpaired']] as const) {
      const width = (confidence: number): number => {
        const g = geomeanOf(cases.map(([b, c]) => make(b, c, { ...OPTIONS, confidence }, label)), { ...OPTIONS, confidence }, pairing)!;
        return g.ci[1] / g.ci[0];
      };
      expect(width(0.5)).toBeLessThan(width(0.99));
    }
  });

  it("the half-width a stopping rule reads is the interval's wider side", () => {
    fc.assert(
      fc.property(fc.double({ min: 0.5, max: 2, noNaN: true }), fc.double({ min: 0, max: 0.3, noNaN: true }), fc.double({ min: 0, max: 0.3, noNaN: true }), (ratio, down, up) => {
        const h = ratioHalfWidth({ ratio, ci: [ratio * (1 - down), ratio * (1 + up)] });
        expect(h).toBeCloseTo(Math.max(down, up), 9);
      }),
    );
  });
});

describe("the table's level follows --confidence", () => {
  it('every interval is read at 1 − R·α/m with α = 1 − confidence, R of m selected', () => {
    const pairs: PairedCase[] = results({ factor: 1.3 }, { cases: 3, sigma: 0.01 }).map(([b, c]) => pairedCase(b, c, OPTIONS, label));
    pairs.push({ note: 'not measured' });
    for (const confidence of [0.9, 0.99]) {
      const adjusted = adjustAll(pairs, { ...OPTIONS, confidence });
      expect(adjusted[3]).toBeUndefined();
      // All three cells are 30% apart at 1% noise: all selected, so 1 − 3α/3.
      for (const a of adjusted.slice(0, 3)) expect(a!.confidence).toBeCloseTo(confidence, 12);
    }
    const none = adjustAll(
      results({ factor: 1 }, { cases: 2, sigma: 0.05 }).map(([b, c]) => pairedCase(b, c, OPTIONS, label)),
      { ...OPTIONS, confidence: 0.9 },
    );
    // None selected: read at the first step's 1 − α/m.
    expect(none[0]!.confidence).toBeCloseTo(1 - 0.1 / 2, 12);
  });
});

describe('rounds that cannot be read', () => {
  it('a 0 ns round median in either arm gives no ratio, paired or unpaired', () => {
    const [b, c] = onePair({ factor: 1 });
    const zeroed = (r: CaseResult): CaseResult => ({ ...r, rounds: r.rounds.map((x, i) => (i === 1 ? { ...x, samples: x.samples.map(() => 0) } : x)) });
    for (const [x, y] of [[zeroed(b), c], [b, zeroed(c)]] as const) {
      for (const pair of [pairedCase(x, y, OPTIONS, label), unpairedCase(x, y, OPTIONS, label)]) {
        expect(pair.note).toMatch(/round median is 0 ns/);
        expect(pair.raw).toBeUndefined();
      }
    }
  });

  it('a round without samples is left out of the medians, the counts and the pairs', () => {
    const [b, c] = onePair({ factor: 1.2 }, { rounds: 7 });
    const emptied: CaseResult = { ...c, rounds: c.rounds.map((x, i) => (i === 3 ? { ...x, samples: [] } : x)) };
    const paired = pairedCase(b, emptied, OPTIONS, label);
    expect(paired.candidate!.rounds).toBe(6);
    expect(paired.raw!.n).toBe(6);
    const unpaired = unpairedCase(b, emptied, OPTIONS, label);
    expect(unpaired.candidate!.rounds).toBe(6);
    expect(unpaired.raw!.nCandidate).toBe(6);
    expect(unpaired.raw!.nBaseline).toBe(7);
  });
});

describe('the unit of a paired interval', () => {
  it('rounds served by the same two warm processes are one unit; fresh processes make each round its own', () => {
    const [b, c] = onePair({ factor: 1.1 }, { rounds: 6 });
    const warm = (r: CaseResult): CaseResult => ({ ...r, rounds: r.rounds.map((x, i) => ({ ...x, lockstep: { process: i % 3, positions: x.samples.map((_, k) => k) } })) });
    const pair = pairedCase(warm(b), warm(c), OPTIONS, label);
    expect(pair.raw!.units).toBe(3);
    expect(pair.logRatios!.units).toEqual(['0/0', '1/1', '2/2', '0/0', '1/1', '2/2']);
    const fresh = pairedCase(b, c, OPTIONS, label);
    expect(fresh.raw!.units).toBe(6);
    // Fresh rounds of one index share the processes of a set across cases: one unit of the geomean.
    expect(fresh.logRatios!.units).toEqual([0, 1, 2, 3, 4, 5].map((r) => `round ${r}`));
  });
});

describe('the geomean', () => {
  it('lies between the smallest and the largest case ratio, from two comparable cases on, paired or unpaired', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.5, max: 2, noNaN: true }), fc.double({ min: 0.5, max: 2, noNaN: true }), fc.integer({ min: 1, max: 1000 }), (f0, f1, seed) => {
        const arms = results({ factor: 1, overrides: { c0: { factor: f0 }, c1: { factor: f1 } } }, { cases: 2, seed, sigma: 0.01 });
        for (const pairing of ['paired', 'unpaired'] as const) {
          const cases = arms.map(([b, c]) => (pairing === 'paired' ? pairedCase(b, c, OPTIONS, label) : unpairedCase(b, c, OPTIONS, label)));
          const ratios = cases.map((p) => p.raw!.ratio);
          const g = geomeanOf(cases, OPTIONS, pairing)!;
          expect(g).toMatchObject({ cases: 2, excluded: 0 });
          expect(g.ratio).toBeGreaterThanOrEqual(Math.min(...ratios) * (1 - 1e-12));
          expect(g.ratio).toBeLessThanOrEqual(Math.max(...ratios) * (1 + 1e-12));
          expect(g.ci[0]).toBeLessThanOrEqual(g.ratio);
          expect(g.ratio).toBeLessThanOrEqual(g.ci[1]);
          // Six rounds per case. Paired: a round index is one unit across cases (a set's processes serve every case);
          // unpaired, rounds without process labels are each a process of their own: twelve per run.
          expect(g.units).toBe(pairing === 'paired' ? 6 : 12);
        }
      }),
      { numRuns: 20 },
    );
  });
});
