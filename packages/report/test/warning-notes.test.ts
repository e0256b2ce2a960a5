/**
 * A warning the cases of a run give (a brought file's cases that return
 * nothing, each process saying what was proven without a value): one note
 * per warning and variants, naming the cases, not one note a case; "every
 * case" when it holds for all; a case that warns alone, or otherwise, or on
 * other variants keeps a note of its own.
 */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { benchView, reporterFor } from '../src/index.ts';

const NOTHING = 'returns nothing (undefined): the check that every runtime did the same work compares what can be proven without a value';

/** Cases a, b, c on node@26 and node@24, each with the warnings given per case, on the variants given (both by default). */
function run(warnings: Record<string, { message: string; variants?: string[] }[]>): RunRecord {
  const r = syntheticRun({ cases: ['a', 'b', 'c'].map((id) => ({ id, ns: 100 })), arms: [{ id: 'node@26', factor: 1 }, { id: 'node@24', factor: 1 }], rounds: 2 });
  for (const result of r.results) {
    for (const w of warnings[result.caseId] ?? []) {
      // Each round's process says it; the record keeps it once a case and variant, as the run loop does.
      if (!w.variants || w.variants.includes(result.variantId)) result.failures.push({ kind: 'warning', message: w.message, round: 0 });
    }
  }
  return r;
}

const warned = (r: RunRecord): string[] => benchView(r).notes.filter((n) => n.level === 'warning').map((n) => n.text);

describe('warnings the cases of a run give', () => {
  it('one that every case gives is said once, as every case, with the count and the variants', () => {
    const r = run({ a: [{ message: NOTHING }], b: [{ message: NOTHING }], c: [{ message: NOTHING }] });
    expect(warned(r)).toEqual([`every case (3 cases; node@26, node@24): ${NOTHING}`]);
    const out = reporterFor('terminal')!.render(benchView(r), { color: false, columns: 200 });
    expect(out.split('\n').filter((l) => l.includes('returns nothing'))).toEqual([`! every case (3 cases; node@26, node@24): ${NOTHING}`]);
  });

  it('one that some cases give names them; another warning, or other variants, is a note of its own', () => {
    const other = 'an instance of the runtime’s own class: compared by its class';
    const r = run({ a: [{ message: NOTHING }], b: [{ message: NOTHING }, { message: other }], c: [{ message: NOTHING, variants: ['node@24'] }] });
    expect(warned(r)).toEqual([`a; b (2 cases; node@26, node@24): ${NOTHING}`, `b (node@26, node@24): ${other}`, `c (node@24): ${NOTHING}`]);
  });

  it('one case alone is named as before', () => {
    expect(warned(run({ b: [{ message: NOTHING }] }))).toEqual([`b (node@26, node@24): ${NOTHING}`]);
  });
});
