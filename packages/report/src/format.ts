/** Number formatting shared by every report format. */

/** 41.2 ns, 1.23 µs, 4.56 ms, 1.20 s: three significant digits. */
export function formatDuration(ns: number): string {
  const abs = Math.abs(ns);
  const [value, unit] = abs < 1e3 ? [ns, 'ns'] : abs < 1e6 ? [ns / 1e3, 'µs'] : abs < 1e9 ? [ns / 1e6, 'ms'] : [ns / 1e9, 's'];
  return `${value.toPrecision(3).replace(/\.?0+$/, (m) => (m.includes('.') ? '' : m))} ${unit}`;
}

/** A range in one unit: "40.9–41.8 µs". */
export function formatRange(lo: number, hi: number): string {
  const [a, unit] = formatDuration(hi).split(' ') as [string, string];
  const scale = unit === 'ns' ? 1 : unit === 'µs' ? 1e3 : unit === 'ms' ? 1e6 : 1e9;
  void a;
  return `${(lo / scale).toPrecision(3)}–${(hi / scale).toPrecision(3)} ${unit}`;
}

/** 24.3M, 812K, 95.1 */
export function formatOps(opsPerSecond: number): string {
  if (opsPerSecond >= 1e9) return `${(opsPerSecond / 1e9).toPrecision(3)}G`;
  if (opsPerSecond >= 1e6) return `${(opsPerSecond / 1e6).toPrecision(3)}M`;
  if (opsPerSecond >= 1e3) return `${(opsPerSecond / 1e3).toPrecision(3)}K`;
  return opsPerSecond.toPrecision(3);
}

/** 12.3%, 1.2%, 0.04%: small values keep a significant digit instead of reading "0.0%". */
export function formatPercent(fraction: number, digits = 1): string {
  const pct = fraction * 100;
  if (pct !== 0 && Math.abs(pct) < 0.1) return `${pct.toPrecision(1)}%`;
  return `${pct.toFixed(digits)}%`;
}
