/** Number formatting shared by every report format. */
import type { Metric } from '@rtbench/core/schema';

/** What a rate cell shows when the median is 0 ns (below the clock's resolution): no honest ops/s exists. */
const NO_RATE = '—';

/** Why a rate is missing, said once under a table that has one. */
export const NO_RATE_REASON = 'median 0 ns: below the clock resolution, so no ops/s (the case is faster than the clock can time)';

/** Operations per second from a median time per operation in ns: "28.4K", or "—" for a 0 ns median. */
export function formatOpsOfMedian(medianNs: number): string {
  return medianNs > 0 ? formatOps(1e9 / medianNs) : NO_RATE;
}

const UNITS = [
  { scale: 1e9, unit: 's' },
  { scale: 1e6, unit: 'ms' },
  { scale: 1e3, unit: 'µs' },
  { scale: 1, unit: 'ns' },
] as const;

/** The unit a duration is shown in, judged after rounding to 3 digits (999.7 ns shows as 1.00 µs, not "1.00e+3 ns"). */
function unitFor(ns: number): (typeof UNITS)[number] {
  const rounded = Number(Math.abs(ns).toPrecision(3));
  return UNITS.find((u) => rounded >= u.scale) ?? UNITS[UNITS.length - 1]!;
}

/** 41.2 ns, 1.23 µs, 4.56 ms, 1.20 s: three significant digits. */
export function formatDuration(ns: number): string {
  const { scale, unit } = unitFor(ns);
  return `${(ns / scale).toPrecision(3).replace(/\.?0+$/, (m) => (m.includes('.') ? '' : m))} ${unit}`;
}

/** A wall-clock span: 0:42, 1:05:09. */
export function formatClock(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** A range in the unit of its upper end: "40.9–41.8 µs". */
export function formatRange(lo: number, hi: number): string {
  const { scale, unit } = unitFor(hi);
  return `${(lo / scale).toPrecision(3)}–${(hi / scale).toPrecision(3)} ${unit}`;
}

/** 24.3M, 812K, 95.1; "—" for a rate that is not a finite number (a 0 ns median has no rate). */
export function formatOps(opsPerSecond: number): string {
  if (!Number.isFinite(opsPerSecond)) return NO_RATE;
  if (opsPerSecond >= 1e9) return `${(opsPerSecond / 1e9).toPrecision(3)}G`;
  if (opsPerSecond >= 1e6) return `${(opsPerSecond / 1e6).toPrecision(3)}M`;
  if (opsPerSecond >= 1e3) return `${(opsPerSecond / 1e3).toPrecision(3)}K`;
  return opsPerSecond.toPrecision(3);
}

/**
 * Past this a percentage tells a reader nothing more (a ratio of 1,001 is
 * +100,000%), and toFixed would write a large one in e-notation: it is
 * written as a multiple, ">1000×", instead.
 */
const LARGEST_PERCENT = 1e5;

/**
 * Every percentage a report prints: `digits` decimals, "+" on a positive
 * value when `signed`, "−" on a negative one (or "-" when not `signed`, as
 * a plain percentage always printed), and ">1000×" or "<−1000×" past
 * ±100,000% (infinities included); "—" for NaN.
 */
export function percentText(pct: number, digits: number, signed = false): string {
  if (Number.isNaN(pct)) return '—';
  if (pct >= LARGEST_PERCENT) return `>${LARGEST_PERCENT / 100}×`;
  if (pct <= -LARGEST_PERCENT) return `<−${LARGEST_PERCENT / 100}×`;
  if (!signed) return `${pct.toFixed(digits)}%`;
  return `${pct < 0 ? '−' : '+'}${Math.abs(pct).toFixed(digits)}%`;
}

/** 12.3%, 1.2%, 0.04%: small values keep a significant digit instead of reading "0.0%". */
export function formatPercent(fraction: number, digits = 1): string {
  const pct = fraction * 100;
  if (pct !== 0 && Math.abs(pct) < 0.1) return `${pct.toPrecision(1)}%`;
  return percentText(pct, digits);
}

/** 0.739, 1.052, 12.3, 456: three decimals near 1, where the differences live; ">1000" past that (never e-notation). */
export function formatRatio(r: number): string {
  if (Number.isNaN(r)) return '—';
  if (r >= LARGEST_PERCENT / 100) return `>${LARGEST_PERCENT / 100}`;
  return r < 10 ? r.toFixed(3) : r.toPrecision(3);
}

/**
 * Decimals for an interval's bounds: at least `digits`, more (up to 5) while
 * an interval that excludes 1 would print a bound of exactly 1, so the
 * printed interval stays on the side of 1 that its word says.
 */
export function intervalDigits(lo: number, hi: number, digits: number): number {
  const excludes = lo > 1 || hi < 1;
  let d = digits;
  while (excludes && d < 5 && (Number(lo.toFixed(d)) === 1 || Number(hi.toFixed(d)) === 1)) d++;
  return d;
}

/** "0.739 [0.731–0.748]": an interval is written in brackets wherever a report prints one, as the tables' ratios are. */
export function ratioWithCi(ratio: number, ci: readonly [number, number]): string {
  if (!hasFiniteInterval(ci)) return `${formatRatio(ratio)} (no interval)`;
  if (ci[1] >= 10) return `${formatRatio(ratio)} [${formatRatio(ci[0])}–${formatRatio(ci[1])}]`;
  const d = intervalDigits(ci[0], ci[1], 3);
  return `${ratio < 10 ? ratio.toFixed(d) : formatRatio(ratio)} [${ci[0].toFixed(d)}–${ci[1].toFixed(d)}]`;
}

/** Whether an interval is one: a ratio from too few independent units carries [0, Infinity] instead. */
export function hasFiniteInterval(ci: readonly [number, number] | undefined): ci is readonly [number, number] {
  return ci !== undefined && ci[0] > 0 && Number.isFinite(ci[1]);
}

/** Change in time: ratio 0.739 -> "−26.1%", 1.102 -> "+10.2%". */
export function formatChange(ratio: number): string {
  const pct = (ratio - 1) * 100;
  return percentText(pct, Math.abs(pct) < 10 ? 1 : 0, true);
}

/** 7, 48, 920, 1300: a rough count should not look precise. */
export function roughly(n: number): number {
  if (n < 100) return n;
  const scale = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.round(n / scale) * scale;
}

export function formatQ(q: number): string {
  if (q < 0.001) return '<0.001';
  return q < 0.1 ? q.toFixed(3) : q.toFixed(2);
}

/** A threshold or a target: "5%", "2.5%", at most two decimals. */
export function formatThreshold(t: number): string {
  const pct = t * 100;
  return Math.abs(pct) >= LARGEST_PERCENT ? percentText(pct, 2) : `${+pct.toFixed(2)}%`;
}


/** A count with a K/M/G suffix and four significant digits: "4,321" -> "4.321K", "4.32e6" -> "4.320M". */
export function formatCount(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1e9) return `${(n / 1e9).toPrecision(4)}G`;
  if (abs >= 1e6) return `${(n / 1e6).toPrecision(4)}M`;
  if (abs >= 1e3) return `${(n / 1e3).toPrecision(4)}K`;
  return abs >= 100 ? n.toFixed(0) : n.toPrecision(3);
}

