/**
 * Whether variants' answers are the same work, after masking, and if not,
 * where they first differ. Each variant learned its own holes (across its
 * processes), so one may hold a hole where another, whose value never
 * changed while it ran, holds the value: a region where they differ is
 * forgiven only when a hole is in it and the rest is values
 * (templateDifference). Anything else — another page, a missing section, a
 * word, two values that each held still and differ — is different work; so
 * is a variant whose own responses differed in more than values.
 */
import type { MaskedAnswer, WorkDifference } from '../schema.ts';
import { grouped } from '../words.ts';
import { clip, lineAt } from './lines.ts';
import { MOST_LEARNED_CHARS } from './answers.ts';
import { HOLE_MARK, templateDifference } from './template.ts';

/** "GET / → 200 text/html", and any header compared besides: "GET / → 302 location: /next". */
export function answerName(a: Pick<MaskedAnswer, 'request' | 'status' | 'contentType' | 'headers'>): string {
  const headers = Object.entries(a.headers ?? {})
    .sort(([x], [y]) => (x < y ? -1 : 1))
    .map(([name, value]) => ` ${name}: ${value}`)
    .join(';');
  return `${a.request} → ${a.status}${a.contentType ? ` ${a.contentType}` : ''}${headers}`;
}

/**
 * What a masked round's digest is taken of: each kind of answer's name and
 * template hash, in the order they came (`hash`: sha256 hex of a text, the
 * host's). A saved round's answers give it again, so a digest edited apart
 * from its answers is seen.
 */
export function maskedDigestText(answers: readonly Pick<MaskedAnswer, 'request' | 'status' | 'contentType' | 'headers' | 'hash'>[], hash: (text: string) => string): string {
  return `masked sha256 ${hash(answers.map((a) => `${a.request} ${a.status} ${a.contentType ?? ''} ${JSON.stringify(a.headers ?? {})} ${a.hash}`).join('\n'))}`;
}

/** A variant's own responses that were unlike each other, in words: why, and the line where. */
export function unlikeText(a: MaskedAnswer): string {
  if (!a.unlike) return `${a.unmasked} responses unlike the rest`;
  const { responses, why, line, response } = a.unlike;
  return `${responses} of ${a.count} responses unlike the rest: ${why}${line !== undefined && response !== undefined ? ` (${JSON.stringify(response)})` : ''}`;
}

/**
 * Whether every variant's answers are the same work as the first's: the
 * same kinds of answer (request, status, content type, headers compared),
 * each learned without a response unlike the rest, and each template the
 * same once holes are forgiven. How many of each came is not compared: a
 * round cut short by a time-out answered fewer, and says so itself. Nor is
 * a kind of answer one variant lacks where its requests of that name got no
 * whole response (`unanswered`, per variant: request names such as
 * "GET /slow"): a time-out, counted and said as one, not other work.
 * Undefined when they are; else the first difference, with each variant's
 * line there and length.
 */
export function answersDifference(byVariant: Readonly<Record<string, readonly MaskedAnswer[]>>, unanswered: Readonly<Record<string, ReadonlySet<string>>> = {}): WorkDifference | undefined {
  const entries = Object.entries(byVariant);
  const [baseId, base] = entries[0] ?? [];
  if (!baseId || !base) return undefined;
  for (const [otherId, other] of entries) {
    const keys = [...new Set([...base, ...other].map(answerName))];
    for (const key of keys) {
      const a = base.find((x) => answerName(x) === key);
      const b = other.find((x) => answerName(x) === key);
      if (!a ? neverAnswered(base, unanswered[baseId], b!.request) : !b && neverAnswered(other, unanswered[otherId], a.request)) continue;
      if (!a || !b) return kindsDiffer(key, byVariant);
      if (a.unmasked || b.unmasked) return unlikeWithin(key, byVariant);
      if (a.tail?.hash !== b.tail?.hash) return tailsDiffer(key, byVariant);
      if (a.hash === b.hash) continue;
      const at = templateDifference(a, b);
      // Saved parts that agree say nothing of the rest: the whole templates' hashes differ.
      if (!at) {
        if (a.truncated || b.truncated) return beyondSaved(key, byVariant);
        continue;
      }
      const shownA = a.segments.join(HOLE_MARK);
      const where = lineAt(shownA, at.a);
      const whereB = lineAt(b.segments.join(HOLE_MARK), at.b);
      const variants: WorkDifference['variants'] = Object.create(null);
      for (const [id, answers] of entries) {
        const mine = answers.find((x) => answerName(x) === key);
        if (!mine) continue;
        variants[id] = { text: id === otherId ? whereB.text : id === baseId ? where.text : lineOfSame(mine, where.line, where.column), bytes: mine.bytes };
      }
      return { answer: key, line: whereB.line, variants };
    }
  }
  return undefined;
}

/** Whether a variant's requests named `request` all went unanswered: none of its answers is to one, and one got no whole response. */
function neverAnswered(answers: readonly MaskedAnswer[], unanswered: ReadonlySet<string> | undefined, request: string): boolean {
  return unanswered?.has(request) === true && !answers.some((x) => x.request === request);
}

