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
import { anytimeUnitsToDecide, applyEbh, MIN_UNITS, type Comparison, type UnitInference } from '@rtbench/stats';

export type CellState =
  | { state: 'decided' }
  | { state: 'open'; units: number; unitsToDecide?: number }
  | { state: 'out-of-reach'; units: number; unitsToDecide?: number };

export interface LookOptions {
  /** The table's confidence; its false-discovery level is 1 − confidence. */
  confidence: number;
  /** Units a cell can have in all within what is left of the budget (rounds and time). */
  reachableUnits: number;
  /** The confidence sequences' prior precision (stats' default when absent). */
  priorPrecision?: number | undefined;
}

/** Every cell's state at this look; a cell without a comparison (an arm failed or is unsupported) gains nothing from rounds: decided. */
export function lookAtTable(cells: readonly (Comparison | undefined)[], opts: LookOptions): CellState[] {
  return readTable(cells, opts.confidence, opts.priorPrecision).map((r) => (r ? withinReach(r, opts.reachableUnits, undefined, opts.priorPrecision) : { state: 'decided' }));
}

/** Each cell read at the table's e-BH level; undefined: decided (or no comparison). */
function readTable(cells: readonly (Comparison | undefined)[], confidence: number, priorPrecision: number | undefined): (Comparison | undefined)[] {
  const present = cells.flatMap((c) => (c ? [c] : []));
  const read = applyEbh(present, { alpha: 1 - confidence, priorPrecision });
  let k = 0;
  return cells.map((c) => {
    if (!c) return undefined;
    const r = read[k++]!;
    return r.verdict === 'inconclusive' ? r : undefined;
  });
}

/**
 * An undecided cell is open while the units it would need fit in `reachable`,
 * out of reach once they do not. With `steadier` (its inference without its
 * farthest unit), the need is the smaller of the two projections, the left-out
 * unit counted back: one far process pair alone does not put a cell out of
 * reach. Giving up early never adds a word, so this changes only the cost.
 */
function withinReach(r: Comparison, reachable: number, steadier: UnitInference | undefined, priorPrecision: number | undefined): CellState {
  const without = steadier && anytimeUnitsToDecide(steadier, r.confidence, r.threshold, priorPrecision);
  const units = without === undefined ? r.unitsToDecide : Math.min(without + 1, r.unitsToDecide ?? Infinity);
  const need = units !== undefined ? { unitsToDecide: units } : {};
  // Too few units for a projection yet: open until there are.
  const open = r.units < MIN_UNITS ? r.units < reachable : (units ?? Infinity) <= reachable;
  return { state: open ? 'open' : 'out-of-reach', units: r.units, ...need };
}

/**
 * A cell of a table stopped case by case: the case it belongs to (an index),
 * its comparison (undefined: decided) and, for the projection of the units it
 * needs, its inference without its farthest unit (units.ts withoutFarthestUnit).
 */
export interface CaseCell {
  caseIndex: number;
  comparison: Comparison | undefined;
  steadier?: UnitInference | undefined;
}

export interface CaseLookOptions {
  confidence: number;
  /** Rounds a case may have in all. */
  maxRounds: number;
  /** The confidence sequences' prior precision (stats' default when absent). */
  priorPrecision?: number | undefined;
  /**
   * Rounds case `caseIndex` can have in all when `open` cases share what is
   * left of the budget (at most maxRounds): the caller's budget, in rounds or time.
   */
  reachableRounds(caseIndex: number, open: number): number;
}

/** One case at a look: its cells' states, the rounds it could reach, and the further units its nearest word needs (undefined: no cell open). */
export interface CaseLook {
  states: CellState[];
  reach: number;
  next: number | undefined;
}

/**
 * The look of a table whose cases stop and go on as a whole (every cell of a
 * case gets a round together), the one rule the run loop and the stopping
 * simulation follow. Every cell is read at the table's e-BH level; the cases
 * with a cell open within maxRounds share the budget left, and a cell is
 * open while the units it needs fit in its case's reach. Each look starts
 * afresh, so a case stopped out of reach (or decided) at one look is open
 * again at the next when other cells' words have moved the table's bar.
 * A cell's units in reach are its case's rounds at its own units per round
 * (rounds of a set that share a process pair are one unit).
 */
export function lookByCase(cells: readonly CaseCell[], cases: number, opts: CaseLookOptions): CaseLook[] {
  const read = readTable(cells.map((c) => c.comparison), opts.confidence, opts.priorPrecision);
  const stateAt = (i: number, rounds: number): CellState => {
    const r = read[i];
    return r ? withinReach(r, Math.floor((rounds * r.units) / r.n), cells[i]!.steadier, opts.priorPrecision) : { state: 'decided' };
  };
  const cellsOf = Array.from({ length: cases }, (_, k) => cells.flatMap((c, i) => (c.caseIndex === k ? [i] : [])));
  const open = cellsOf.filter((of) => of.some((i) => stateAt(i, opts.maxRounds).state === 'open')).length;
  return cellsOf.map((of, k) => {
    const reach = Math.min(opts.maxRounds, opts.reachableRounds(k, open));
    const states = of.map((i) => stateAt(i, reach));
    return { states, reach, next: unitsToNextWord(states) };
  });
}

/** How far a group of cells (a case's) is from a word: the fewest further units any of its open cells needs; undefined when none is open. */
export function unitsToNextWord(states: readonly CellState[]): number | undefined {
  let best: number | undefined;
  for (const s of states) {
    if (s.state !== 'open') continue;
    const more = (s.unitsToDecide ?? MIN_UNITS) - s.units;
    // Stryker disable next-line EqualityOperator: a tie sets the same value again
    if (best === undefined || more < best) best = more;
  }
  return best;
}
