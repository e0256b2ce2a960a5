/**
 * Whether two processes' answers are the same work, after masking, and if
 * not, where they first differ. Each process learned its own holes, so one
 * may hold a hole where another, whose value never changed while it ran
 * (a time to the second), holds the value: a run of differing tokens is
 * forgiven only when one side has a hole there and every other token on
 * both sides is of a changing shape (holds a digit, or is white space or a
 * single mark). Anything else — another page, a missing section, a word —
 * is different work.
 */
import { diffArrays } from 'diff';
import type { MaskedAnswer, WorkDifference } from '../schema.ts';
import { HOLE_MARK, MOST_EDITS } from './template.ts';
import { tokenize } from './tokens.ts';

const HOLE: unique symbol = Symbol('hole');
type Piece = string | typeof HOLE;

function pieces(segments: readonly string[]): Piece[] {
  const out: Piece[] = [];
  segments.forEach((s, i) => {
    if (i > 0) out.push(HOLE);
    for (const token of tokenize(s)) out.push(token);
  });
  return out;
}

/** A token a changing value could have left where another process has a hole. */
export function changingShape(token: string): boolean {
  return /\d/.test(token) || /^\s+$/.test(token) || (token.length === 1 && !/[\p{L}\p{N}]/u.test(token));
}

const shownLength = (p: Piece): number => (p === HOLE ? HOLE_MARK.length : p.length);

/**
 * Where two templates first differ beyond what their holes forgive, as
 * offsets into each one's masked text (holes shown as HOLE_MARK); undefined
 * when they are the same work.
 */
export function templateDifference(a: { readonly segments: readonly string[] }, b: { readonly segments: readonly string[] }): { a: number; b: number } | undefined {
  const pa = pieces(a.segments);
  const pb = pieces(b.segments);
  const changes = diffArrays<Piece>(pa, pb, { maxEditLength: MOST_EDITS });
  // Too many differences to list: they differ, from the first character that does.
  if (!changes) return firstDifferentChar(pa, pb);
  let atA = 0;
  let atB = 0;
  for (let i = 0; i < changes.length; ) {
    const c = changes[i]!;
    if (!c.added && !c.removed) {
      atA += c.value.reduce((n, p) => n + shownLength(p), 0);
      atB += c.value.reduce((n, p) => n + shownLength(p), 0);
      i++;
      continue;
    }
    // One run of differences: the removed and added changes between two common ones.
    const removed: Piece[] = [];
    const added: Piece[] = [];
    for (; i < changes.length && (changes[i]!.added || changes[i]!.removed); i++) for (const token of changes[i]!.value) (changes[i]!.added ? added : removed).push(token);
    const hole = removed.includes(HOLE) || added.includes(HOLE);
    const changing = [...removed, ...added].every((p) => p === HOLE || changingShape(p));
    if (!hole || !changing) {
      // From the first character that differs: a run that starts with a line break both sides share is on the next line.
      const shown = (ps: Piece[]): string => ps.map((p) => (p === HOLE ? HOLE_MARK : p)).join('');
      const [ta, tb] = [shown(removed), shown(added)];
      let same = 0;
      while (same < ta.length && same < tb.length && ta[same] === tb[same]) same++;
      return { a: atA + same, b: atB + same };
    }
    atA += removed.reduce((n, p) => n + shownLength(p), 0);
    atB += added.reduce((n, p) => n + shownLength(p), 0);
  }
  return undefined;
}

function firstDifferentChar(pa: readonly Piece[], pb: readonly Piece[]): { a: number; b: number } {
  const text = (ps: readonly Piece[]): string => ps.map((p) => (p === HOLE ? HOLE_MARK : p)).join('');
  const ta = text(pa);
  const tb = text(pb);
  let i = 0;
  while (i < ta.length && i < tb.length && ta[i] === tb[i]) i++;
  return { a: i, b: i };
}

/** Characters of a line shown either side of where it differs. */
const SHOWN = 40;

/** The 1-based line holding `offset`, and that line clipped to SHOWN characters either side of its column. */
export function lineAt(text: string, offset: number): { line: number; column: number; text: string } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const endAt = text.indexOf('\n', offset);
  const whole = text.slice(start, endAt < 0 ? text.length : endAt);
  const column = offset - start;
  return { line: text.slice(0, start).split('\n').length, column, text: clip(whole, column) };
}

