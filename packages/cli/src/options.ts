/** Parsing option values the user types. */
import { UsageError } from './errors.ts';

/** "500ms", "2s", "1.5s", "1m" -> milliseconds. A bare number is rejected: say the unit. */
export function parseDuration(text: string | number, option: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(String(text).trim());
  if (!m) throw new UsageError(`${option} ${String(text)}: write a duration with its unit, e.g. 500ms, 2s or 1m`);
  const value = Number(m[1]);
  const ms = m[2] === 'ms' ? value : m[2] === 's' ? value * 1e3 : value * 60e3;
  if (ms <= 0) throw new UsageError(`${option} must be more than 0`);
  return ms;
}

export function parsePositiveInt(text: string | number, option: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${option} ${String(text)}: expected a whole number ≥ 1`);
  return n;
}
