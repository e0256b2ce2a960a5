/**
 * An arm's answers, learned as they come from every one of its processes
 * and rounds: per request × status × content type (× the headers compared)
 * one masked template (template.ts), so memory holds one template per kind
 * of answer, whatever the number of requests. A value that differs between
 * two responses of the arm, from one process or two, is a hole: a start
 * time or a server's id fixed per process is masked once a second process
 * printed another. The digest is then of the templates, not of the raw
 * bodies: two arms that answered alike but for times and ids digest alike.
 */
import type { MaskedAnswer } from '../schema.ts';
import { fits, holes, learnFrom, type Learned, literalLength, literalTemplate, maskedText, MOST_HOLES, MOST_MASKED_SHARE, MOST_SHAPE_EDITS, type Template, type Unlike } from './template.ts';
import { grouped } from '../words.ts';
import { lineAt } from './lines.ts';

/** Characters of a body learned from; past them, the rest's length and hash must be the same in every response. */
export const MOST_LEARNED_CHARS = 4 << 20;
/** Kinds of answer learned per arm; later kinds are hashed whole (a changing one then reads as different work). */
export const MOST_KINDS = 16;
/** Characters of the template saved per kind of answer, and kinds saved with their text, per round. */
export const SAVED_CHARS = 16 * 1024;
export const SAVED_KINDS = 8;

export interface Response {
  /** "GET /bench". */
  request: string;
  status: number;
  contentType?: string;
  /** Headers compared besides the content type (location, and any a suite declares), by lowercase name. */
  headers?: Readonly<Record<string, string>>;
  /** The body as text (bodyText). */
  text: string;
  bytes: number;
}

/** The first response unlike the rest, as a reader is told. */
type UnlikeSaid = NonNullable<MaskedAnswer['unlike']>;

interface Kind {
  request: string;
  status: number;
  contentType?: string;
  headers?: Readonly<Record<string, string>>;
  count: number;
  bytes: number;
  template: Template;
  /** Past MOST_LEARNED_CHARS: the rest's length and hash, the same in every response. */
  tail?: { chars: number; hash: string };
  /** Responses too unlike the template to learn from, and the first one's difference. */
  unlike?: UnlikeSaid;
  /** Hashes of the unlike responses' texts, the first few, for the digest. */
  unlikeHashes: string[];
  /** The last response learned from: its length, for how much of it the holes stood for. */
  lastLength: number;
  /** Past MOST_KINDS: not learned, its first text's hash stands for it. */
  learned: boolean;
  /** Holes whose value came back, in one process, to a value it had left: not a time, a counter or an id, which move on. */
  returning: Set<number>;
  /** Per hole, in the process of the last response: its last value and the values it has left (at most LEFT_KEPT each). */
  held?: { last: (string | undefined)[]; left: Set<string>[] };
  /** Per hole, every value it held in any process and round while they were at most FEW_VALUES; undefined past that. */
  seen: (Set<string> | undefined)[];
  /** The round of the last response. */
  lastRound: number;
  /** The template last packed whole (saved past SAVED_CHARS), the round it was packed in, and the packed text. */
  packed?: { template: Template; round: number; text: string };
}

/** The most characters of a packed template saved: a page that packs larger is saved in part only. */
const MOST_PACKED_CHARS = 1 << 20;

/** Responses unlike the template after which no more are aligned with it: a page that is another page costs its alignment this often, not once per request. */
const ALIGNED_UNLIKE = 3;

/** Values a hole is remembered to have left, per process: enough to see an answer alternate between a few. */
const LEFT_KEPT = 8;

/**
 * Distinct values a hole is followed over the whole arm: a time, a counter
 * or an id takes more over a run; an answer wrong once warm or in one
 * process takes two, one of them the other arm's (compare.ts).
 */
export const FEW_VALUES = 8;

/** Characters of few-valued holes' values saved per kind of answer: past them a hole's values are not saved (and not compared). */
const SAVED_VALUE_CHARS = 4096;

/** Unlike responses hashed into the digest: enough to tell two arms apart, bounded whatever the count. */
const HASHED_UNLIKE = 8;

/** A body as text: UTF-8 when it is, otherwise one character per byte, so different bytes never read as the same text. */
export function bodyText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    let out = '';
    for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
    return out;
  }
}

/** The header lines a kind is keyed and compared by, sorted by name. */
function headerLines(headers: Readonly<Record<string, string>> | undefined): string {
  return Object.keys(headers ?? {})
    .sort()
    .map((name) => `${name}: ${headers![name]}`)
    .join('\n');
}

/** What to do when masking stops short or a value has no shape it knows: replace such values before they are compared. */
const WAY_ON = "to compare without such values, replace them first: rtbench run --normalize <regex> for a Worker, a suite's normalize (docs/requests.md)";

const lineCount = (text: string): number => text.split('\n').length;

