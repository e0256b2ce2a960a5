/**
 * A request round's answers, learned as they come: per request × status ×
 * content type one masked template (template.ts), so memory holds one
 * template per kind of answer, each of a capped text, whatever the number
 * of requests. The round's digest is then of the templates, not of the raw
 * bodies: two processes that answered alike but for times and ids digest
 * alike.
 */
import type { MaskedAnswer } from '../schema.ts';
import { fits, holes, literalLength, literalTemplate, widen, type Template } from './template.ts';

/** Characters of a body learned from (the rest is not compared: documented with --same-work). */
export const MOST_LEARNED_CHARS = 1 << 20;
/** Kinds of answer learned per round; later kinds are hashed whole (a changing one then reads as different work). */
export const MOST_KINDS = 16;
/** Characters of the template saved per kind of answer, and kinds saved with their text, per round. */
export const SAVED_CHARS = 16 * 1024;
export const SAVED_KINDS = 8;

export interface Response {
  /** "GET /bench". */
  request: string;
  status: number;
  contentType?: string;
  /** The body as text (bodyText). */
  text: string;
  bytes: number;
}

interface Kind {
  request: string;
  status: number;
  contentType?: string;
  count: number;
  bytes: number;
  template: Template;
  /** Hashes of responses too unlike the template to learn from. */
  unmasked: string[];
  /** The last response learned from: its length, for how much of it the holes stood for. */
  lastLength: number;
  /** Past MOST_KINDS: not learned, its first text's hash stands for it. */
  learned: boolean;
}

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

/** The answers of one round; `hash` is sha256 hex of a text (the host's, so core stays runtime-neutral). */
export class AnswerLearner {
  private readonly kinds = new Map<string, Kind>();
  constructor(private readonly hash: (text: string) => string) {}

  add(r: Response): void {
    const key = `${r.request}\u0000${r.status}\u0000${r.contentType ?? ''}`;
    const text = r.text.length > MOST_LEARNED_CHARS ? r.text.slice(0, MOST_LEARNED_CHARS) : r.text;
    const kind = this.kinds.get(key);
    if (!kind) {
      const learned = this.kinds.size < MOST_KINDS;
      this.kinds.set(key, {
        request: r.request,
        status: r.status,
        ...(r.contentType !== undefined ? { contentType: r.contentType } : {}),
        count: 1,
        bytes: r.bytes,
        template: literalTemplate(learned ? text : this.hash(text)),
        unmasked: [],
        lastLength: text.length,
        learned,
      });
      return;
    }
    kind.count++;
    kind.bytes = r.bytes;
    // Once a response was too unlike the template, later ones are hashed, not diffed again (each diff that fails costs MOST_EDITS' worth).
    const learning = kind.learned && !kind.unmasked.length;
    const widened = learning ? widen(kind.template, text) : fits(kind.template, kind.learned ? text : this.hash(text)) ? kind.template : undefined;
    if (widened) {
      kind.template = widened;
      kind.lastLength = text.length;
    } else kind.unmasked.push(this.hash(text));
  }

  /** The round's answers in the order each kind first came, each template within the saved bound. */
  answers(): MaskedAnswer[] {
    return [...this.kinds.values()].map((k, i) => {
      const saved = savedSegments(k.template, i < SAVED_KINDS ? SAVED_CHARS : 0);
      const whole = JSON.stringify(k.template.segments);
      return {
        request: k.request,
        status: k.status,
        ...(k.contentType !== undefined ? { contentType: k.contentType } : {}),
        count: k.count,
        bytes: k.bytes,
        maskedChars: Math.max(0, k.lastLength - literalLength(k.template)),
        spans: holes(k.template),
        segments: saved.segments,
        ...(saved.truncated ? { truncated: true as const } : {}),
        ...(k.unmasked.length ? { unmasked: k.unmasked.length } : {}),
        hash: this.hash(k.unmasked.length ? `${whole}\n${k.unmasked.join('\n')}` : whole),
      };
    });
  }
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
