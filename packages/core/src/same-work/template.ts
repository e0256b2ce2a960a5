/**
 * The masked template of one request's responses: the text every response
 * shared, with a hole where responses differed in a value (a time, an id, a
 * counter). It is learned one response at a time: a response that fits the
 * template changes nothing; one that does not is aligned with it by shape
 * (the `diff` library's Myers diff over tokenize()'s tokens, every value
 * token standing for any value), and each run where the two differ becomes
 * one hole, if it is all values. A word, a section or white space that
 * differs is not a changing value: the response is unlike the template,
 * and nothing of it is masked. A hole only ever comes from a difference
 * seen between two responses, so text that never changed is never masked.
 */
import { diffArrays } from 'diff';
import { markToken, tokenize, valueText, valueToken } from './tokens.ts';

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

/** How much longer than anything it stood for a hole's text may be (a counter gaining a digit). */
export const HOLE_SLACK = 8;

/** Differences in structure (tokens that are not values: a value written in more or fewer parts, "1,000" for "999") aligned before two responses are taken as two pages. */
export const MOST_SHAPE_EDITS = 128;

/** The most of a response's characters its holes may stand for, as a share: a page that is nearly all values proves little of its work. */
export const MOST_MASKED_SHARE = 0.75;
/** Characters any response may have masked whatever its length (a short body that is mostly a time and an id). */
const ALWAYS_MASKABLE_CHARS = 256;

/** A template's holes at most: one hole is an entry per learned response's value, so this bounds the memory a page of values can take. */
export const MOST_HOLES = 100_000;

/** Why a response could not be learned into a template: what a reader is told. */
export type Unlike =
  /** They differ in something that is not a value, first at offset `a` of the template's masked text and `b` of the response; `many`: in more than MOST_SHAPE_EDITS places. */
  | { why: 'structure'; a: number; b: number; many?: true; side?: 'added' | 'missing' }
  /** Masking it would have hidden more than MOST_MASKED_SHARE of the response. */
  | { why: 'share'; maskedChars: number; chars: number }
  /** Masking it would take more than MOST_HOLES holes. */
  | { why: 'holes'; holes: number };

/** A token of a template: literal text, or a hole. */
type Piece = string | typeof HOLE;
const HOLE: unique symbol = Symbol('hole');

/** A template that is the text itself: nothing masked yet. */
export function literalTemplate(text: string): Template {
  return { segments: [text], widths: [] };
}

export function holes(t: Pick<Template, 'segments'>): number {
  return t.segments.length - 1;
}

/** Characters of the template that are literal (not masked). */
export function literalLength(t: Pick<Template, 'segments'>): number {
  return t.segments.reduce((n, s) => n + s.length, 0);
}

/**
 * Whether the text can be written as the template's segments in order,
 * each hole holding only what a value is made of (valueText) and at most
 * HOLE_SLACK more characters than it has stood for, so a word or section
 * added next to a changing value does not pass as part of it. The first
 * segment must start the text and the last end it; the ones between are
 * found leftmost. That can miss a fit (a segment found too early): a miss
 * only sends the text to learnFrom()'s alignment, which finds the fit if
 * there is one.
 */
export function fits(t: Template, text: string): boolean {
  return holeValues(t, text) !== undefined;
}

/** The text each hole holds when the text fits the template (fits()), in order; undefined when it does not. */
function holeValues(t: Template, text: string): string[] | undefined {
  const { segments } = t;
  if (segments.length === 1) return segments[0] === text ? [] : undefined;
  const first = segments[0]!;
  const last = segments[segments.length - 1]!;
  if (first.length + last.length > text.length || !text.startsWith(first) || !text.endsWith(last)) return undefined;
  const values: string[] = [];
  const held = (hole: number, from: number, to: number): boolean => {
    const value = text.slice(from, to);
    values.push(value);
    return to - from <= (t.widths[hole] ?? 0) + HOLE_SLACK && valueText(value);
  };
  let at = first.length;
  const end = text.length - last.length;
  for (let i = 1; i < segments.length - 1; i++) {
    const found = text.indexOf(segments[i]!, at);
    if (found < 0 || found + segments[i]!.length > end || !held(i - 1, at, found)) return undefined;
    at = found + segments[i]!.length;
  }
  return held(segments.length - 2, at, end) ? values : undefined;
}

function pieces(segments: readonly string[]): Piece[] {
  const out: Piece[] = [];
  segments.forEach((s, i) => {
    if (i > 0) out.push(HOLE);
    for (const token of tokenize(s)) out.push(token);
  });
  return out;
}

/** What a piece is aligned as: any value (or hole) stands for any other. */
const VALUE = '\u0000value';
const shape = (p: Piece): string => (p === HOLE || valueToken(p) ? VALUE : p);
const sameShape = (a: Piece, b: Piece): boolean => shape(a) === shape(b);
const shown = (p: Piece): number => (p === HOLE ? HOLE_MARK.length : p.length);

