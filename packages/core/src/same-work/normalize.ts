/**
 * A normalize written as patterns, for a Worker brought with no suite of
 * its own (`rtbench run --normalize <regex>`, a --requests file's
 * `normalize`): each match of each pattern, in order, is replaced by one
 * mark before the body is masked, so a value masking cannot see (a shape
 * it does not know, a share of the page past its bound) is the same text
 * in every response. What the patterns do not match is compared as ever.
 */
import type { ResponseNormalizer } from '../request.ts';

/** What each match becomes: one text, the same in every response. */
export const NORMALIZED_MARK = '⟨normalized⟩';

/** Patterns at most, and characters of each: a mistake, not a page of them, is what these catch. */
export const MOST_NORMALIZE_PATTERNS = 32;
const MOST_PATTERN_CHARS = 1000;

/** Why a pattern cannot normalize, in one clause; undefined when it can. */
function normalizePatternProblem(pattern: string): string | undefined {
  if (pattern.length > MOST_PATTERN_CHARS) return `is ${pattern.length} characters, more than ${MOST_PATTERN_CHARS}`;
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch (error) {
    return `is not a regular expression: ${(error as Error).message}`;
  }
  // A pattern that matches no text would put a mark between every two characters: nothing would be normalized.
  if (re.test('')) return 'matches the empty text: it must match at least one character';
  return undefined;
}

/** Why a list of patterns cannot normalize, naming the first that cannot; undefined when all can. */
export function normalizePatternsProblem(patterns: readonly string[]): string | undefined {
  if (patterns.length > MOST_NORMALIZE_PATTERNS) return `${patterns.length} patterns to normalize, more than ${MOST_NORMALIZE_PATTERNS}`;
  for (const p of patterns) {
    const problem = normalizePatternProblem(p);
    if (problem) return `the pattern ${JSON.stringify(p)} ${problem}`;
  }
  return undefined;
}

/** The normalize the patterns make: each match, pattern by pattern, replaced by NORMALIZED_MARK. */
export function patternNormalizer(patterns: readonly string[]): ResponseNormalizer {
  const problem = normalizePatternsProblem(patterns);
  if (problem) throw new Error(problem);
  const res = patterns.map((p) => new RegExp(p, 'g'));
  return ({ body }) => res.reduce((text, re) => text.replace(re, NORMALIZED_MARK), body);
}
