/**
 * The stopping rule of a table whose cells stop when decided: at each look
 * every cell is read on its confidence sequence at the table's e-BH level
 * (stats' applyEbh, the reading the report prints), and a cell is
 *   decided      its interval gives a word (beyond the threshold, inside the
 *                equivalence band, or under the threshold with a direction);
 *   open         undecided, and the units it would need fit in what is left;
 *   out of reach undecided, and it would need more units than are left
 *                ("undecided: would need ~N more pairs").
 * A case needs another round while any of its cells is open; the open cases
 * closest to a word go first. Because the sequences are valid at every look,
 * stopping on a word keeps the intervals' and the table's error rates
 * (docs/comparing.md, "Stopping when decided").
 */
import { applyEbh, MIN_UNITS, type Comparison } from '@rtbench/stats';

export type CellState =
  | { state: 'decided' }
  | { state: 'open'; units: number; unitsToDecide?: number }
  | { state: 'out-of-reach'; units: number; unitsToDecide?: number };

export interface LookOptions {
  /** The table's confidence; its false-discovery level is 1 − confidence. */
  confidence: number;
  /** Units a cell can have in all within what is left of the budget (rounds and time). */
  reachableUnits: number;
}

/** Every cell's state at this look; a cell without a comparison (an arm failed or is unsupported) gains nothing from rounds: decided. */
export function lookAtTable(cells: readonly (Comparison | undefined)[], opts: LookOptions): CellState[] {
  const present = cells.flatMap((c) => (c ? [c] : []));
  const read = applyEbh(present, { alpha: 1 - opts.confidence });
  let k = 0;
  return cells.map((c): CellState => {
    if (!c) return { state: 'decided' };
    const r = read[k++]!;
    if (r.verdict !== 'inconclusive') return { state: 'decided' };
    const need = r.unitsToDecide !== undefined ? { unitsToDecide: r.unitsToDecide } : {};
    // Too few units for a projection yet: open until there are.
    if (r.units < MIN_UNITS) return { state: r.units < opts.reachableUnits ? 'open' : 'out-of-reach', units: r.units, ...need };
    const open = r.unitsToDecide !== undefined && r.unitsToDecide <= opts.reachableUnits;
    return { state: open ? 'open' : 'out-of-reach', units: r.units, ...need };
  });
}

/** How far a group of cells (a case's) is from a word: the fewest further units any of its open cells needs; undefined when none is open. */
export function unitsToNextWord(states: readonly CellState[]): number | undefined {
  let best: number | undefined;
  for (const s of states) {
    if (s.state !== 'open') continue;
    const more = (s.unitsToDecide ?? MIN_UNITS) - s.units;
    if (best === undefined || more < best) best = more;
  }
  return best;
}
