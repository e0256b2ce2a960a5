/**
 * bench --self-check as plain data: each cell of the table beside the same
 * case on its runtime alone and in a long loop (decided by @rtbench/verdicts
 * company.ts); reporters/company.ts lays it out.
 */
import type { RunRecord } from '@rtbench/core/schema';
import { MEASURER_RECORDS } from '@rtbench/measurer-records';
import { companyRows, type CompanyRow } from '@rtbench/verdicts';

export interface CompanySection {
  rows: CompanyRow[];
  /** The runs the figures come from, as saved (the table's own is the view's). */
  files: { alone: readonly string[]; loop?: string };
  /** How many processes each runtime's halves took and why, a line each (the CLI's self-check says them). */
  design?: readonly string[];
  /** Some cell reads `company` slower than alone in a table whose samples had the run-up's own rule, not a time asked (--run-up). */
  slowerWithoutRunUp?: true;
}

interface Saved {
  run: RunRecord;
  file: string;
}

/** The section from the table, each half alone (its runs, saved), the long loop and the halves' design in words. */
export function companySection(table: RunRecord, halves: readonly (readonly Saved[])[], loop: Saved | undefined, design?: readonly string[]): CompanySection {
  const rows = companyRows(
    table,
    halves.map((h) => h.map((a) => a.run)),
    loop?.run,
  );
  return {
    rows,
    files: { alone: halves.flat().map((a) => a.file), ...(loop ? { loop: loop.file } : {}) },
    ...(design?.length ? { design } : {}),
    ...(slowerWithoutRunUp(rows, table.options) ? { slowerWithoutRunUp: true as const } : {}),
  };
}

/** Whether a cell reads `company` slower than alone in a table that asked no run-up time (--run-up): the self-check then names the option. */
export function slowerWithoutRunUp(rows: readonly CompanyRow[], options: Pick<RunRecord['options'], 'measurer' | 'measurerFields'>): boolean {
  if (MEASURER_RECORDS.runUpMs(options) !== undefined) return false;
  return rows.some((r) => r.company && r.alone !== undefined && r.alone.ratio > 1);
}
