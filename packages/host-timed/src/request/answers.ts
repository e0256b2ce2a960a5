/**
 * What a request round proves of the work: every answered handler request's
 * status, content type (a charset that restates its type's default dropped),
 * location, the headers its suite declared, and body, learned into masked templates (core's same-work: a
 * value that differed between two responses of the arm, in one process or
 * across its processes, is a hole) and digested as templates, so a page
 * that prints the time digests alike in every process. `strict`: every
 * body hashed as it is (--same-work strict), no masking.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { RequestShape, ResponseNormalizer } from '@rtbench/core';
import type { MaskedAnswer } from '@rtbench/core/schema';
import type { RequestsRound } from '@rtbench/measurer-records';
import { AnswerLearner, bodyText, maskedDigestText } from '@rtbench/core/same-work';

/** --same-work, as the saved round records it. */
export type SameWorkRule = NonNullable<RequestsRound['sameWork']>;

const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** One arm's learner, kept across its rounds by whoever runs them (each round's process adds to it). */
export function armAnswers(): AnswerLearner {
  return new AnswerLearner(sha256, (text) => gzipSync(text).toString('base64'));
}

/** "GET /bench"; a request with a body or headers also by their hash, so two requests' answers are never learned as one. */
export function requestName(r: RequestShape): string {
  const name = `${r.method ?? 'GET'} ${r.path}`;
  if (r.body === undefined && !r.headers) return name;
  return `${name} [${sha256(`${JSON.stringify(r.headers ?? {})}\n${typeof r.body === 'string' ? r.body : sha256(r.body ?? '')}`).slice(0, 8)}]`;
}

/** Media types whose charset is UTF-8 by their definition (JSON, JavaScript, event streams): saying so adds nothing. */
const UTF8_BY_DEFINITION = /^(application\/(json|javascript|ecmascript)|application\/[^;]*\+json|text\/(javascript|event-stream))$/;

/**
 * A content type as a media type compares: servers spell the same default
 * differently ("text/plain;charset=UTF-8", "text/plain; charset=utf-8",
 * "application/json" and "application/json; charset=utf-8"), type, subtype,
 * parameter names and the charset are case-insensitive, and parameters are
 * a set (RFC 9110 §5.6.6): written in any order, with space around their
 * `=` or none, they are one media type.
 */
export function mediaType(contentType: string): string {
  const [type = '', ...params] = contentType.trim().toLowerCase().split(';').map((part) => part.trim()).filter(Boolean);
  const kept = params.filter((p) => !(UTF8_BY_DEFINITION.test(type) && /^charset\s*=\s*"?utf-8"?$/.test(p))).map((p) => p.replace(/\s*=\s*/, '='));
  return [type, ...kept.sort()].join('; ');
}

/** What a response says besides its body that is compared: its status, content type and these headers. */
export interface AnswerHead {
  status: number;
  contentType: string | null;
  /** Where a redirect points (a 3xx is the handler's answer) and the headers a suite declared, by lowercase name (comparedHeaders). */
  headers?: Readonly<Record<string, string>>;
}

/**
 * The headers an answer is compared on besides its status and content
 * type: where a redirect points (the server's own origin already taken
 * off), and each declared header the response has, by lowercase name; a
 * declared header the response lacks is left out, so its absence differs
 * from any value. Undefined when there are none.
 */
export function comparedHeaders(location: string | null, headers: { get(name: string): string | null }, declared: readonly string[] = []): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  if (location) out.location = location;
  for (const name of declared) {
    const value = headers.get(name);
    if (value !== null) out[name.toLowerCase()] = value;
  }
  return Object.keys(out).length ? out : undefined;
}

export class RoundAnswers {
  /** `learner`: the arm's, kept across its rounds; without it the round learns alone. */
  constructor(
    private readonly normalize?: ResponseNormalizer,
    private readonly learner: AnswerLearner = armAnswers(),
  ) {
    learner.nextRound();
  }

  add(request: RequestShape, head: AnswerHead, body: Uint8Array): void {
    const { status, contentType, headers } = head;
    const raw = bodyText(body);
    const text = this.normalize ? this.normalize({ request, status, ...(contentType !== null ? { contentType } : {}), body: raw }) : raw;
    this.learner.add({
      request: requestName(request),
      status,
      ...(contentType !== null ? { contentType: mediaType(contentType) } : {}),
      ...(headers ? { headers } : {}),
      text,
      bytes: body.length,
    });
  }

  /** The round's digest text (of the arm's templates so far: how many answered is the round's own count), and the masked answers. */
  result(): { answer: string; answers: MaskedAnswer[] } {
    const answers = this.learner.answers();
    return { answer: maskedDigestText(answers, sha256), answers };
  }
}
