/**
 * Labels inside charts (SVG text does not wrap on its own): broken into
 * lines at spaces and after - / , = [, never cut in the middle. What still
 * does not fit keeps its end — where variant flags and case parameters,
 * the parts that tell labels apart, are — behind a leading "…"; the chart
 * gives the full text as a tooltip.
 */

/** Break opportunities: after a space, hyphen, slash, comma or equals sign, and before "[" or "(". */
function pieces(text: string): string[] {
  return text.split(/(?<=[\s\-/,=])|(?=[[(])/).filter((p) => p !== '');
}

/** Keeps the end of a line that is too long: "…size=64". */
function keepEnd(line: string, maxChars: number): string {
  return line.length <= maxChars ? line : `…${line.slice(line.length - Math.max(1, maxChars - 1))}`;
}

/** `text` as at most `maxLines` lines of about `maxChars` characters, joined by "\n". */
export function wrapLabel(text: string, maxChars: number, maxLines = 3): string {
  const width = Math.max(4, Math.floor(maxChars));
  const lines: string[] = [];
  let line = '';
  for (const piece of pieces(text)) {
    if (line && (line + piece).trimEnd().length > width) {
      lines.push(line.trimEnd());
      line = piece.trimStart();
    } else line += piece;
  }
  if (line.trim()) lines.push(line.trimEnd());
  const fitted = lines.map((l) => keepEnd(l, width));
  if (fitted.length <= maxLines) return fitted.join('\n');
  // Too many lines: keep the last ones, and say that the start was left out.
  const kept = fitted.slice(fitted.length - maxLines);
  kept[0] = keepEnd(`…${kept[0]!}`, width);
  return kept.join('\n');
}
