/** A measurer refuses a variant whose runtime or engine lacks what it needs; the run keeps it as unsupported, not failed. */
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { V8_ENGINE } from '@rtbench/runtime-kit';
import type { ResolvedVariant } from '@rtbench/runtime-registry';
import { INSTRUCTIONS } from '../src/measurers/instructions.ts';
import { LOCKSTEP } from '../src/measurers/lockstep.ts';
import { addResults } from '../../saved-runs/src/record.ts';

/** Just what a measurer reads of a resolved variant to decide: its plug-in's names and engine. */
const variantOn = (engine: ResolvedVariant['plugin']['engine']): ResolvedVariant => ({ plugin: { displayName: 'Uncounted', engine } }) as unknown as ResolvedVariant;

describe('a measurer that cannot measure a variant', () => {
  it('instruction counts refuse an engine that declares no way to be counted, naming the engine and the runtime', () => {
    const { counting: _none, ...uncountable } = { ...V8_ENGINE, displayName: 'NoCount engine' };
    expect(INSTRUCTIONS.refuses!(variantOn(uncountable))).toBe('NoCount engine declares no way to make its work repeatable under valgrind, so Uncounted cannot be counted (--measure instructions)');
    expect(INSTRUCTIONS.refuses!(variantOn(V8_ENGINE))).toBeUndefined();
    // Timing asks nothing of an engine.
    expect(LOCKSTEP.refuses?.(variantOn(uncountable))).toBeUndefined();
  });

  it('leaves the variant in the run as unsupported, with the reason, where a missing runtime is a failure', () => {
    const run = { results: [] } as unknown as RunRecord;
    addResults(run, [{ id: 'c' }], [
      { id: 'counted' },
      { id: 'uncounted', unavailable: { kind: 'unsupported', message: 'cannot be counted' } },
      { id: 'missing', unavailable: { kind: 'runtime-unavailable', message: 'not installed' } },
    ]);
    expect(run.results.map((r) => [r.variantId, r.status, r.failures.map((f) => f.kind)])).toEqual([
      ['counted', 'ok', []],
      ['uncounted', 'unsupported', ['unsupported']],
      ['missing', 'failed', ['runtime-unavailable']],
    ]);
  });
});
