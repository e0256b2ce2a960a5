/**
 * A CPU time as a person writes it: '10ms', '500us' (or µs), '1s'.
 * Runtime-neutral: a suite's claims (`p99: below('10ms')`) and the command
 * line (`--cpu-limit`) read CPU times the same way.
 */

const MS_PER_UNIT: Readonly<Record<string, number>> = { us: 0.001, µs: 0.001, ms: 1, s: 1000 };

/** The largest CPU limit per request, in ms (a day): past it a limit is a typo no request could reach, and prints as no one reads it. */
export const MAX_CPU_LIMIT_MS = 86_400_000;

/** The milliseconds a CPU time names, or undefined when it is not a number with one of those units. */
export function parseCpuTime(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(us|µs|ms|s)$/.exec(text.trim());
  return m ? Number(m[1]) * MS_PER_UNIT[m[2]!]! : undefined;
}
