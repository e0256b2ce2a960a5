/**
 * Claims of a request case's quantile (claims.ts with `quantile`): per
 * process its quantile of its warm requests, so a claim about the tail is
 * decided by the tail and its units are processes; `p99: below('10ms')` holds
 * when the whole interval of the quantile lies under it.
 */
import { describe, expect, it } from 'vitest';
import { below, claim, faster } from '@rtbench/core';
import { syntheticRequestRun } from '../../../test/request-synthetic.ts';
import { claimedText, claimFigure, claimSides } from '../../report/src/cells/claims.ts';
import { checkClaims, type ClaimCheck } from '../src/claims.ts';

const CASE = 'relay [cpu=js thread]';
const FAMILY = { confidence: 0.95, size: 1, threshold: 0.01 };
// Arm b's planted tail (every 50th request) costs twice arm a's: p99 about 13 ms against 7, the median the same.
const run = syntheticRequestRun({ arms: [{ id: 'a', factor: 1 }, { id: 'b', factor: 1, tailFactor: 2 }], rounds: 8, seed: 3 });

function check(o: Partial<ClaimCheck> & Pick<ClaimCheck, 'expect'>): ClaimCheck {
  return { says: 'a claim', suite: 'requests', subject: { caseId: CASE, variantId: 'a' }, other: { caseId: CASE, variantId: 'b' }, measure: 'time', ...o };
}

describe('claims of quantiles of CPU per request', () => {
  it('a tail twice as dear: held at p99, while the same claim of the median breaks', () => {
    const [p99, median] = checkClaims(run, [check({ expect: faster(1.4), quantile: 'p99' }), check({ expect: faster(1.4) })], FAMILY);
    expect(p99).toMatchObject({ word: 'held', quantile: 'p99', units: 8 });
    expect(p99!.ratio!).toBeLessThan(0.7);
    expect(median!.word).toBe('broken');
  });

  it('below a limit: held when the interval of the quantile lies under it, broken when wholly over', () => {
    const self = (variantId: string): Pick<ClaimCheck, 'subject' | 'other'> => ({ subject: { caseId: CASE, variantId }, other: { caseId: CASE, variantId } });
    const [a, b, b50] = checkClaims(
      run,
      [check({ ...self('a'), expect: below('10ms'), quantile: 'p99' }), check({ ...self('b'), expect: below('10ms'), quantile: 'p99' }), check({ ...self('b'), expect: below('10ms'), quantile: 'p50' })],
      FAMILY,
    );
    expect(a).toMatchObject({ word: 'held', units: 8 });
    expect(b).toMatchObject({ word: 'broken', units: 8 });
    expect(b50!.word).toBe('held');
    // The figure is the quantile in ms with its interval, the claim says which quantile.
    expect(claimFigure(b!)).toMatch(/^1\d\.\d ms \[1\d\.\d–1\d\.\d\]$/);
    expect(claimedText(b!)).toBe('p99 below 10 ms of CPU');
    expect(claimSides(b!)).toBe('b');
  });

  it('a quantile of a case that served no requests is undecided and says why', () => {
    const plain = { ...run, results: run.results.map((r) => ({ ...r, rounds: r.rounds.map(({ requests: _r, ...x }) => x) })) };
    const [o] = checkClaims(plain, [check({ expect: faster(1.4), quantile: 'p99' })], FAMILY);
    expect(o).toMatchObject({ word: 'undecided', units: 0 });
    expect(o!.note).toMatch(/not a request case/);
  });

  it('a limit with another side, as `is`, two quantiles at once, a limit of 0 and an unknown quantile are refused', () => {
    const limit = below('10ms');
    expect(() => claim('x', { case: 'relay', p99: limit, than: 'empty' } as never)).toThrow(/p99 takes a CPU time alone/);
    expect(() => claim('x', { case: 'relay', than: 'empty', is: limit })).toThrow(/below\(\) is an absolute bound/);
    expect(() => claim('x', { case: 'relay', p50: limit, p99: limit })).toThrow(/one quantile a claim/);
    expect(() => claim('x', { case: 'relay', p99: below('64MB') as never })).toThrow(/p99 takes a CPU time alone/);
    expect(() => below('0ms')).toThrow(/CPU time above 0/);
    expect(() => claim('x', { case: 'relay', than: 'empty', quantile: 'p95' as 'p99', is: faster(2) })).toThrow(/quantile is one of p50, p90, p99/);
    expect(below('500us')).toEqual({ kind: 'cpu-below', ms: 0.5 });
    expect(claim('x', { case: 'relay', p99: limit })).toMatchObject({ is: { kind: 'cpu-below', ms: 10 }, quantile: 'p99', measure: 'time' });
  });
});
