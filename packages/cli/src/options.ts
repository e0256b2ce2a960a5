/**
 * Parsing the options the user types. Every malformed or out-of-range value
 * is a UsageError: one line naming the option and what it takes, exit code 2.
 */
import { UsageError } from './errors.ts';

/** The longest duration any option takes (a day): longer is a typo, and timers overflow past 24.8 days. */
export const MAX_DURATION_MS = 24 * 3600_000;
/** More fresh processes per case and runtime than anyone can wait for. */
const MAX_ROUNDS = 10_000;
/** Seeds are 32-bit (createRandom). */
const MAX_SEED = 2 ** 32 - 1;

const UNITS: Record<string, number> = { ms: 1, s: 1e3, m: 60e3 };

/** "500ms", "2s", "1.5s", "1m" -> milliseconds. A bare number is rejected: say the unit. */
export function parseDuration(text: string | number, option: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(String(text).trim());
  if (!m) {
    const hint = /^-/.test(String(text).trim()) ? ' (a duration cannot be negative)' : '';
    throw new UsageError(`${option} ${String(text)}: write a duration with its unit, e.g. 500ms, 2s or 1m${hint}`);
  }
  const ms = Number(m[1]) * UNITS[m[2]!]!;
  if (!(ms > 0)) throw new UsageError(`${option} ${String(text)}: must be more than 0`);
  if (ms > MAX_DURATION_MS) throw new UsageError(`${option} ${String(text)}: at most 24h (1440m)`);
  return ms;
}

/** A whole number from `min` to `max`, written in decimal digits. */
export function parseWholeNumber(text: string | number, option: string, min: number, max: number): number {
  const raw = String(text).trim();
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`${option} ${JSON.stringify(String(text))}: expected a whole number from ${min} to ${max}`);
  return n;
}

const UPPER_LIMITS: Record<string, number> = { '--rounds': MAX_ROUNDS, '--seed': MAX_SEED };

/** A whole number ≥ 1, up to the option's own limit (--rounds, --seed). */
export function parsePositiveInt(text: string | number, option: string): number {
  return parseWholeNumber(text, option, 1, UPPER_LIMITS[option] ?? Number.MAX_SAFE_INTEGER);
}