function lineOfSame(a: MaskedAnswer, line: number, column: number): string {
  const lines = a.segments.join(HOLE_MARK).split('\n');
  return clip(lines[line - 1] ?? '', column);
}

function kindsDiffer(key: string, byVariant: Readonly<Record<string, readonly MaskedAnswer[]>>): WorkDifference {
  const variants: WorkDifference['variants'] = Object.create(null);
  for (const [id, answers] of Object.entries(byVariant)) {
    const mine = answers.find((x) => answerName(x) === key);
    variants[id] = mine ? { text: `${mine.count} responses`, bytes: mine.bytes } : { text: `no such response (${answers.map((x) => `${answerName(x)} ×${x.count}`).join(', ')})` };
  }
  return { answer: key, variants };
}

function unlikeWithin(key: string, byVariant: Readonly<Record<string, readonly MaskedAnswer[]>>): WorkDifference {
  const variants: WorkDifference['variants'] = Object.create(null);
  let line: number | undefined;
  for (const [id, answers] of Object.entries(byVariant)) {
    const mine = answers.find((x) => answerName(x) === key);
    if (!mine) continue;
    line ??= mine.unlike?.line;
    variants[id] = { text: mine.unmasked ? unlikeText(mine) : 'alike', bytes: mine.bytes };
  }
  return { answer: key, ...(line !== undefined ? { line } : {}), variants };
}

/** Past the characters learned, what follows (its length and hash) is another text: each variant's body length said. */
function tailsDiffer(key: string, byVariant: Readonly<Record<string, readonly MaskedAnswer[]>>): WorkDifference {
  const variants: WorkDifference['variants'] = Object.create(null);
  for (const [id, answers] of Object.entries(byVariant)) {
    const mine = answers.find((x) => answerName(x) === key);
    if (mine) variants[id] = { text: mine.tail ? `past the first ${MOST_LEARNED_CHARS >> 20} Mi characters, ${grouped(mine.tail.chars)} more (sha256 ${mine.tail.hash.slice(0, 12)})` : `no more than ${MOST_LEARNED_CHARS >> 20} Mi characters`, bytes: mine.bytes };
  }
  return { answer: key, variants };
}

function beyondSaved(key: string, byVariant: Readonly<Record<string, readonly MaskedAnswer[]>>): WorkDifference {
  const variants: WorkDifference['variants'] = Object.create(null);
  for (const [id, answers] of Object.entries(byVariant)) {
    const mine = answers.find((x) => answerName(x) === key);
    if (mine) variants[id] = { text: 'differs past the saved template', bytes: mine.bytes };
  }
  return { answer: key, variants };
}

/** A round's masked answers, as its measurer saved them (absent: not a request round, or saved before masking). */
type AnswersOf<R> = (round: R) => readonly MaskedAnswer[] | undefined;

/**
 * The round whose answers stand for a variant's work: the last, when its
 * answers were learned across the variant's rounds (each round's answers
 * hold all before it, and say they were learned from as many rounds as
 * there are, or more: a round that crashed taught too); else the first (runs saved before, and cases that
 * are not request-shaped).
 */
export function standingRound<R>(rounds: readonly R[], answersOf: AnswersOf<R>): R | undefined {
  const last = rounds.at(-1);
  const across = last === undefined ? undefined : answersOf(last)?.[0]?.rounds;
  return across !== undefined && across >= rounds.length ? last : rounds[0];
}

/** A variant's own responses that were not alike (learned across its rounds), in one line; undefined when they were. */
export function unlikeWithinText(answers: readonly MaskedAnswer[]): string | undefined {
  const unlike = answers.filter((a) => a.unmasked);
  return unlike.length ? unlike.map((a) => `${answerName(a)}: ${unlikeText(a)}`).join('; ') : undefined;
}

/**
 * The answers standing for a variant's work (standingRound), each template
 * saved only in part made whole again from the round that packed it
 * (`unpack`: the host's unpacking of AnswerLearner's `pack`); a template
 * whose packed text is not there stays in part.
 */
export function standingAnswers<R>(rounds: readonly R[], answersOf: AnswersOf<R>, unpack: (packed: string) => string): readonly MaskedAnswer[] | undefined {
  const standing = standingRound(rounds, answersOf);
  const answers = standing === undefined ? undefined : answersOf(standing);
  if (!answers) return undefined;
  return answers.map((a) => {
    if (!a.truncated || a.packedRound === undefined) return a;
    const name = answerName(a);
    const packed = rounds.flatMap((r) => answersOf(r) ?? []).find((x) => x.rounds === a.packedRound && x.packed !== undefined && answerName(x) === name)?.packed;
    if (packed === undefined) return a;
    const { truncated: _, packed: __, ...whole } = a;
    return { ...whole, segments: JSON.parse(unpack(packed)) as string[] };
  });
}
