/**
 * Display width: the columns a string takes on a terminal. Every text
 * emitter measures, pads and cuts through here, so a case or function name
 * in CJK or with an emoji (two columns a character) lines up and wraps as
 * an ASCII one does. Colour codes take no column.
 */
import stringWidth from 'string-width';
import { printable } from './text.ts';

/**
 * A text of characters one column each that printable leaves as they are:
 * printable ASCII and the signs, dashes, rules, arrows, units and sparkline
 * bars the emitters write. Most texts measured (a history's grids, its rule
 * and its "—" for no commit) are only these, counted without string-width,
 * whose first call compiles its emoji pattern (display-width.test.ts checks
 * each character against it).
 */
const NARROW_ONLY = /^[ -~×–—−÷…±µ·’†≠≈≤≥→▲▼─▁-█]*$/;

/** Widths already measured, of short texts: a table measures each cell several times (its column, its padding, its fit). */
const widths = new Map<string, number>();

/**
 * Columns `s` takes on screen as the output shows it: its control characters
 * as printable writes them (`␛`, `\x07`), wide characters two, combining
 * marks and colour codes none. Measured on the raw text, a name's escape
 * sequences would count as nothing and its lines would wrap past the width.
 */
export function displayWidth(s: string): number {
  let width = widths.get(s);
  if (width === undefined) {
    width = NARROW_ONLY.test(s) ? s.length : stringWidth(printable(s, { keepColours: true }));
    if (s.length <= 256) {
      if (widths.size >= 50_000) widths.clear();
      widths.set(s, width);
    }
  }
  return width;
}

/** `text` padded with spaces to `width` columns, on the right (left-aligned) or the left; as it is when wider already. */
export function padToWidth(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}

/** Made at the first cut that needs it: an Intl.Segmenter loads the locale data, a cost most outputs (all ASCII) never need. */
let graphemes: Intl.Segmenter | undefined;

/**
 * `word` in pieces of at most `width` columns, cut between characters as seen
 * (an emoji with its modifier stays whole); one character wider than `width`
 * is a piece of its own. The word whole when it fits or `width` is below 1.
 */
export function cutToWidth(word: string, width: number): string[] {
  if (width < 1 || displayWidth(word) <= width) return [word];
  const pieces: string[] = [];
  let piece = '';
  let used = 0;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of graphemes.segment(word)) {
    const w = displayWidth(segment);
    if (piece && used + w > width) {
      pieces.push(piece);
      piece = '';
      used = 0;
    }
    piece += segment;
    used += w;
  }
  return [...pieces, piece];
}

/** `text` within `width` columns: as it is when it fits, else cut to `width` − 1 columns and an ellipsis. */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  return `${cutToWidth(text, Math.max(1, width - 1))[0]}…`;
}
