/**
 * HTTP load for the page: per measurement, each variant's line of medians
 * (requests/s, the latency line, the server's wake-ups per request) and its
 * error rate, in the words the terminal and markdown print (cells/load.ts),
 * so the page and the tables cannot disagree.
 */
import { loadCells, loadErrorLines, loadHeads, loadKey } from '../cells/load.ts';
import type { LoadSection } from '../views/load.ts';

interface PageLoadMeasurement {
  /** The measurement's case id without its metric: "hello world [load=c100]". */
  measurement: string;
  /** `variant`: the page's key of the variant; `cells`: its figures under PageLoad's heads. */
  rows: { variant: string; cells: string[] }[];
}

export interface PageLoad {
  /** The heads of the figures after the runtime: conns, each metric, errors. */
  heads: string[];
  measurements: PageLoadMeasurement[];
  /** What the errors were, one line per measurement × variant that had any. */
  errors: string[];
  /** How the figures were made. */
  key: string;
}

/** The section for the page, variants named by `keyOf`; undefined when the run has no load measurements. */
export function pageLoad(section: LoadSection | undefined, keyOf: (variantId: string) => string): PageLoad | undefined {
  if (!section) return undefined;
  const measurements: PageLoadMeasurement[] = [];
  for (const row of section.rows) {
    let m = measurements.find((x) => x.measurement === row.measurement);
    if (!m) measurements.push((m = { measurement: row.measurement, rows: [] }));
    m.rows.push({ variant: keyOf(row.variantId), cells: loadCells(section, row) });
  }
  return { heads: loadHeads(section), measurements, errors: loadErrorLines(section), key: loadKey(section) };
}
