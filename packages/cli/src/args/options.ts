/**
 * Parsing the options the user types. Every malformed or out-of-range value
 * is a UsageError: one line naming the option and what it takes, exit code 2.
 */
import { UsageError } from '../errors.ts';
import { BYTE_SIZE_HINT, parseByteSize } from '@rtbench/core/byte-size';
import { parseDurationMs } from '@rtbench/core/duration';

export { MAX_DURATION_MS } from '@rtbench/core/duration';

/** More fresh processes per case and runtime than anyone can wait for. */
const MAX_ROUNDS = 10_000;
/** Seeds are 32-bit (createRandom). */
const MAX_SEED = 2 ** 32 - 1;

/** "500ms", "2s", "1.5s", "1m", "1h" -> milliseconds (core duration.ts). A bare number is rejected: say the unit. */
export function parseDuration(text: string | number, option: string): number {
  const parsed = parseDurationMs(text);
  if ('why' in parsed) throw new UsageError(`${option} ${String(text)}: ${parsed.why}`);
  return parsed.ms;
}

/** A whole number from `min` to `max`, written in decimal digits. */
export function parseWholeNumber(text: string | number, option: string, min: number, max: number): number {
  const raw = String(text).trim();
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`${option} ${JSON.stringify(String(text))}: ` +
    `expected a whole number from ${min} to ${max}`);
  return n;
}

const UPPER_LIMITS: Record<string, number> = { '--rounds': MAX_ROUNDS, '--seed': MAX_SEED };

/** A whole number ≥ 1, up to the option's own limit (--rounds, --seed). */
export function parsePositiveInt(text: string | number, option: string): number {
  return parseWholeNumber(text, option, 1, UPPER_LIMITS[option] ?? Number.MAX_SAFE_INTEGER);
}

/** Less than a runtime needs to start: a bound this low stops every process. */
const MIN_MEMORY_BOUND = 64 * 2 ** 20;

/** "4GiB", "512MiB", "512M" (binary), "2GB" (decimal) -> bytes, at least 64 MiB. */
export function parseMemorySize(text: string, option: string): number {
  const bytes = parseByteSize(text);
  if (bytes === undefined) throw new UsageError(`${option} ${JSON.stringify(text)}: ${BYTE_SIZE_HINT}`);
  if (bytes < MIN_MEMORY_BOUND) throw new UsageError(`${option} ${text}: at least 64MiB (a runtime needs more than that to start)`);
  return bytes;
}

/** "1", "1%", "0.5%" -> 0.01, 0.01, 0.005. */
export function parsePercent(text: string | number, option: string): number {
  const m = /^(\d+(?:\.\d+)?)%?$/.exec(String(text).trim());
  const value = m ? Number(m[1]) / 100 : NaN;
  if (!(value >= 0 && value < 1)) throw new UsageError(`${option} ${String(text)}: expected a percentage from 0 to 99, e.g. 1 or 2.5%`);
  return value;
}
