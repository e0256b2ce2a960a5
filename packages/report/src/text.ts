/** Small text helpers every reporter shares (one copy each). */

/** The first line of a message, cut to `max` characters with an ellipsis. */
export function firstLine(text: string, max = 120): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Text safe inside a markdown table cell: pipes escaped, newlines flattened. */
export function markdownCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** Quote an argument the way a user would type it again in a shell. */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `"${arg.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** "1 case", "3 cases" */
export function plural(n: number, word: string, pluralWord = `${word}s`): string {
  return `${n} ${n === 1 ? word : pluralWord}`;
}

/** The last path segment, without node:path (views stay free of Node APIs). */
export function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}
