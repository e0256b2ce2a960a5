import { describe, expect, it } from 'vitest';
import { mediaType, RoundAnswers } from '../src/request/answers.ts';

const GET = { path: '/' } as const;
const body = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('a round’s answers', () => {
  it('reads the content types servers spell differently as one media type', () => {
    expect(mediaType('text/plain;charset=UTF-8')).toBe('text/plain; charset=utf-8');
    expect(mediaType(' Text/Plain ; Charset=utf-8 ')).toBe('text/plain; charset=utf-8');
    expect(mediaType('text/html')).not.toBe(mediaType('text/plain'));
  });

  it('digests the same page alike whichever way its server wrote the default content type', () => {
    const digest = (contentType: string): string => {
      const answers = new RoundAnswers();
      answers.add(GET, { status: 200, contentType }, body('hello'));
      return answers.result().answer;
    };
    expect(digest('text/plain;charset=UTF-8')).toBe(digest('text/plain; charset=utf-8'));
    expect(digest('text/plain;charset=UTF-8')).not.toBe(digest('application/json'));
  });
});
