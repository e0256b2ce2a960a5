/**
 * A response body cut into tokens by shape, so that a changing value is
 * masked as a whole: an ISO date-time, a UUID, a clock time, a numeric
 * date, a run of letters and digits (a counter, a hex id, a word, a decimal
 * number), a run of white space, or any other single character.
 */

/** The shapes, longest first: a date-time must win over the digit run it starts with. */
const TOKEN = new RegExp(
  [
    // a calendar date, alone or with a time of day and a zone (ISO 8601)
    String.raw`\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?`,
    // 123e4567-e89b-12d3-a456-426614174000
    String.raw`[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}`,
    // a clock time, with seconds, fractions, AM/PM (after a space, or the narrow or no-break one ICU writes)
    String.raw`\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?:[ \u202f\u00a0]?[AaPp][Mm]\b)?`,
    // a numeric date with slashes or dots
    String.raw`\d{1,4}[/.]\d{1,2}[/.]\d{1,4}`,
    // words, counters, hex ids, decimals: 42, 3.14, 9f86d081884c, req_12
    String.raw`[0-9A-Za-z_]+(?:\.\d+)?`,
    String.raw`\s+`,
    String.raw`[^]`,
  ].join('|'),
  'gy',
);

/** The tokens of a text, in order; joined they give the text back. */
export function tokenize(text: string): string[] {
  TOKEN.lastIndex = 0;
  return text.match(TOKEN) ?? [];
}

/** A token a changing value is made of: one that holds a digit (a number, a time, a date, an id). */
export function valueToken(token: string): boolean {
  return /\d/.test(token);
}

/** One mark that may sit inside or beside a changing value (a sign, a separator): not a letter, digit or space. */
export function markToken(token: string): boolean {
  return token.length === 1 && !/[\p{L}\p{N}\s]/u.test(token);
}

/** Whether a text is all a changing value could be: value tokens and marks, nothing else (no word, no white space). */
export function valueText(text: string): boolean {
  return tokenize(text).every((t) => valueToken(t) || markToken(t));
}