/** A stretch of two aligned piece lists: literal text both share, or a region where they differ (in values, a hole, or more). */
type Step = { same: string } | { a: Piece[]; b: Piece[]; atA: number; atB: number };

/**
 * The two lists aligned by shape, as steps; or, when they differ in more
 * than MOST_SHAPE_EDITS places, the offsets (shown text) where they first do.
 */
function align(a: readonly Piece[], b: readonly Piece[]): Step[] | { a: number; b: number } {
  const changes = diffArrays<Piece>(a as Piece[], b as Piece[], { comparator: sameShape, maxEditLength: MOST_SHAPE_EDITS });
  if (!changes) {
    let i = 0;
    let atA = 0;
    let atB = 0;
    while (i < a.length && i < b.length && sameShape(a[i]!, b[i]!)) {
      atA += shown(a[i]!);
      atB += shown(b[i]!);
      i++;
    }
    return { a: atA, b: atB };
  }
  const steps: Step[] = [];
  let region: { a: Piece[]; b: Piece[]; atA: number; atB: number } | undefined;
  let i = 0;
  let j = 0;
  let atA = 0;
  let atB = 0;
  const take = (side: 'a' | 'b', p: Piece): void => {
    region ??= { a: [], b: [], atA, atB };
    region[side].push(p);
    if (side === 'a') atA += shown(p);
    else atB += shown(p);
  };
  for (const c of changes) {
    const n = c.count ?? c.value.length;
    if (c.removed) for (let k = 0; k < n; k++) take('a', a[i++]!);
    else if (c.added) for (let k = 0; k < n; k++) take('b', b[j++]!);
    else
      for (let k = 0; k < n; k++, i++, j++) {
        const p = a[i]!;
        const q = b[j]!;
        if (typeof p === 'string' && p === q) {
          if (region) steps.push(region);
          region = undefined;
          const last = steps.at(-1);
          if (last && 'same' in last) last.same += p;
          else steps.push({ same: p });
          atA += p.length;
          atB += p.length;
        } else {
          take('a', p);
          take('b', q);
        }
      }
  }
  if (region) steps.push(region);
  return steps;
}

/** Whether a region only adds to one side: what the other has there is at most a value. */
function sideOf(r: { a: readonly Piece[]; b: readonly Piece[] }): { side?: 'added' | 'missing' } {
  const atMostValue = (ps: readonly Piece[]): boolean => ps.every((p) => p === HOLE || valueToken(p) || markToken(p));
  return atMostValue(r.a) ? { side: 'added' } : atMostValue(r.b) ? { side: 'missing' } : {};
}

/** A region a changing value can explain: all values and marks, with a value or a hole in it. */
function valueRegion(r: { a: readonly Piece[]; b: readonly Piece[] }): boolean {
  const all = [...r.a, ...r.b];
  return all.every((p) => p === HOLE || valueToken(p) || markToken(p)) && all.some((p) => p === HOLE || valueToken(p));
}

/** A template widened to fit a text, with what each hole held and where it came from (learnFrom). */
export interface Learned {
  template: Template;
  /** The text each hole held, in order. */
  values: string[];
  /** Per hole, the old template's holes it took in (none: made where the template was literal). */
  from: number[][];
  /** Per hole made where the template was literal, the text it had there; per hole that took in more than one old hole or literal text beside it, 'merged'. */
  was: (string | 'merged' | undefined)[];
}

/**
 * The template widened to fit the text, or why the text is unlike it; with
 * the text each hole held, and per hole the old template's holes it took in
 * (a hole that stayed is its own one).
 */
export function learnFrom(t: Template, text: string): Learned | { unlike: Unlike } {
  const held = holeValues(t, text);
  if (held) return { template: t, values: held, from: held.map((_, i) => [i]), was: held.map(() => undefined) };
  const steps = align(pieces(t.segments), tokenize(text));
  if (!Array.isArray(steps)) return { unlike: { why: 'structure', ...steps, many: true } };
  const segments: string[] = [''];
  const widths: number[] = [];
  const values: string[] = [];
  const from: number[][] = [];
  // Per new hole made where the template was literal: the text it had there (every earlier response's value).
  const literalBefore: Learned['was'] = [];
  let oldHole = 0;
  let masked = 0;
  for (const s of steps) {
    if ('same' in s) {
      segments[segments.length - 1] += s.same;
      continue;
    }
    if (!valueRegion(s)) return { unlike: { why: 'structure', ...firstDifferent(s), ...sideOf(s) } };
    let was = 0;
    const took: number[] = [];
    for (const p of s.a) {
      if (p === HOLE) took.push(oldHole);
      was += p === HOLE ? (t.widths[oldHole++] ?? 0) : p.length;
    }
    const value = s.b.join('');
    masked += value.length;
    widths.push(Math.max(was, value.length));
    values.push(value);
    from.push(took);
    literalBefore.push(took.length === 0 ? s.a.join('') : s.a.length === 1 ? undefined : 'merged');
    segments.push('');
  }
  const chars = text.length;
  if (masked > Math.max(ALWAYS_MASKABLE_CHARS, MOST_MASKED_SHARE * chars)) return { unlike: { why: 'share', maskedChars: masked, chars } };
  if (widths.length > MOST_HOLES) return { unlike: { why: 'holes', holes: widths.length } };
  return { template: { segments, widths }, values, from, was: literalBefore };
}

