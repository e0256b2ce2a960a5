/**
 * A history compares neighbouring runs from each arm's summary (a few numbers
 * a results store keeps), not from the arms' rounds: the comparison must be
 * the one compareArms makes of the whole arms, for any arms — costs of any
 * spread, rounds grouped into processes or not, a round of cost 0, one
 * process alone (no variance), different work.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { armSummary, compareArms, compareSummaries, type PairedCase, type UnpairedArm } from '../src/ratios.ts';

const cost = fc.oneof({ weight: 20, arbitrary: fc.double({ min: 1e-3, max: 1e9, noNaN: true, noDefaultInfinity: true }) }, { weight: 1, arbitrary: fc.constant(0) });

const arm: fc.Arbitrary<UnpairedArm> = fc
  .record({
    costs: fc.array(cost, { minLength: 1, maxLength: 24 }),
    grouped: fc.boolean(),
    processes: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 24, maxLength: 24 }),
    median: fc.double({ min: 1e-3, max: 1e9, noNaN: true }),
    digest: fc.constantFrom('aaaa', 'bbbb', undefined),
    withoutWork: fc.boolean(),
  })
  .map(({ costs, grouped, processes, median, digest, withoutWork }) => ({
    costs,
    ...(grouped ? { processes: processes.slice(0, costs.length) } : {}),
    median,
    work: { variantId: 'node', ...(digest ? { digest } : {}), ...(withoutWork ? { withoutWork: true as const } : {}) },
  }));

const options = fc.record({ threshold: fc.constantFrom(0, 0.01, 0.05), confidence: fc.constantFrom(0.9, 0.95, 0.99) });

/** What a history reads of a comparison: all but the log values a geomean reads. */
const shown = ({ logTimes: _logTimes, ...pair }: PairedCase): PairedCase => pair;

describe('a comparison of two arm summaries', () => {
  it('is the comparison of the whole arms, exactly', () => {
    fc.assert(
      fc.property(arm, arm, options, (a, b, o) => {
        expect(compareSummaries(armSummary(a), armSummary(b), o)).toEqual(shown(compareArms(a, b, o)));
      }),
      { numRuns: 200 },
    );
  });

  it('a round of cost 0 leaves no moments and no ratio; one process alone has no variance', () => {
    const zero = armSummary({ costs: [1, 0, 2], median: 1, work: { variantId: 'node' } });
    expect(zero.moments).toBeUndefined();
    expect(compareSummaries(zero, zero, { threshold: 0.01, confidence: 0.95 }).raw).toBeUndefined();
    const one = armSummary({ costs: [1, 2, 4], processes: [7, 7, 7], median: 2, work: { variantId: 'node' } });
    expect(one.moments).toMatchObject({ values: 3, units: 1, variance: NaN });
  });
});
