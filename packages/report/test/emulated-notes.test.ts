/**
 * A run whose variant ran under an emulator (the arm64 builds under qemu): its saved run, loaded again as `report`
 * loads it, says under the table that this variant's times are the emulator's, and of no native variant.
 * The real emulated run: test/arm64-emulated.test.ts, whose bench prints the same note.
 */
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { runNotes } from '../src/index.ts';
import { syntheticRun } from '../../../test/compare-synthetic.ts';

describe('an emulated variant', () => {
  it('is named under the table of its saved run, with its emulator; a native one is not', () => {
    const emulated = 'node=/tmp/arm64/node';
    const run = syntheticRun({ cases: [{ id: 'sum', ns: 1000 }], arms: ['node', emulated].map((id) => ({ id, factor: 1 })), rounds: 1 });
    for (const r of run.results) for (const round of r.rounds) round.lockstep = { positions: [0], ...(r.variantId === emulated ? { emulator: 'qemu-aarch64-static' } : {}) };
    const saved = parseRun(JSON.parse(JSON.stringify(run)), 'emulated.json');
    const warnings = runNotes(saved).filter((n) => n.level === 'warning').map((n) => n.text);
    expect(warnings).toEqual([`${emulated} ran under qemu-aarch64-static: its times are the emulator's, so its figures and ratios show behaviour only`]);
  });
});
