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
}

export function companySection(table: RunRecord, alone: readonly { run: RunRecord; file: string }[], loop: { run: RunRecord; file: string } | undefined): CompanySection {
  return {
    rows: companyRows(
      table,
      alone.map((a) => a.run),
      loop?.run,
    ),
    files: { alone: alone.map((a) => a.file), ...(loop ? { loop: loop.file } : {}) },
  };
}