function clip(line: string, column: number): string {
  const from = Math.max(0, column - SHOWN);
  const to = Math.min(line.length, column + SHOWN);
  return `${from > 0 ? '…' : ''}${line.slice(from, to)}${to < line.length ? '…' : ''}`;
}

/** The first line where two texts differ (1-based) and each text's line; undefined when they are equal. */
export function firstDifferingLine(a: string, b: string): { line: number; a: string; b: string } | undefined {
  if (a === b) return undefined;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const la = lineAt(a, i);
  return { line: la.line, a: la.text, b: lineAt(b, i).text };
}

/** "GET / → 200 text/html". */
export function answerName(a: Pick<MaskedAnswer, 'request' | 'status' | 'contentType'>): string {
  return `${a.request} → ${a.status}${a.contentType ? ` ${a.contentType}` : ''}`;
}

const keyOf = (a: MaskedAnswer): string => answerName(a);

/**
 * Whether every variant's answers are the same work as the first's: the same
 * kinds of answer (request, status, content type), as many of each, and each
 * template the same once holes are forgiven. Undefined when they are; else
 * the first difference, with each variant's line there and length.
 */
export function answersDifference(byVariant: Readonly<Record<string, readonly MaskedAnswer[]>>): WorkDifference | undefined {
  const entries = Object.entries(byVariant);
  const [baseId, base] = entries[0] ?? [];
  if (!baseId || !base) return undefined;
  for (const [otherId, other] of entries.slice(1)) {
    const keys = [...new Set([...base, ...other].map(keyOf))];
    for (const key of keys) {
      const a = base.find((x) => keyOf(x) === key);
      const b = other.find((x) => keyOf(x) === key);
      if (!a || !b) return countsDiffer(key, byVariant);
      if (a.count !== b.count) return countsDiffer(key, byVariant);
      if (a.hash === b.hash) continue;
      const at = templateDifference(a, b);
      // Saved parts that agree say nothing of the rest: the whole templates' hashes differ.
      if (!at) {
        if (a.truncated || b.truncated || a.unmasked || b.unmasked) return beyondSaved(key, byVariant);
        continue;
      }
      const shownA = a.segments.join(HOLE_MARK);
      const where = lineAt(shownA, at.a);
      const shownB = b.segments.join(HOLE_MARK);
      const whereB = lineAt(shownB, at.b);
      const variants: WorkDifference['variants'] = Object.create(null);
      for (const [id, answers] of entries) {
        const mine = answers.find((x) => keyOf(x) === key);
        if (!mine) continue;
        variants[id] = { text: id === otherId ? whereB.text : id === baseId ? where.text : lineOfSame(mine, where.line, where.column), bytes: mine.bytes };
      }
      return { answer: key, line: where.line, variants };
    }
  }
  return undefined;
}

function lineOfSame(a: MaskedAnswer, line: number, column: number): string {
  const lines = a.segments.join(HOLE_MARK).split('\n');
  return clip(lines[line - 1] ?? '', column);
}

function countsDiffer(key: string, byVariant: Readonly<Record<string, readonly MaskedAnswer[]>>): WorkDifference {
  const variants: WorkDifference['variants'] = Object.create(null);
  for (const [id, answers] of Object.entries(byVariant)) {
    const mine = answers.find((x) => keyOf(x) === key);
    variants[id] = mine ? { text: `${mine.count} responses`, bytes: mine.bytes } : { text: `no such response (${answers.map((x) => `${answerName(x)} ×${x.count}`).join(', ')})` };
  }
  return { answer: key, variants };
}

function beyondSaved(key: string, byVariant: Readonly<Record<string, readonly MaskedAnswer[]>>): WorkDifference {
  const variants: WorkDifference['variants'] = Object.create(null);
  for (const [id, answers] of Object.entries(byVariant)) {
    const mine = answers.find((x) => keyOf(x) === key);
    if (mine) variants[id] = { text: mine.unmasked ? `${mine.unmasked} responses unlike the rest` : 'differs past the saved template', bytes: mine.bytes };
  }
  return { answer: key, variants };
}
