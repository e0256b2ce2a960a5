/**
 * The masked template of one request's responses in one process: the text
 * every response shared, with a hole where responses differed (a time, an
 * id, a counter). It is learned one response at a time: a response that
 * fits the template changes nothing; one that does not is diffed against it
 * token by token (the `diff` library's Myers diff over tokenize()'s
 * tokens), and every run of tokens that differs becomes one hole. A hole
 * only ever comes from a difference seen between two responses to the same
 * request, so text that never changed in that process is never masked.
 */
import { diffArrays } from 'diff';
import { tokenize } from './tokens.ts';

/**
 * The literal text between holes: `segments.length - 1` holes, one between
 * each two segments (a segment may be empty: a hole at the start, or two
 * holes one token apart are kept as one).
 */
export interface Template {
  readonly segments: readonly string[];
  /** Per hole, the longest text it has stood for, in characters: it fits at most HOLE_SLACK more. */
  readonly widths: readonly number[];
}

/** How much longer than anything it stood for a hole's text may be (a counter gaining a digit, a shorter month's name). */
export const HOLE_SLACK = 8;

/** A token of a template: literal text, or a hole. */
type Piece = string | typeof HOLE;
const HOLE: unique symbol = Symbol('hole');

/** A template that is the text itself: nothing masked yet. */
export function literalTemplate(text: string): Template {
  return { segments: [text], widths: [] };
}

export function holes(t: Template): number {
  return t.segments.length - 1;
}

/** Characters of the template that are literal (not masked). */
export function literalLength(t: Template): number {
  return t.segments.reduce((n, s) => n + s.length, 0);
}

/**
 * Whether the text can be written as the template's segments in order with
 * at most HOLE_SLACK more characters in each hole than it has stood for, so a section added
 * next to a changing value does not pass as part of it. The first segment
 * must start the text and the last end it; the ones between are found
 * leftmost. That can miss a fit (a segment found too early): a miss only
 * sends the text to widen()'s diff, which finds the fit if there is one.
 */
export function fits(t: Template, text: string): boolean {
  const { segments } = t;
  if (segments.length === 1) return segments[0] === text;
  const first = segments[0]!;
  const last = segments[segments.length - 1]!;
  if (first.length + last.length > text.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  const most = (hole: number): number => (t.widths[hole] ?? 0) + HOLE_SLACK;
  let at = first.length;
  const end = text.length - last.length;
  for (let i = 1; i < segments.length - 1; i++) {
    const found = text.indexOf(segments[i]!, at);
    if (found < 0 || found - at > most(i - 1) || found + segments[i]!.length > end) return false;
    at = found + segments[i]!.length;
  }
  return end - at <= most(segments.length - 2);
}

function pieces(t: Template): Piece[] {
  const out: Piece[] = [];
  t.segments.forEach((s, i) => {
    if (i > 0) out.push(HOLE);
    for (const token of tokenize(s)) out.push(token);
  });
  return out;
}

/** Pieces back into a template: adjacent holes become one. */
function fromPieces(ps: readonly Piece[], widths: readonly number[]): Template {
  const segments: string[] = [''];
  let lastWasHole = false;
  for (const p of ps) {
    if (p === HOLE) {
      if (!lastWasHole) segments.push('');
      lastWasHole = true;
    } else {
      segments[segments.length - 1] += p;
      lastWasHole = false;
    }
  }
  return { segments, widths };
}

/** Above this many differing tokens between two responses, they are not taken as one page with changing spans. */
export const MOST_EDITS = 1_000;

/**
 * The template widened to fit the text: every run of tokens where the two
 * differ becomes a hole. Undefined when they differ in more than MOST_EDITS
 * tokens (two different pages, not one page with changing values).
 */
export function widen(t: Template, text: string): Template | undefined {
  if (fits(t, text)) return t;
  const before = pieces(t);
  const changes = diffArrays<Piece>(before, tokenize(text), { maxEditLength: MOST_EDITS });
  if (!changes) return undefined;
  const out: Piece[] = [];
  // Per new hole: the text it now stands for (the added tokens of its run of changes), or more if an old hole in the run stood for more.
  const widths: number[] = [];
  // A hole never equals a token, so every old hole is in a removed change, in order.
  let oldHole = 0;
  for (const c of changes) {
    if (!c.added && !c.removed) {
      for (const token of c.value) out.push(token);
      continue;
    }
    if (out.at(-1) !== HOLE) {
      out.push(HOLE);
      widths.push(0);
    }
    let width = widths.at(-1)!;
    for (const p of c.value) {
      if (c.added) width += (p as string).length;
      else if (p === HOLE) width = Math.max(width, t.widths[oldHole++] ?? 0);
    }
    widths[widths.length - 1] = width;
  }
  return fromPieces(out, widths);
}

/** The template learned from a process's responses to one request, in the order they came. */
export function learn(texts: readonly string[]): Template | undefined {
  if (!texts.length) return undefined;
  let t: Template | undefined = literalTemplate(texts[0]!);
  for (const text of texts.slice(1)) {
    t = widen(t, text);
    if (!t) return undefined;
  }
  return t;
}

/** How a hole is shown to a reader. */
export const HOLE_MARK = '⟨…⟩';

/** The template as text, each hole shown as HOLE_MARK. */
export function maskedText(t: Template): string {
  return t.segments.join(HOLE_MARK);
}