/** Context switches per request: three significant digits ("1.06", "0.0172"), a count with its suffix from 100 on. */
export function formatSwitches(n: number): string {
  return Math.abs(n) >= 100 ? formatCount(n) : String(+n.toPrecision(3));
}

/** How a value and a range are written in each unit a saved run's metric can be in (core's schema declares them). */
const WRITTEN: Readonly<Record<Metric['unit'], { value(v: number): string; range(lo: number, hi: number): string }>> = {
  ns: { value: formatDuration, range: formatRange },
  ms: { value: (v) => formatDuration(v * 1e6), range: (lo, hi) => formatRange(lo * 1e6, hi * 1e6) },
  'req/s': { value: (v) => `${formatOps(v)} req/s`, range: (lo, hi) => `${formatOps(lo)}–${formatOps(hi)} req/s` },
  instructions: { value: (v) => `${formatCount(v)} instr`, range: (lo, hi) => `${formatCount(lo)}–${formatCount(hi)} instr` },
  switches: { value: (v) => `${formatSwitches(v)} switches`, range: (lo, hi) => `${formatSwitches(lo)}–${formatSwitches(hi)} switches` },
};

/** A value in its metric's unit: "41.2 ns", "23.4 ms", "12.3K req/s", "4.320M instr". */
export function formatMetric(value: number, metric: Pick<Metric, 'unit'>): string {
  return WRITTEN[metric.unit].value(value);
}

/** A range in its metric's unit: "40.9–41.8 µs", "11.2K–12.0K req/s". */
export function formatMetricRange(lo: number, hi: number, metric: Metric): string {
  return WRITTEN[metric.unit].range(lo, hi);
}
