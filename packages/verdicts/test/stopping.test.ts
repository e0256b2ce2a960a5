import { describe, expect, it } from 'vitest';
import { anytimeUnitsToDecide, comparePaired, createRandom, withoutFarthestUnit } from '@rtbench/stats';
import { adjustAll, lookByCase, unitsToNextWord, type CellState } from '../src/index.ts';
import { lookAtTable } from '../src/stopping.ts';

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
    // Open on its units alone, even when its two pairs project a need past the reach.
    const split = comparePaired([100, 100], [103, 98]);
    expect(split.unitsToDecide ?? Infinity).toBeGreaterThan(30);
    expect(lookAtTable([split], { confidence: 0.95, reachableUnits: 30 })[0]!.state).toBe('open');
  });

  it('judges a cell of three units, enough for an interval, by its projection; one with none carries no count', () => {
    const three = comparePaired([100, 100, 100], [103, 98, 102]);
    const state = lookAtTable([three], { confidence: 0.95, reachableUnits: 30 })[0]! as Extract<CellState, { state: 'out-of-reach' }>;
    expect(state.state).toBe('out-of-reach');
    expect(state.unitsToDecide).toBeGreaterThan(30);
    // An effect at the threshold with a wide spread: no count decides it.
    const far = comparePaired([100, 100, 100, 100, 100, 100], [160, 62, 150, 65, 140, 70]);
    expect(Object.keys(lookAtTable([far], { confidence: 0.95, reachableUnits: 30 })[0]!)).toEqual(['state', 'units']);
  });
});

describe('unitsToNextWord', () => {
  it('is the fewest further units an open cell needs; none without an open cell', () => {
    expect(unitsToNextWord([{ state: 'open', units: 6, unitsToDecide: 14 }, { state: 'open', units: 6, unitsToDecide: 9 }, { state: 'decided' }])).toBe(3);
    expect(unitsToNextWord([{ state: 'open', units: 6, unitsToDecide: 9 }, { state: 'open', units: 6, unitsToDecide: 14 }])).toBe(3);
    expect(unitsToNextWord([{ state: 'out-of-reach', units: 6, unitsToDecide: 8 }, { state: 'decided' }])).toBeUndefined();
    // Without a projection, the units an interval needs.
    expect(unitsToNextWord([{ state: 'open', units: 2 }])).toBe(1);
  });
});

