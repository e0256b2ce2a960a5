/**
 * A compact distribution plot per case for the terminal (`--plot`, after
 * mitata's boxplot): one logarithmic axis per case shared by its variants, so
 * boxes compare by eye and one slow process does not squeeze the others (equal
 * distances are equal ratios). Each variant gets two lines over a labelled
 * axis: all samples (whiskers at p2.5 and p97.5, the box from p25 to p75, ┃ at
 * the table's median), then a mark per process median, so a fast and a slow
 * state show as two clumps. An example: docs/commands.md ("A terminal plot").
 * Pure string building: no terminal access, testable.
 */
import pc from 'picocolors';
import { median, quantile } from '@rtbench/stats';
import type { Metric } from '@rtbench/core/schema';
import { TIME_PER_OP } from '@rtbench/core/metric';
import { formatMetric } from '../format.ts';
import type { BenchCase } from '../views/types.ts';
import { padToWidth, truncateToWidth } from '../width.ts';

export interface PlotOptions {
  /** Total width in columns (the plot fits in it). */
  columns: number;
  color: boolean;
  /** The table's labels by variant id (short ones, when the table used them); the ids otherwise. */
  labels?: ReadonlyMap<string, string>;
}

/** Columns for the variant label, and after the axis for its median. */
const LABEL = 14;
const VALUE = 12;

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

/** Where `x` falls on a log axis [min, max] of `width` columns (0 and below: the left end). */
export function logPosition(x: number, min: number, max: number, width: number): number {
  if (!(max > min) || !(x > 0) || !(min > 0)) return 0;
  const at = Math.round(((Math.log(x) - Math.log(min)) / (Math.log(max) - Math.log(min))) * (width - 1));
  return Math.min(width - 1, Math.max(0, at));
}

/** The row of one box plot, `width` characters, on the log axis [min, max]. */
export function boxLine(d: Pick<Dist, 'lo' | 'p25' | 'p50' | 'p75' | 'hi'>, min: number, max: number, width: number): string {
  const at = (x: number): number => logPosition(x, min, max, width);
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
  for (const v of values) counts[logPosition(v, min, max, width)]!++;
  return counts.map((n) => (n === 0 ? ' ' : n === 1 ? '•' : '●')).join('');
}

/**
 * Round values to mark on a log axis [min, max]: 1-2-5 per decade, finer
 * (1, 1.5, 2, 3, 5, 7) when that gives fewer than three, and for a range
 * narrower than that, evenly spaced round values (a 34–46 µs axis gets 35,
 * 40, 45 µs).
 */
export function logTicks(min: number, max: number): number[] {
  if (!(min > 0) || !(max > min)) return min > 0 ? [min] : [];
  for (const mantissas of [[1, 2, 5], [1, 1.5, 2, 3, 5, 7]]) {
    const ticks: number[] = [];
    for (let exp = Math.floor(Math.log10(min)); 10 ** exp <= max; exp++) {
      for (const m of mantissas) {
        const v = Number((m * 10 ** exp).toPrecision(3));
        if (v >= min && v <= max) ticks.push(v);
      }
    }
    if (ticks.length >= 3) return ticks;
  }
  // Narrow: a round linear step with three to six ticks.
  const raw = (max - min) / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max; v += step) ticks.push(Number(v.toPrecision(6)));
  return ticks;
}

/**
 * The axis: a rule with ┬ at each tick and the tick values under it, a
 * label dropped where it would run into its left neighbour. Two lines of
 * `width` columns.
 */
export function axisLines(min: number, max: number, width: number, format: (v: number) => string): [string, string] {
  const rule = Array.from({ length: width }, () => '─');
  const labels = Array.from({ length: width }, () => ' ');
  let free = 0;
  for (const tick of logTicks(min, max)) {
    const at = logPosition(tick, min, max, width);
    rule[at] = '┬';
    const text = format(tick);
    const start = Math.min(width - text.length, Math.max(0, at - Math.floor(text.length / 2)));
    if (start < free || start < 0) continue;
    [...text].forEach((ch, i) => (labels[start + i] = ch));
    free = start + text.length + 1;
  }
  return [rule.join(''), labels.join('').trimEnd()];
}


export function casePlot(bc: BenchCase, options: PlotOptions): string {
  const c = pc.createColors(options.color);
  const metric: Metric = bc.rows[0]?.metric ?? TIME_PER_OP;
  const format = (v: number): string => formatMetric(v, metric);
  const label = (id: string): string => options.labels?.get(id) ?? id;
  const dists = bc.rows.map((r) => distOf(label(r.variantId), r.result.rounds, r.stats?.median)).filter((d): d is Dist => d !== undefined);
  if (!dists.length) return '';
  // A log axis starts above 0: values of 0 (below the clock) sit at its left end.
  const values = dists.flatMap((d) => [d.lo, d.hi, ...d.processMedians]);
  const positive = values.filter((v) => v > 0);
  const min = positive.length ? Math.min(...positive) : 0;
  const max = Math.max(...values);
  const width = Math.max(20, options.columns - LABEL - VALUE);
  const lines = [c.bold(bc.label)];
  for (const d of dists) {
    lines.push(`  ${padToWidth(truncateToWidth(d.label, LABEL - 2), LABEL - 2)}${boxLine(d, min, max, width)} ${format(d.p50)}`);
    lines.push(`  ${''.padEnd(LABEL - 2)}${c.dim(dotLine(d.processMedians, min, max, width).trimEnd())}`);
  }
  const [rule, ticks] = axisLines(min, max, width, format);
  lines.push(c.dim(`  ${''.padEnd(LABEL - 2)}${rule} log`), c.dim(`  ${''.padEnd(LABEL - 2)}${ticks}`));
  // What the table's marks stand for, with their figures.
  for (const row of bc.rows) {
    for (const extra of [row.modes, row.skew, row.byCollection, row.opposite]) if (extra) lines.push(c.yellow(`  ${label(row.variantId)}: ${extra}`));
  }
  return lines.join('\n');
}