/** Why a response was unlike the template, in words, with the lines where they differ. */
function unlikeSaid(u: Unlike, template: Template, text: string): Omit<UnlikeSaid, 'responses'> {
  if (u.why === 'share') return { why: `masking it would hide ${grouped(u.maskedChars)} of its ${grouped(u.chars)} characters, more than ${MOST_MASKED_SHARE * 100}%: nothing masked; ${WAY_ON}` };
  if (u.why === 'holes') return { why: `more than ${grouped(MOST_HOLES)} changing spans: nothing masked; ${WAY_ON}` };
  const shown = maskedText(template);
  const a = lineAt(shown, u.a);
  const b = lineAt(text, u.b);
  // Values hold no line break: another count of lines is a section added or gone, the same count words within lines.
  const lines = lineCount(shown) !== lineCount(text);
  const why = u.many
    ? `they differ in more than ${MOST_SHAPE_EDITS} places beyond changing values, first on line ${b.line}: nothing masked; ${WAY_ON}`
    : u.side === 'added'
      ? `${lines ? 'another section' : 'words added'} on line ${b.line}`
      : u.side === 'missing'
        ? `${lines ? 'a section' : 'words'} missing at line ${b.line}`
        : `they differ on line ${b.line} in more than a changing value (${WAY_ON})`;
  return { why, line: b.line, template: a.text, response: b.text };
}

/** The answers of one arm (all its rounds); `hash` is sha256 hex of a text (the host's, so core stays runtime-neutral). */
export class AnswerLearner {
  private readonly kinds = new Map<string, Kind>();
  private round = 0;
  /**
   * `pack`: the host's packing of a template's segments (JSON) into a short
   * text, saved with a round whose template outgrew SAVED_CHARS so a saved
   * run can still find the line where two variants differ.
   */
  constructor(
    private readonly hash: (text: string) => string,
    private readonly pack?: (text: string) => string,
  ) {}

  /** A new round (a new process) starts sending. */
  nextRound(): void {
    this.round++;
  }

  add(r: Response): void {
    const headers = headerLines(r.headers);
    const key = `${r.request}\u0000${r.status}\u0000${r.contentType ?? ''}\u0000${headers}`;
    const long = r.text.length > MOST_LEARNED_CHARS;
    const text = long ? r.text.slice(0, MOST_LEARNED_CHARS) : r.text;
    const tail = long ? { chars: r.text.length - MOST_LEARNED_CHARS, hash: this.hash(r.text.slice(MOST_LEARNED_CHARS)) } : undefined;
    const kind = this.kinds.get(key);
    if (!kind) {
      const learned = this.kinds.size < MOST_KINDS;
      this.kinds.set(key, {
        request: r.request,
        status: r.status,
        ...(r.contentType !== undefined ? { contentType: r.contentType } : {}),
        ...(r.headers && headers ? { headers: r.headers } : {}),
        count: 1,
        bytes: r.bytes,
        template: literalTemplate(learned ? text : this.hash(text)),
        ...(tail !== undefined ? { tail } : {}),
        unlikeHashes: [],
        returning: new Set(),
        seen: [],
        lastRound: this.round,
        lastLength: text.length,
        learned,
      });
      return;
    }
    kind.count++;
    kind.bytes = r.bytes;
    if (kind.tail?.hash !== tail?.hash) {
      const chars = (t?: { chars: number }): string => grouped(MOST_LEARNED_CHARS + (t?.chars ?? 0));
      this.unlike(kind, r.text, { why: `past the first ${MOST_LEARNED_CHARS >> 20} Mi characters learned, what follows differs (${chars(kind.tail)} characters, then ${chars(tail)})` });
      return;
    }
    // After a few responses unlike the template, later ones only fit it or are unlike too: not aligned again (each failed alignment costs the most).
    if (!kind.learned || (kind.unlike?.responses ?? 0) >= ALIGNED_UNLIKE) {
      if (!fits(kind.template, kind.learned ? text : this.hash(text))) this.unlike(kind, text);
      return;
    }
    const learned = learnFrom(kind.template, text);
    if ('unlike' in learned) {
      this.unlike(kind, text, unlikeSaid(learned.unlike, kind.template, text));
      return;
    }
    this.track(kind, learned);
    kind.template = learned.template;
    kind.lastLength = text.length;
    kind.lastRound = this.round;
  }

