/** Which unavailable variants refuse a whole command up front (plan/refused-variants.ts). */
import { describe, expect, it } from 'vitest';
import { pluginNamed, type ResolvedVariant, type UnavailableVariant } from '@rtbench/runtime-registry';
import { refusingVariants } from '../src/plan/refused-variants.ts';

const plugin = pluginNamed('node')!;
const spec = (id: string) => ({ id, runtimeSpec: id, flags: [], env: {} });
const here = (id: string) => ({ spec: spec(id), plugin, target: {}, flags: { args: [], env: {} }, record: {} }) as unknown as ResolvedVariant;
const missing = (id: string, kind: UnavailableVariant['kind'] = 'runtime-unavailable'): UnavailableVariant => ({ spec: spec(id), plugin, reason: 'not installed or cached', kind });
const ids = (vs: readonly UnavailableVariant[]) => vs.map((v) => v.spec.id);

describe('variants that refuse the whole command', () => {
  it('with installing forbidden: a missing runtime beside an installed one refuses it, nothing run', () => {
    expect(ids(refusingVariants([here('node'), missing('node@19.0.1')], { compare: false, installs: false }))).toEqual(['node@19.0.1']);
    // A flag the runtime refuses is not the install's doing: the table goes on without it.
    expect(refusingVariants([here('node'), missing('node --bad', 'flags')], { compare: false, installs: false })).toEqual([]);
  });

  it('with installing allowed, a table goes on without what cannot run here; a comparison or a table of none does not', () => {
    expect(refusingVariants([here('node'), missing('workerd')], { compare: false, installs: true })).toEqual([]);
    expect(ids(refusingVariants([here('node'), missing('workerd')], { compare: true, installs: true }))).toEqual(['workerd']);
    expect(ids(refusingVariants([missing('deno'), missing('bun', 'measurer')], { compare: false, installs: true }))).toEqual(['deno', 'bun']);
    expect(refusingVariants([here('node'), here('deno')], { compare: true, installs: false })).toEqual([]);
  });
});
