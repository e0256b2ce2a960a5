/** Words for counts and messages, shared by what decides (verdicts) and what prints (report). */

/** The first line of a message, cut to `max` characters with an ellipsis. */
export function firstLine(text: string, max = 120): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** "1 process", "2 processes", "3 process pairs": a count and its noun, the plural made by English's rule for -s, -sh, -ch and -x. */
export function counted(n: number | string, noun: string): string {
  const one = Number(n) === 1;
  return `${n} ${one ? noun : /(s|sh|ch|x)$/.test(noun) ? `${noun}es` : `${noun}s`}`;
}