  /**
   * Follows each hole's values within one process: a value that returns to
   * one it had left (41, 42, 41) is an answer that alternates, which a
   * variant holding it still does not explain (compare.ts). A template that
   * widened carries each hole's marks and history over to the hole that took
   * it; a hole made where the template was literal starts from the text it
   * had there, when the responses before were this process's.
   */
  private track(kind: Kind, learned: Omit<Learned, 'template'>): void {
    const { values, from, was } = learned;
    const sameProcess = kind.lastRound === this.round;
    const prev = sameProcess ? kind.held : undefined;
    kind.returning = new Set(from.flatMap((f, i) => (f.some((h) => kind.returning.has(h)) ? [i] : [])));
    const held = {
      last: from.map((f, i) => (f.length === 1 ? prev?.last[f[0]!] : f.length === 0 && sameProcess ? was[i] : undefined)),
      left: from.map((f) => (f.length === 1 && prev ? prev.left[f[0]!]! : new Set<string>())),
    };
    values.forEach((v, i) => {
      const last = held.last[i];
      if (last !== undefined && v !== last) {
        if (held.left[i]!.has(v)) kind.returning.add(i);
        if (held.left[i]!.size < LEFT_KEPT) held.left[i]!.add(last);
      }
      held.last[i] = v;
    });
    kind.held = held;
    // A hole that stayed keeps its set (the common case: no copy per response); one made of more than a hole held texts no set saw.
    kind.seen = from.map((f, i) => {
      const set = f.length === 0 ? new Set([was[i]!]) : was[i] === 'merged' ? undefined : kind.seen[f[0]!];
      set?.add(values[i]!);
      return set && set.size <= FEW_VALUES ? set : undefined;
    });
  }

  /** The kind's template packed, once per change (a round whose template did not change points back to the round that saved it). */
  private packed(kind: Kind, whole: string): Kind['packed'] {
    if (!this.pack) return undefined;
    if (kind.packed?.template !== kind.template) {
      const text = this.pack(whole);
      if (text.length > MOST_PACKED_CHARS) delete kind.packed;
      else kind.packed = { template: kind.template, round: this.round, text };
    }
    return kind.packed;
  }

  private unlike(kind: Kind, text: string, said?: Omit<UnlikeSaid, 'responses'>): void {
    if (kind.unlikeHashes.length < HASHED_UNLIKE) kind.unlikeHashes.push(this.hash(text));
    if (kind.unlike) kind.unlike.responses++;
    // Without a reason said, a kind learned has had unlike responses before (only those stop its alignment): one not learned is the first.
    else kind.unlike = { responses: 1, ...(said ?? { why: `past the first ${MOST_KINDS} kinds of answer, responses are compared whole` }) };
  }

  /** The arm's answers in the order each kind first came, each template within the saved bound. */
  answers(): MaskedAnswer[] {
    return [...this.kinds.values()].map((k, i) => {
      const saved = savedSegments(k.template, i < SAVED_KINDS ? SAVED_CHARS : 0);
      const whole = JSON.stringify(k.template.segments);
      const packed = saved.truncated && k.learned ? this.packed(k, whole) : undefined;
      const parts = [whole, ...(k.tail ? [`tail ${k.tail.chars} ${k.tail.hash}`] : []), ...k.unlikeHashes];
      return {
        request: k.request,
        status: k.status,
        ...(k.contentType !== undefined ? { contentType: k.contentType } : {}),
        ...(k.headers ? { headers: { ...k.headers } } : {}),
        ...(k.tail ? { tail: { ...k.tail } } : {}),
        count: k.count,
        bytes: k.bytes,
        maskedChars: Math.max(0, k.lastLength - literalLength(k.template)),
        spans: holes(k.template),
        segments: saved.segments,
        ...(saved.truncated ? { truncated: true as const } : {}),
        ...(packed ? { packedRound: packed.round, ...(packed.round === this.round ? { packed: packed.text } : {}) } : {}),
        ...(k.unlike ? { unmasked: k.unlike.responses, unlike: k.unlike } : {}),
        ...(k.returning.size ? { returning: [...k.returning].sort((a, b) => a - b) } : {}),
        ...(k.learned ? { fewValues: fewValues(k.seen) } : {}),
        rounds: Math.max(1, this.round),
        hash: this.hash(parts.join('\n')),
      };
    });
  }
}

/** Each few-valued hole with its values, sorted, while their characters stay within SAVED_VALUE_CHARS. */
function fewValues(seen: readonly (Set<string> | undefined)[]): [number, string[]][] {
  const out: [number, string[]][] = [];
  let left = SAVED_VALUE_CHARS;
  for (const [hole, values] of seen.entries()) {
    if (!values) continue;
    const sorted = [...values].sort();
    left -= sorted.reduce((n, v) => n + v.length, 0);
    if (left < 0) break;
    out.push([hole, sorted]);
  }
  return out;
}

/** The template's segments up to `chars` characters in all. */
function savedSegments(t: Template, chars: number): { segments: string[]; truncated: boolean } {
  const segments: string[] = [];
  let left = chars;
  for (const s of t.segments) {
    if (s.length > left) {
      segments.push(s.slice(0, left));
      return { segments, truncated: true };
    }
    segments.push(s);
    left -= s.length;
  }
  return { segments, truncated: false };
}
