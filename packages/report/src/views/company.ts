/**
 * bench --self-check as plain data: each cell of the table beside the same
 * case on its runtime alone and in a long loop (decided by @rtbench/verdicts
 * company.ts); reporters/company.ts lays it out.
 */
import type { RunRecord } from '@rtbench/core/schema';
import { companyRows, type CompanyRow } from '@rtbench/verdicts';

export interface CompanySection {
  rows: CompanyRow[];
  /** The runs the figures come from, as saved (the table's own is the view's). */
  files: { alone: readonly string[]; loop?: string };
  /** How many processes each runtime's halves took and why, a line each (the CLI's self-check says them). */
  design?: readonly string[];
}

interface Saved {
  run: RunRecord;
  file: string;
}

/** The section from the table, each half alone (its runs, saved), the long loop and the halves' design in words. */
export function companySection(table: RunRecord, halves: readonly (readonly Saved[])[], loop: Saved | undefined, design?: readonly string[]): CompanySection {
  return {
    rows: companyRows(
      table,
      halves.map((h) => h.map((a) => a.run)),
      loop?.run,
    ),
    files: { alone: halves.flat().map((a) => a.file), ...(loop ? { loop: loop.file } : {}) },
    ...(design?.length ? { design } : {}),
  };
}
