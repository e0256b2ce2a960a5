/**
 * A claim reads the quantity the table prints: a case whose samples stayed
 * bimodal by collection at their cap is read by its processes' means (stats
 * amortized.ts), in a claim between two cases on one variant as in a claim
 * between two variants, so a claim and the figure beside it agree.
 */
import { describe, expect, it } from 'vitest';
import { slower } from '@rtbench/core';
import type { RunRecord } from '@rtbench/core/schema';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { checkClaims, type ClaimCheck } from '../src/claims.ts';

const FAMILY = { confidence: 0.95, size: 1, threshold: 0.01 };

/** `alloc` (1 µs) and `pure` (50 ns) on one variant; alloc's samples capped with every third one doubled by a collection. */
function run(): RunRecord {
  const r = syntheticRun({ cases: [{ id: 'alloc', ns: 1000 }, { id: 'pure', ns: 50 }], arms: [{ id: 'node@26', factor: 1 }, { id: 'node@24', factor: 1 }], rounds: 6, sigma: 0.01 });
  for (const result of r.results) {
    for (const round of result.rounds) {
      if (result.caseId === 'pure') {
        round.span = { quietCallNs: round.samples[0]!, grownBy: 1 };
        continue;
      }
      round.samples = round.samples.map((x, i) => (i % 3 === 0 ? 2 * x : x));
      round.span = { quietCallNs: Math.min(...round.samples), grownBy: 8, capped: true };
    }
  }
  return r;
}

const check = (o: Pick<ClaimCheck, 'subject' | 'other'>): ClaimCheck => ({ says: 'alloc is dearer', suite: 's', measure: 'time', expect: slower(2), ...o });

describe('a claim on a case read by its means', () => {
  it('two cases on one variant: the capped case is read by its means, as its figure is', () => {
    const [o] = checkClaims(run(), [check({ subject: { caseId: 'alloc', variantId: 'node@26' }, other: { caseId: 'pure', variantId: 'node@26' } })], FAMILY);
    // Medians would read 20×; the means of samples a third of which are doubled read 20 × 4/3.
    expect(o!.ratio!).toBeGreaterThan(25);
    expect(o!.ratio!).toBeLessThan(28.5);
    expect(o!.word).toBe('held');
  });

  it('the same case on two variants reads means on both sides, and its ratio stays near 1', () => {
    const [o] = checkClaims(run(), [{ ...check({ subject: { caseId: 'alloc', variantId: 'node@24' }, other: { caseId: 'alloc', variantId: 'node@26' } }), expect: slower(1.5) }], FAMILY);
    expect(o!.ratio!).toBeGreaterThan(0.9);
    expect(o!.ratio!).toBeLessThan(1.1);
    expect(o!.word).toBe('broken');
  });
});
