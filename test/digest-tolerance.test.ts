/**
 * Floating-point results that differ in their last bits between engines are
 * the same work within a stated tolerance: the run is not failed, the ratios
 * are shown, and the table says the tolerance was used. Anything else that
 * differs is still different work.
 */
import { describe, expect, it } from 'vitest';
import { digest } from '@rtbench/core';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { benchView, reporterFor } from '@rtbench/report';
import { finishRun } from '../packages/saved-runs/src/record.ts';
import { syntheticRun } from './compare-synthetic.ts';

/** A two-arm table whose 'sin' case returned `a` on node and `b` on bun. */
function runWith(a: unknown, b: unknown): RunRecord {
  const r = syntheticRun({ mode: 'bench', cases: [{ id: 'sin', ns: 1000 }], arms: [{ id: 'node', factor: 1 }, { id: 'bun', factor: 2 }], rounds: 6, sigma: 0.01 });
  for (const result of r.results) {
    const value = result.variantId === 'node' ? a : b;
    for (const round of result.rounds) round.digest = digest(value);
  }
  finishRun(r, false);
  return parseRun(JSON.parse(JSON.stringify(r)), 'synthetic');
}

describe('digests compared with a tolerance', () => {
  it('last-bit differences: same work, said so under the table, ratios kept', () => {
    const r = runWith([Math.sin(1), 0.25], [0.8414709848078966, 0.25]);
    expect(r.digestMismatches).toEqual([]);
    expect(r.digestsRounded).toEqual([{ caseId: 'sin', digits: 10, digests: { node: digest([Math.sin(1), 0.25]).hash, bun: digest([0.8414709848078966, 0.25]).hash } }]);
    expect(r.status).toBe('complete');
    const view = benchView(r);
    expect(view.cases[0]!.rows.find((x) => x.variantId === 'bun')!.relative!.ratio).toBeGreaterThan(1.5);
    const text = reporterFor('terminal')!.render(view, { color: false });
    expect(text).toContain('agree to 10 significant digits, not bit for bit');
  });

  it('a difference beyond the tolerance, or in anything but a fraction, is different work', () => {
    for (const [a, b] of [
      [[0.84147098], [0.84147099]],
      [[0.5, 1], [0.5, 2]],
      ['abc', 'abd'],
    ] as const) {
      const r = runWith(a, b);
      expect(r.digestMismatches.map((m) => m.caseId)).toEqual(['sin']);
      expect(r.digestsRounded ?? []).toEqual([]);
      expect(r.status).toBe('failed');
    }
  });
});
