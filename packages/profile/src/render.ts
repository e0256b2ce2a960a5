/**
 * Plain-text views of a summary and a diff: a compact top-N for the
 * terminal, and the same as a markdown table. Strings only, no colour: the
 * caller decides where they go.
 */
import { formatBytes } from '@rtbench/core/call-tree';
import { CATEGORIES, type Category, type ProfileDiff, type ProfileSummary } from './summary.ts';
import type { AllocationSummary } from './alloc-summary.ts';

export type TextFormat = 'terminal' | 'markdown';

export interface RenderOptions {
  /** How many functions (default 10). */
  top?: number;
  format?: TextFormat;
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
export function categoryLine(summary: Pick<ProfileSummary, 'byCategory'> | Pick<AllocationSummary, 'byCategory'>): string {
  return CATEGORIES.filter((c) => summary.byCategory[c].share > 0)
    .sort((x, y) => summary.byCategory[y].share - summary.byCategory[x].share)
    .map((c) => `${c} ${pct(summary.byCategory[c].share)}`)
    .join(' · ');
}

function table(format: TextFormat, header: string[], rows: string[][], rightAligned: ReadonlySet<number>): string {
  if (format === 'markdown') {
    const esc = (s: string): string => s.replaceAll('|', '\\|');
    return [
      `| ${header.map(esc).join(' | ')} |`,
      `| ${header.map((_, i) => (rightAligned.has(i) ? '---:' : '---')).join(' | ')} |`,
      ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
    ].join('\n');
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (rightAligned.has(i) ? c.padStart(widths[i]!) : i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

function heading(format: TextFormat, title: string | undefined, note: string | undefined): string[] {
  const out: string[] = [];
  if (title) out.push(format === 'markdown' ? `#### ${title}` : title);
  if (note) out.push(format === 'markdown' ? `_${note}_` : note);
  if (format === 'markdown' && out.length) out.push('');
  return out;
}

/** The top functions by self time, with the split by category above them. */
export function renderTop(summary: ProfileSummary, options: RenderOptions = {}): string {
  const format = options.format ?? 'terminal';
  const top = options.top ?? 10;
  const rows = summary.functions.slice(0, top).map((f) => [pct(f.selfShare), pct(f.totalShare), f.category, f.name, f.location ?? '']);
  const out = heading(format, options.title, options.note);
  out.push(`${summary.totalMs.toFixed(0)} ms in ${summary.samples} samples: ${categoryLine(summary)}`);
  if (format === 'markdown') out.push('');
  out.push(table(format, ['self', 'total', 'category', 'function', 'where'], rows, new Set([0, 1])));
  return out.join('\n');
}

export interface DiffRenderOptions extends RenderOptions {
  /** Names of the two arms (default "a", "b"). */
  a?: string;
  b?: string;
  /** What the shares are of (default "self time"; allocation diffs: "allocated bytes"). */
  of?: string;
}


/** The top functions by self bytes allocated, with the split by category above them. */
export function renderAllocTop(summary: AllocationSummary, options: RenderOptions = {}): string {
  const format = options.format ?? 'terminal';
  const top = options.top ?? 10;
  const perOp = summary.bytesPerOp !== undefined;
  const rows = summary.functions
    .slice(0, top)
    .map((f) => [pct(f.selfShare), pct(f.totalShare), ...(perOp ? [f.selfBytesPerOp !== undefined ? formatBytes(f.selfBytesPerOp) : ''] : []), f.category, f.name, f.location ?? '']);
  const out = heading(format, options.title, options.note);
  const calls = summary.ops !== undefined && summary.bytesPerOp !== undefined ? ` over ${summary.ops} calls (${formatBytes(summary.bytesPerOp)}/op)` : '';
  out.push(`${formatBytes(summary.totalBytes)} allocated${calls}, ${summary.samples} samples: ${categoryLine(summary) || 'nothing allocated'}`);
  if (format === 'markdown') out.push('');
  out.push(table(format, ['self', 'total', ...(perOp ? ['self/op'] : []), 'category', 'function', 'where'], rows, new Set(perOp ? [0, 1, 2] : [0, 1])));
  return out.join('\n');
}

/** The functions whose share of self time moved most between the arms. */
export function renderDiff(diff: ProfileDiff, options: DiffRenderOptions = {}): string {
  const format = options.format ?? 'terminal';
  const top = options.top ?? 10;
  const a = options.a ?? 'a';
  const b = options.b ?? 'b';
  const out = heading(format, options.title, options.note);
  const moved = CATEGORIES.filter((c) => Math.abs(diff.byCategory[c].delta) >= 0.005)
    .sort((x, y) => Math.abs(diff.byCategory[y].delta) - Math.abs(diff.byCategory[x].delta))
    .map((c: Category) => `${c} ${pct(diff.byCategory[c].aShare)} → ${pct(diff.byCategory[c].bShare)}`);
  out.push(`share of ${options.of ?? 'self time'}, ${a} → ${b}${moved.length ? `: ${moved.join(' · ')}` : ': no category moved by 0.5 pt or more'}`);
  if (format === 'markdown') out.push('');
  const rows = diff.functions.slice(0, top).map((e) => [signedPct(e.delta), pct(e.aShare), pct(e.bShare), e.category, e.name, e.location ?? '']);
  out.push(table(format, ['change', a, b, 'category', 'function', 'where'], rows, new Set([0, 1, 2])));
  return out.join('\n');
}
