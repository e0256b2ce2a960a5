/**
 * The long-loop check's word on a cell (scripts/measure/lockstep/long-loop-check.ts): a
 * table's per-call figure against the long loops of the same case in fresh
 * processes (docs/how-a-number-is-made.md, "Against a long loop").
 */
import { median } from '@rtbench/stats';

/** A table within this factor of its loop, either way, reads what a long-running program pays. */
export const BAND = 1.2;

/** A cell's two sides: the table's figure and its long loops (ns per call). */
export interface CellFigures {
  /** The table's figure (the geometric mean of its two tables). */
  tableNs: number;
  /** Each fresh loop process's figure, with a core free for the engine's helper threads. */
  loops: readonly number[];
  /** The loop held to one core (its processes' median), where it ran. */
  oneCoreNs?: number;
}

const apart = (a: number, b: number): number => Math.max(a, b) / Math.min(a, b);

/**
 * The cell's judgement: the table within BAND of the loops' median; or,
 * where the loop held to one core and the loop with a core free are more
 * than BAND apart, between them (within BAND of either end): the case's
 * cost is set by the cores free for its engine's helper threads, and a
 * table reads a point of that range. Fresh loop processes more than BAND
 * apart are said too ("loop not fixed"): the loop's cost per call moves from
 * one process to the next by more than the band the table is judged in, so
 * the word on the table holds only against the loops' median. The loops run
 * between the tables (long-loop-check.ts), so both sides saw the machine
 * alike.
 */
export function judged(cell: CellFigures): string {
  const { tableNs, loops, oneCoreNs } = cell;
  if (!loops.length) return 'no loop';
  const word = against(tableNs, median(loops), oneCoreNs);
  const spread = apart(Math.min(...loops), Math.max(...loops));
  return spread > BAND ? `${word}; loop not fixed: its processes ${spread.toFixed(2)}× apart` : word;
}

/** The table against the loops' median, and the one-core loop where it is more than BAND from it. */
function against(tableNs: number, loopNs: number, oneCoreNs: number | undefined): string {
  if (apart(tableNs, loopNs) <= BAND) return 'within ±20%';
  if (oneCoreNs === undefined || apart(loopNs, oneCoreNs) <= BAND) return 'outside ±20%';
  const [lowNs, highNs] = [Math.min(loopNs, oneCoreNs), Math.max(loopNs, oneCoreNs)];
  return tableNs >= lowNs / BAND && tableNs <= highNs * BAND ? 'between the 1-core and free-core loops' : 'outside ±20%';
}

/**
 * A cell's tables, taken between its loops: their geometric mean is the
 * table's figure; their highest over their lowest (`apart`) more than BAND
 * means the machine's load moved while the check ran, and the cell is not
 * judged (`moved`).
 */
export function tablesFigure(tables: readonly number[]): { ns: number; apart: number; moved: boolean } {
  let logSum = 0;
  for (const t of tables) logSum += Math.log(t);
  const spread = apart(Math.min(...tables), Math.max(...tables));
  return { ns: Math.exp(logSum / tables.length), apart: spread, moved: spread > BAND };
}

/**
 * A table's arguments for one of its runtimes alone (`--runtime spec` in
 * place of any the table was given): the cell without the set's company,
 * whose other processes sample while it waits its turn
 * (docs/lockstep.md, "The set's company").
 */
export function aloneArgs(benchArgs: readonly string[], spec: string): string[] {
  const kept = benchArgs.filter((arg, i) => arg !== '--runtime' && benchArgs[i - 1] !== '--runtime' && !arg.startsWith('--runtime='));
  return [...kept, '--runtime', spec];
}
