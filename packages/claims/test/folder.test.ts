/** A claims invocation's folder: results/claims/<slug> as the other campaigns' are, or the one given. */
import { describe, expect, it } from 'vitest';
import { claimsFolder } from '../src/folder.ts';

describe('the claims folder', () => {
  it('is results/claims/<suites, columns and time> by slug, as a bisect\'s or a matrix\'s is', () => {
    const columns = [{ label: '' }, { label: 'node@20' }, { label: 'node@26 --jitless' }];
    expect(claimsFolder('/p/results', ['json-reviver', 'trig'], columns, '20261126-041500Z')).toBe('/p/results/claims/json-reviver-trig-node@20-node@26_--jitless-20261126-041500Z');
    // One invocation without --across: the suites and the time.
    expect(claimsFolder('/p/results', ['json-reviver'], [{ label: '' }], '20261126-041500Z')).toBe('/p/results/claims/json-reviver-20261126-041500Z');
  });

  it('is the folder given with --save', () => {
    expect(claimsFolder('/p/results', ['json-reviver'], [], '20261126-041500Z', '/tmp/mine')).toBe('/tmp/mine');
  });
});
