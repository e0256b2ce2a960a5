/**
 * What a request round proves of the work: every answered handler request's
 * status, content type and body, learned into masked templates (core's
 * same-work: the spans that changed between this process's responses to one
 * request are holes) and digested as templates, so a page that prints the
 * time digests alike in every process. `strict`: every body hashed as it is
 * (--same-work strict), no masking.
 */
import { createHash } from 'node:crypto';
import type { RequestShape, ResponseNormalizer } from '@rtbench/core';
import type { MaskedAnswer, RoundRecord } from '@rtbench/core/schema';
import { AnswerLearner, bodyText } from '@rtbench/core/same-work';

/** --same-work, as the saved round records it. */
export type SameWorkRule = NonNullable<NonNullable<RoundRecord['requests']>['sameWork']>;

const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** "GET /bench"; a request with a body or headers also by their hash, so two requests' answers are never learned as one. */
function requestName(r: RequestShape): string {
  const name = `${r.method ?? 'GET'} ${r.path}`;
  if (r.body === undefined && !r.headers) return name;
  return `${name} [${sha256(`${JSON.stringify(r.headers ?? {})}\n${typeof r.body === 'string' ? r.body : sha256(r.body ?? '')}`).slice(0, 8)}]`;
}

/**
 * A content type as a media type compares: servers spell the same default
 * differently ("text/plain;charset=UTF-8", "text/plain; charset=utf-8"), and
 * type, subtype, parameter names and the charset are case-insensitive.
 */
export function mediaType(contentType: string): string {
  return contentType.trim().toLowerCase().split(';').map((part) => part.trim()).filter(Boolean).join('; ');
}

export class RoundAnswers {
  private readonly learner = new AnswerLearner(sha256);
  private count = 0;

  constructor(private readonly normalize?: ResponseNormalizer) {}

  add(request: RequestShape, status: number, contentType: string | null, body: Uint8Array): void {
    this.count++;
    const raw = bodyText(body);
    const text = this.normalize ? this.normalize({ request, status, ...(contentType !== null ? { contentType } : {}), body: raw }) : raw;
    this.learner.add({ request: requestName(request), status, ...(contentType !== null ? { contentType: mediaType(contentType) } : {}), text, bytes: body.length });
  }

  /** The round's digest text, and its masked answers. */
  result(): { answer: string; answers: MaskedAnswer[] } {
    const answers = this.learner.answers();
    const digest = sha256(answers.map((a) => `${a.request} ${a.status} ${a.contentType ?? ''} ×${a.count} ${a.hash}`).join('\n'));
    return { answer: `${this.count} responses, masked sha256 ${digest}`, answers };
  }
}
