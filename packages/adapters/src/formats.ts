/**
 * The formats of benchmark files rtbench runs unchanged, declared once: the
 * adapters name the format of each case they declare by it, and the suite
 * loader detects a file's format and words its messages with it.
 */
export const BROUGHT_FORMATS = {
  mitata: { label: 'mitata' },
  tinybench: { label: 'tinybench' },
  'node-core': { label: 'Node.js core benchmark' },
  'node-bench': { label: 'node:bench' },
  'deno-bench': { label: 'Deno.bench' },
} as const satisfies Record<string, { label: string }>;

export type BroughtFormat = keyof typeof BROUGHT_FORMATS;
