/**
 * A suite's claims as checks (checks.ts): a claim with no other side (a
 * request case's quantile below a limit) names the subject as its other
 * side on the same variant, never an A/A copy, and keeps its quantile.
 */
import { describe, expect, it } from 'vitest';
import { below, claim } from '@rtbench/core';
import { expandClaims } from '../src/checks.ts';

const CASE = 'relay [cpu=js thread]';

describe('checks of a claim against a limit', () => {
  it('a claim with no other side is checked against the subject itself, not a second process', () => {
    const spec = claim('The relay stays under the free plan', { case: 'relay', p99: below('10ms'), on: ['node'] });
    const [c] = expandClaims('requests', [spec], [{ id: CASE, params: { cpu: 'js thread' } }]);
    expect(c).toMatchObject({ subject: { caseId: CASE, variantId: 'node' }, other: { caseId: CASE, variantId: 'node' }, quantile: 'p99', expect: { kind: 'cpu-below', ms: 10 } });
  });

});
