/**
 * A summary's top functions and a diff's movers as tables (plain data, see
 * @rtbench/core/profile-view): the figures as the reporters print them, the
 * layout left to each reporter.
 */
import { formatBytes } from '@rtbench/core/call-tree';
import type { ProfileColumn, ProfileTable } from '@rtbench/core/profile-view';
import { CATEGORIES, type Category, type ProfileDiff, type ProfileSummary } from './summary.ts';
import type { AllocationSummary } from './alloc-summary.ts';

export interface TableOptions {
  /** How many functions (default 10). */
  top?: number;
  /** A heading line: the case and variant. */
  title?: string;
  /** A note under the heading, e.g. how the sampling phase was found. */
  note?: string;
}

function pct(share: number): string {
  const v = share * 100;
  return `${v >= 9.95 ? v.toFixed(0) : v.toFixed(1)}%`;
}

function signedPct(delta: number): string {
  const v = delta * 100;
  const text = Math.abs(v) >= 9.95 ? Math.abs(v).toFixed(0) : Math.abs(v).toFixed(1);
  return `${v < 0 ? '−' : '+'}${text} pt`;
}

/** "benchmark 78% · engine 12% · gc 3%": categories with any time (or bytes), largest first. */
function categoryLine(summary: Pick<ProfileSummary, 'byCategory'> | Pick<AllocationSummary, 'byCategory'>): string {
  return CATEGORIES.filter((c) => summary.byCategory[c].share > 0)
    .sort((x, y) => summary.byCategory[y].share - summary.byCategory[x].share)
    .map((c) => `${c} ${pct(summary.byCategory[c].share)}`)
    .join(' · ');
}

const figure = (head: string): ProfileColumn => ({ head, right: true });
const text = (head: string): ProfileColumn => ({ head });

function table(options: TableOptions, summary: string, columns: ProfileColumn[], rows: string[][]): ProfileTable {
  return { kind: 'table', ...(options.title ? { title: options.title } : {}), ...(options.note ? { note: options.note } : {}), summary, columns, rows };
}

/** The top functions by self time, with the split by category above them. */
export function topTable(summary: ProfileSummary, options: TableOptions = {}): ProfileTable {
  const rows = summary.functions.slice(0, options.top ?? 10).map((f) => [pct(f.selfShare), pct(f.totalShare), f.category, f.name, f.location ?? '']);
  const line = `${summary.totalMs.toFixed(0)} ms in ${summary.samples} samples: ${categoryLine(summary)}`;
  return table(options, line, [figure('self'), figure('total'), text('category'), text('function'), text('where')], rows);
}

/** The top functions by self bytes allocated, with the split by category above them. */
export function allocTopTable(summary: AllocationSummary, options: TableOptions = {}): ProfileTable {
  const perOp = summary.bytesPerOp !== undefined;
  const rows = summary.functions
    .slice(0, options.top ?? 10)
    .map((f) => [pct(f.selfShare), pct(f.totalShare), ...(perOp ? [f.selfBytesPerOp !== undefined ? formatBytes(f.selfBytesPerOp) : ''] : []), f.category, f.name, f.location ?? '']);
  const calls = summary.ops !== undefined && summary.bytesPerOp !== undefined ? ` over ${summary.ops} calls (${formatBytes(summary.bytesPerOp)}/op)` : '';
  const line = `${formatBytes(summary.totalBytes)} allocated${calls}, ${summary.samples} samples: ${categoryLine(summary) || 'nothing allocated'}`;
  return table(options, line, [figure('self'), figure('total'), ...(perOp ? [figure('self/op')] : []), text('category'), text('function'), text('where')], rows);
}

export interface DiffTableOptions extends TableOptions {
  /** Names of the two arms (default "a", "b"). */
  a?: string;
  b?: string;
  /** What the shares are of (default "self time"; allocation diffs: "allocated bytes"). */
  of?: string;
}

/** The functions whose share of self time moved most between the arms. */
export function diffTable(diff: ProfileDiff, options: DiffTableOptions = {}): ProfileTable {
  const a = options.a ?? 'a';
  const b = options.b ?? 'b';
  const moved = CATEGORIES.filter((c) => Math.abs(diff.byCategory[c].delta) >= 0.005)
    .sort((x, y) => Math.abs(diff.byCategory[y].delta) - Math.abs(diff.byCategory[x].delta))
    .map((c: Category) => `${c} ${pct(diff.byCategory[c].aShare)} → ${pct(diff.byCategory[c].bShare)}`);
  const line = `share of ${options.of ?? 'self time'}, ${a} → ${b}${moved.length ? `: ${moved.join(' · ')}` : ': no category moved by 0.5 pt or more'}`;
  const rows = diff.functions.slice(0, options.top ?? 10).map((e) => [signedPct(e.delta), pct(e.aShare), pct(e.bShare), e.category, e.name, e.location ?? '']);
  return table(options, line, [figure('change'), figure(a), figure(b), text('category'), text('function'), text('where')], rows);
}
