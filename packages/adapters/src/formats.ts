/**
 * The formats of benchmark files rtbench runs unchanged, declared once: the
 * adapters name the format of each case they declare by it, and the suite
 * loader detects a file's format and words its messages with it. A format
 * whose cases must not share a process says so as the isolation it needs;
 * which measurer gives it is the run's to choose.
 */
export const BROUGHT_FORMATS = {
  mitata: { label: 'mitata' },
  tinybench: { label: 'tinybench' },
  // In a warm process serving them all, a configuration reads the type feedback the ones before it left (Node's harness gives each a process of its own).
  'node-core': {
    label: 'Node.js core benchmark',
    isolation: {
      needs: 'process-per-case',
      what: 'a Node core file',
      why: "each configuration runs in processes of its own, as Node's harness runs it; in processes shared by every configuration each would read the type feedback of the ones before it",
    },
  },
  'node-bench': { label: 'node:bench' },
  vitest: { label: 'vitest bench()' },
  'benchmark-js': { label: 'benchmark.js' },
  // In a warm process serving them all, a benchmark reads the heap the others filled (docs/brought-files.md has the measurements).
  'deno-bench': {
    label: 'Deno.bench',
    isolation: {
      needs: 'process-per-case',
      what: 'a Deno.bench file',
      why: 'each benchmark runs in processes of its own; in processes shared by every benchmark one reads the heap the others left (deno bench runs them one after another in one process)',
    },
  },
} as const satisfies Record<string, { label: string; isolation?: IsolationNeed }>;

/** How cases are kept apart: 'process-per-case', no case shares a process with another. */
export type Isolation = 'process-per-case';

/** The isolation a format's cases need, what such a file is, and why, for the note that says so. */
export interface IsolationNeed {
  readonly needs: Isolation;
  /** "a Node core file". */
  readonly what: string;
  readonly why: string;
}

export type BroughtFormat = keyof typeof BROUGHT_FORMATS;
