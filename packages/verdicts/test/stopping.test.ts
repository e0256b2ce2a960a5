import { describe, expect, it } from 'vitest';
import { comparePaired, createRandom } from '@rtbench/stats';
import { adjustAll, lookAtTable, unitsToNextWord, type CellState } from '../src/index.ts';

/** n pairs with log-ratio mean ln(ratio) and noise sd `sd` (seeded). */
function cell(seed: number, n: number, ratio: number, sd: number) {
  const random = createRandom(seed);
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const b = Array.from({ length: n }, () => 100);
  return comparePaired(b, b.map((x) => x * ratio * Math.exp(sd * normal())));
}

describe('lookAtTable', () => {
  it('a clear effect and a clear equivalence are decided; a small unclear one is open while its units fit, out of reach when they do not', () => {
    const cells = [cell(1, 8, 1.6, 0.01), cell(2, 30, 1, 0.002), cell(3, 6, 1.03, 0.03), undefined];
    const wide = lookAtTable(cells, { confidence: 0.95, reachableUnits: 200 });
    expect(wide[0]!.state).toBe('decided');
    expect(wide[1]!.state).toBe('decided');
    expect(wide[3]!.state).toBe('decided');
    const open = wide[2]! as Extract<CellState, { state: 'open' }>;
    expect(open.state).toBe('open');
    expect(open.units).toBe(6);
    expect(open.unitsToDecide).toBeGreaterThan(6);
    expect(open.unitsToDecide).toBeLessThanOrEqual(200);
    const tight = lookAtTable(cells, { confidence: 0.95, reachableUnits: open.unitsToDecide! - 1 });
    expect(tight[2]).toEqual({ ...open, state: 'out-of-reach' });
    expect(lookAtTable(cells, { confidence: 0.95, reachableUnits: open.unitsToDecide! })[2]!.state).toBe('open');
  });

  it('decides exactly the cells the report words: the same e-BH reading', () => {
    const cells = Array.from({ length: 12 }, (_, i) => cell(10 + i, 7, [1, 1.02, 1.1, 1.5][i % 4]!, 0.02));
    const states = lookAtTable(cells, { confidence: 0.95, reachableUnits: 7 });
    const printed = adjustAll(cells.map((raw) => ({ raw })), { threshold: 0.01, confidence: 0.95, design: 'anytime' });
    printed.forEach((p, i) => expect(states[i]!.state === 'decided').toBe(p!.verdict !== 'inconclusive'));
    expect(states.some((s) => s.state === 'decided')).toBe(true);
    expect(states.some((s) => s.state !== 'decided')).toBe(true);
  });

  it('keeps a cell with too few units for an interval open while more fit', () => {
    const few = comparePaired([100, 100], [110, 111]);
    expect(lookAtTable([few], { confidence: 0.95, reachableUnits: 30 })[0]).toMatchObject({ state: 'open', units: 2 });
    expect(lookAtTable([few], { confidence: 0.95, reachableUnits: 2 })[0]).toMatchObject({ state: 'out-of-reach', units: 2 });
  });
});

describe('unitsToNextWord', () => {
  it('is the fewest further units an open cell needs; none without an open cell', () => {
    expect(unitsToNextWord([{ state: 'open', units: 6, unitsToDecide: 14 }, { state: 'open', units: 6, unitsToDecide: 9 }, { state: 'decided' }])).toBe(3);
    expect(unitsToNextWord([{ state: 'out-of-reach', units: 6, unitsToDecide: 8 }, { state: 'decided' }])).toBeUndefined();
    // Without a projection, the units an interval needs.
    expect(unitsToNextWord([{ state: 'open', units: 2 }])).toBe(1);
  });
});