describe('lookByCase', () => {
  // Case 0: a clear cell and an unclear one; case 1: a clear cell only; case 2: the unclear cell's twin, two rounds per pair.
  const unclear = cell(3, 6, 1.03, 0.03);
  const cells = [
    { caseIndex: 0, comparison: cell(1, 8, 1.6, 0.01) },
    { caseIndex: 0, comparison: unclear },
    { caseIndex: 1, comparison: cell(4, 8, 0.6, 0.01) },
    { caseIndex: 2, comparison: { ...unclear, n: 12 } },
  ];
  // The unclear cell as the table reads it, the reach aside.
  const need = lookAtTable(cells.map((c) => c.comparison), { confidence: 0.95, reachableUnits: Infinity })[1] as Extract<CellState, { state: 'open' }>;
  it('has an unclear cell open at an unbounded reach', () => expect(need).toMatchObject({ state: 'open', unitsToDecide: expect.any(Number) as number }));

  it("shares the budget among the cases with a cell open within maxRounds, and judges each cell in its case's reach", () => {
    const asked: [number, number][] = [];
    const looks = lookByCase(cells, 3, {
      confidence: 0.95,
      maxRounds: 1000,
      reachableRounds: (k, open) => {
        asked.push([k, open]);
        return need.unitsToDecide!;
      },
    });
    // Cases 0 and 2 have an open cell; each is asked its reach once.
    expect(asked).toEqual([[0, 2], [1, 2], [2, 2]]);
    expect(looks.map((l) => l.reach)).toEqual([need.unitsToDecide, need.unitsToDecide, need.unitsToDecide]);
    expect(looks[0]!.states.map((s) => s.state)).toEqual(['decided', 'open']);
    expect(looks[0]!.next).toBe(need.unitsToDecide! - 6);
    expect(looks[1]).toMatchObject({ states: [{ state: 'decided' }], next: undefined });
    // Two rounds to a pair: its case's rounds reach half as many pairs, too few.
    expect(looks[2]!.states[0]!.state).toBe('out-of-reach');
    expect(looks[2]!.next).toBeUndefined();
  });

  it('caps the reach at maxRounds, and counts no case open whose cells need more', () => {
    const opens: number[] = [];
    const looks = lookByCase(cells, 3, { confidence: 0.95, maxRounds: need.unitsToDecide! - 1, reachableRounds: (_, open) => (opens.push(open), Infinity) });
    expect(opens).toEqual([0, 0, 0]);
    expect(looks.map((l) => l.reach)).toEqual([need.unitsToDecide! - 1, need.unitsToDecide! - 1, need.unitsToDecide! - 1]);
    expect(looks[0]!.states[1]!.state).toBe('out-of-reach');
  });

  it('projects on the sequences of the prior precision given, the far-pair projection too', () => {
    const unclearAlone = [{ caseIndex: 0, comparison: unclear }];
    const at = (priorPrecision?: number) => lookByCase(unclearAlone, 1, { confidence: 0.95, maxRounds: 1000, reachableRounds: () => 1000, ...(priorPrecision ? { priorPrecision } : {}) })[0]!.states[0]!;
    const tuned = anytimeUnitsToDecide(unclear.inference, 0.95, 0.01, 1)!;
    expect(tuned).not.toBe(anytimeUnitsToDecide(unclear.inference, 0.95, 0.01));
    expect(at(1)).toEqual({ state: 'open', units: 6, unitsToDecide: tuned });
    expect(at()).toEqual({ state: 'open', units: 6, unitsToDecide: anytimeUnitsToDecide(unclear.inference, 0.95, 0.01) });
    expect(lookAtTable([unclear], { confidence: 0.95, reachableUnits: 1000, priorPrecision: 1 })[0]).toEqual(at(1));
    // Far pair: without it, the projection on the given sequence, counted back.
    const logRatios = [-0.024, -0.01, 0.12, -0.035, -0.02, -0.03];
    const steadier = withoutFarthestUnit(logRatios)!;
    const far = lookByCase([{ caseIndex: 0, comparison: comparePaired(logRatios.map(() => 1), logRatios.map(Math.exp)), steadier }], 1, { confidence: 0.95, maxRounds: 1000, reachableRounds: () => 1000, priorPrecision: 1 })[0]!;
    expect(anytimeUnitsToDecide(steadier, 0.95, 0.01, 1)).not.toBe(anytimeUnitsToDecide(steadier, 0.95, 0.01));
    expect(far.states[0]).toEqual({ state: 'open', units: 6, unitsToDecide: anytimeUnitsToDecide(steadier, 0.95, 0.01, 1)! + 1 });
  });

  it('reads every cell at the table\'s e-BH level: the same words as lookAtTable', () => {
    const looks = lookByCase(cells, 3, { confidence: 0.95, maxRounds: 1000, reachableRounds: () => 1000 });
    const table = lookAtTable(cells.map((c) => c.comparison), { confidence: 0.95, reachableUnits: 1000 });
    expect(looks.flatMap((l) => l.states).map((s) => s.state === 'decided')).toEqual([0, 1, 2, 3].map((i) => table[i]!.state === 'decided'));
  });

  describe('one far process pair', () => {
    // Four pairs agree on −2.4%; the fifth is +9%: its spread alone puts the cell past any reach.
    const logRatios = [-0.024, -0.026, 0.09, -0.022, -0.025];
    const comparison = comparePaired(logRatios.map(() => 1), logRatios.map(Math.exp));
    const steadier = withoutFarthestUnit(logRatios)!;
    const look = (withSteadier: boolean, maxRounds = 30) => lookByCase([{ caseIndex: 0, comparison, ...(withSteadier ? { steadier } : {}) }], 1, { confidence: 0.95, maxRounds, reachableRounds: () => maxRounds })[0]!;

    it('puts a cell out of reach when its projection without the far pair is past the reach too', () => {
      expect(comparison.verdict).toBe('inconclusive');
      expect(look(false).states[0]).toMatchObject({ state: 'out-of-reach', units: 5 });
      expect(look(false).next).toBeUndefined();
    });

    it('keeps it open while the other pairs project a word within reach, the far pair counted back', () => {
      const without = anytimeUnitsToDecide(steadier, 0.95, 0.01)!;
      expect(without).toBe(4);
      expect(look(true).states[0]).toEqual({ state: 'open', units: 5, unitsToDecide: without + 1 });
      expect(look(true).next).toBe(0);
      // Within reach only while the reach holds the far pair too.
      expect(look(true, without).states[0]!.state).toBe('out-of-reach');
      expect(look(true, without + 1).states[0]!.state).toBe('open');
    });

    it('takes the smaller projection: leaving the far pair out never puts a cell further from a word', () => {
      // Here the far pair is what moves the mean away from 0: without it the rest straddle 0, further from a word.
      const pulled = [0.03, -0.03, 0.02, -0.025, 0.3];
      const c = comparePaired(pulled.map(() => 1), pulled.map(Math.exp));
      const rest = withoutFarthestUnit(pulled)!;
      const at = (cell: Parameters<typeof lookByCase>[0][number]) => lookByCase([cell], 1, { confidence: 0.95, maxRounds: 1000, reachableRounds: () => 1000 })[0]!.states[0]!;
      const plain = at({ caseIndex: 0, comparison: c });
      expect(plain).toEqual({ state: 'open', units: 5, unitsToDecide: anytimeUnitsToDecide(c.inference, 0.95, 0.01) });
      expect(anytimeUnitsToDecide(rest, 0.95, 0.01)! + 1).toBeGreaterThan((plain as { unitsToDecide: number }).unitsToDecide);
      expect(at({ caseIndex: 0, comparison: c, steadier: rest })).toEqual(plain);
      // A rest that no count decides leaves the plain projection.
      const straddling = withoutFarthestUnit([0.06, -0.05, 0.05, -0.04, 0.5])!;
      expect(anytimeUnitsToDecide(straddling, 0.95, 0.01)).toBeUndefined();
      expect(at({ caseIndex: 0, comparison: c, steadier: straddling })).toEqual(plain);
    });
  });
});
