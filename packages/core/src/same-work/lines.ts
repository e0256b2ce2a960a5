/** Where two texts differ, as a reader is shown it: the 1-based line, clipped around the column. */

/** Characters of a line shown either side of where it differs. */
const SHOWN = 40;

/** The 1-based line holding `offset`, and that line clipped to SHOWN characters either side of its column. */
export function lineAt(text: string, offset: number): { line: number; column: number; text: string } {
  // At offset 0 the line is the first (lastIndexOf clamps a negative start to 0, where a break would be found).
  const start = offset > 0 ? text.lastIndexOf('\n', offset - 1) + 1 : 0;
  const endAt = text.indexOf('\n', offset);
  const whole = text.slice(start, endAt < 0 ? text.length : endAt);
  const column = offset - start;
  return { line: text.slice(0, start).split('\n').length, column, text: clip(whole, column) };
}

export function clip(line: string, column: number): string {
  const from = Math.max(0, column - SHOWN);
  const to = Math.min(line.length, column + SHOWN);
  return `${from > 0 ? '…' : ''}${line.slice(from, to)}${to < line.length ? '…' : ''}`;
}

/** The first line where two texts differ (1-based) and each text's line; undefined when they are equal. */
export function firstDifferingLine(a: string, b: string): { line: number; a: string; b: string } | undefined {
  if (a === b) return undefined;
  let i = 0;
  // They differ, so the walk stops within the longer: past the shorter's end its character is undefined.
  while (a[i] === b[i]) i++;
  const la = lineAt(a, i);
  return { line: la.line, a: la.text, b: lineAt(b, i).text };
}