/** The template widened to fit the text; undefined when the text is unlike it (learnFrom says why). */
export function widen(t: Template, text: string): Template | undefined {
  const learned = learnFrom(t, text);
  return 'template' in learned ? learned.template : undefined;
}

/** The template learned from responses to one request, in the order they came; undefined when one is unlike the rest. */
export function learn(texts: readonly string[]): Template | undefined {
  if (!texts.length) return undefined;
  let t: Template | undefined = literalTemplate(texts[0]!);
  for (const text of texts.slice(1)) {
    t = widen(t, text);
    if (!t) return undefined;
  }
  return t;
}

/**
 * Where two templates (two variants' answers) first differ beyond what
 * their holes forgive, as offsets into each one's masked text; undefined
 * when they are the same work. A region where they differ is forgiven only
 * when a hole is in it and the rest is values: a value one variant held
 * still facing the other's changing one — unless that hole's value came
 * back to one it had left (`returning`: 41, 42, 41 facing 42 every time),
 * or it took only a few values over the whole run and the still one is
 * among them (`fewValues`: 42 for forty requests and 41 after, or 41 in one
 * process only, facing 42 every time). Two values that each held still and differ (41 against 42) are different
 * work, as is any word.
 */
export function templateDifference(a: TemplateSaid, b: TemplateSaid): { a: number; b: number } | undefined {
  const steps = align(pieces(a.segments), pieces(b.segments));
  if (!Array.isArray(steps)) return steps;
  const [returnsA, returnsB] = [new Set(a.returning), new Set(b.returning)];
  const [fewA, fewB] = [fewOf(a), fewOf(b)];
  let [holeA, holeB] = [0, 0];
  for (const s of steps) {
    if ('same' in s) continue;
    const holesOf = (ps: readonly Piece[], first: number): number[] => Array.from({ length: ps.filter((p) => p === HOLE).length }, (_, k) => first + k);
    const [ha, hb] = [holesOf(s.a, holeA), holesOf(s.b, holeB)];
    holeA += ha.length;
    holeB += hb.length;
    // Facing a value held still, a hole that once held that very text among a few is an answer that changed, not a time or an id.
    const heldOnce = (holes: number[], few: ReadonlyMap<number, ReadonlySet<string>>, still: readonly Piece[]): boolean => few.get(holes[0]!)?.has(still.join('')) === true;
    const stillFacing = (holes: number[], returns: Set<number>, few: ReadonlyMap<number, ReadonlySet<string>>, other: number[], still: readonly Piece[]): boolean =>
      holes.length > 0 && (other.length > 0 || !(holes.some((h) => returns.has(h)) || heldOnce(holes, few, still)));
    const forgiven = valueRegion(s) && (stillFacing(ha, returnsA, fewA, hb, s.b) || stillFacing(hb, returnsB, fewB, ha, s.a));
    if (!forgiven) return firstDifferent(s);
  }
  return undefined;
}

/** A template as saved: its segments, the holes whose value came back to one it had left, and the holes that took few values, with them. */
type TemplateSaid = Pick<Template, 'segments'> & { readonly returning?: readonly number[]; readonly fewValues?: readonly (readonly [number, readonly string[]])[] };

const fewOf = (t: TemplateSaid): Map<number, Set<string>> => new Map(t.fewValues?.map(([hole, values]) => [hole, new Set(values)]));

/** Where a region's two sides first differ by character: a run that starts with text both share is pointed past it. */
function firstDifferent(s: { a: readonly Piece[]; b: readonly Piece[]; atA: number; atB: number }): { a: number; b: number } {
  const text = (ps: readonly Piece[]): string => ps.map((p) => (p === HOLE ? HOLE_MARK : p)).join('');
  const [ta, tb] = [text(s.a), text(s.b)];
  let same = 0;
  while (same < ta.length && same < tb.length && ta[same] === tb[same]) same++;
  return { a: s.atA + same, b: s.atB + same };
}

/** How a hole is shown to a reader. */
export const HOLE_MARK = '⟨…⟩';

/** The template as text, each hole shown as HOLE_MARK. */
export function maskedText(t: Pick<Template, 'segments'>): string {
  return t.segments.join(HOLE_MARK);
}
