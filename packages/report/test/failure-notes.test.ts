/** A failure that several variants met alike is one note naming them, not one note per variant with the same message. */
import { describe, expect, it } from 'vitest';
import { runNotes } from '../src/index.ts';
import { syntheticRun } from '../../../test/compare-synthetic.ts';

describe('failure notes', () => {
  it('name together the variants that failed a case alike, and apart those whose message differs', () => {
    const run = syntheticRun({ cases: [{ id: 'throws', ns: 1000 }], arms: ['node', 'deno', 'bun', 'workerd'].map((id) => ({ id, factor: 1 })), rounds: 2 });
    for (const r of run.results) {
      const at = r.variantId === 'bun' ? '11:15' : '11:11';
      Object.assign(r, { status: 'failed', rounds: [], failures: [{ kind: 'error', phase: 'run', message: `TypeError: failed on purpose (at index.ts:${at})` }] });
    }
    const errors = runNotes(run).filter((n) => n.level === 'error').map((n) => n.text);
    expect(errors).toEqual(['node, deno, workerd · throws: error in run: TypeError: failed on purpose (at index.ts:11:11)', 'bun · throws: error in run: TypeError: failed on purpose (at index.ts:11:15)']);
  });
});
