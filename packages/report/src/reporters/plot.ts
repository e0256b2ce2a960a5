/**
 * A compact distribution plot per case for the terminal (`--plot`), after
 * mitata's boxplot: one axis per case shared by its variants, so the boxes
 * can be compared by eye. Each variant gets two lines:
 *
 *   node      ├──────[████┃██████]─────────┤
 *             ·  •  ••• •    •
 *
 * the first is all samples (whiskers at the 2.5th and 97.5th percentiles, the
 * box from p25 to p75) with ┃ at the table's median; the second marks each process's median,
 * so two groups of processes (a fast and a slow state) show as two clumps.
 * Pure string building: no terminal access, testable.
 */
import pc from 'picocolors';
import { median, quantile } from '@rtbench/stats';
import { formatDuration } from '../format.ts';
import type { BenchCase } from '../views/types.ts';

export interface PlotOptions {
  /** Total width in columns (the plot fits in it). */
  columns: number;
  color: boolean;
}

const LABEL = 14;

interface Dist {
  label: string;
  lo: number;
  p25: number;
  p50: number;
  p75: number;
  hi: number;
  processMedians: number[];
}

/** `headline`: the table's median (of process medians), so plot and table name the same number. */
function distOf(label: string, rounds: readonly { samples: readonly number[] }[], headline: number | undefined): Dist | undefined {
  const all = rounds.flatMap((r) => r.samples).sort((a, b) => a - b);
  if (!all.length) return undefined;
  return {
    label,
    lo: quantile(all, 0.025),
    p25: quantile(all, 0.25),
    p50: headline ?? quantile(all, 0.5),
    p75: quantile(all, 0.75),
    hi: quantile(all, 0.975),
    processMedians: rounds.filter((r) => r.samples.length).map((r) => median([...r.samples])),
  };
}

/** The row of one box plot, `width` characters, on the axis [min, max]. */
export function boxLine(d: Pick<Dist, 'lo' | 'p25' | 'p50' | 'p75' | 'hi'>, min: number, max: number, width: number): string {
  const at = (x: number): number => (max > min ? Math.min(width - 1, Math.max(0, Math.round(((x - min) / (max - min)) * (width - 1)))) : 0);
  const row = Array.from({ length: width }, () => ' ');
  const [lo, q1, mid, q3, hi] = [at(d.lo), at(d.p25), at(d.p50), at(d.p75), at(d.hi)];
  for (let i = lo; i <= hi; i++) row[i] = '─';
  for (let i = q1; i <= q3; i++) row[i] = '█';
  row[lo] = '├';
  row[hi] = '┤';
  row[mid] = '┃';
  return row.join('');
}

/** Process medians as dots on the same axis (• one, ● several in one column). */
export function dotLine(values: readonly number[], min: number, max: number, width: number): string {
  const counts = new Array<number>(width).fill(0);
  for (const v of values) {
    const i = max > min ? Math.min(width - 1, Math.max(0, Math.round(((v - min) / (max - min)) * (width - 1)))) : 0;
    counts[i]!++;
  }
  return counts.map((n) => (n === 0 ? ' ' : n === 1 ? '•' : '●')).join('');
}

export function casePlot(bc: BenchCase, options: PlotOptions): string {
  const c = options.color ? pc : pc.createColors(false);
  const dists = bc.rows.map((r) => distOf(r.variantId, r.result.rounds, r.stats?.median)).filter((d): d is Dist => d !== undefined);
  if (!dists.length) return '';
  const min = Math.min(...dists.map((d) => Math.min(d.lo, ...d.processMedians)));
  const max = Math.max(...dists.map((d) => Math.max(d.hi, ...d.processMedians)));
  const width = Math.max(20, options.columns - LABEL - 12);
  const lines = [c.bold(bc.caseId)];
  for (const d of dists) {
    const label = d.label.length > LABEL - 2 ? `${d.label.slice(0, LABEL - 3)}…` : d.label;
    lines.push(`  ${label.padEnd(LABEL - 2)}${boxLine(d, min, max, width)} ${formatDuration(d.p50)}`);
    lines.push(`  ${''.padEnd(LABEL - 2)}${c.dim(dotLine(d.processMedians, min, max, width).trimEnd())}`);
  }
  const left = formatDuration(min);
  const right = formatDuration(max);
  lines.push(c.dim(`  ${''.padEnd(LABEL - 2)}${left}${right.padStart(width - left.length)}`));
  return lines.join('\n');
}
