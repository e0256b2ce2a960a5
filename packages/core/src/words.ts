/** Words for counts and messages, shared by what decides (verdicts) and what prints (report). */

/** The first line of a message, cut to `max` characters with an ellipsis. */
export function firstLine(text: string, max = 120): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A line break written as the two characters `\n` (a CRLF as `\r\n`), so that a name or a reason stays on its one line. */
export function oneLine(text: string): string {
  return text.replace(/\r?\n|\r/g, (nl) => (nl === '\r\n' ? '\\r\\n' : nl === '\n' ? '\\n' : '\\r'));
}

/** A whole number with its thousands grouped: 100,000 (by hand: toLocaleString's first call loads the locale data, a start's cost). */
export const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** "1 process", "2 processes", "3 process pairs": a count and its noun, the plural made by English's rule for -s, -sh, -ch and -x. */
export function counted(n: number | string, noun: string): string {
  const one = Number(n) === 1;
  return `${n} ${one ? noun : /(s|sh|ch|x)$/.test(noun) ? `${noun}es` : `${noun}s`}`;
}
