/**
 * A duration as a person writes it: "500ms", "2s", "1.5s", "1m", "1h". A
 * bare number is refused: say the unit. The command line (`--time`) and a
 * measurer's own options (`--run-up`) read durations the same way.
 */

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1e3, m: 60e3, h: 3600e3 };

/** The longest duration any option takes (a day): longer is a typo, and timers overflow past 24.8 days. */
export const MAX_DURATION_MS = 24 * 3600_000;

/** The units and range every duration option takes, for its messages. */
const DURATIONS_TAKEN = 'units ms, s, m and h (e.g. 500ms, 2s, 1m, 1h), more than 0 and at most 24h';

/** The milliseconds a duration names, or why it names none (the option's name and value go before it). */
export function parseDurationMs(text: string | number): { ms: number } | { why: string } {
  const raw = String(text).trim();
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(raw);
  if (!m) {
    const unit = /^\d+(?:\.\d+)?\s*(\D\S*)$/.exec(raw)?.[1];
    const why = /^-/.test(raw) ? 'a duration cannot be negative' : unit !== undefined ? `"${unit}" is not a unit rtbench takes` : 'write a duration with its unit';
    return { why: `${why}; durations take ${DURATIONS_TAKEN}` };
  }
  const ms = Number(m[1]) * UNITS[m[2]!]!;
  if (!(ms > 0)) return { why: 'must be more than 0' };
  if (ms > MAX_DURATION_MS) return { why: 'at most 24h (1440m)' };
  return { ms };
}
