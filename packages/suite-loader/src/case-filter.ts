/**
 * --filter: which cases a run or a history takes. A pattern is a
 * case-insensitive substring of the case id, or /regex/flags; several
 * patterns separated by commas match any of them, and a pattern after `!`
 * leaves out the cases it matches. A comma inside a /regex/
 * is the regex's own (`/load=c(1|10),/` is one pattern), so a regex is
 * never cut into pieces that match what it would not; so is a comma inside a
 * case's `[…]` parameters, so that an id copied from the table is one
 * pattern (cut, its `cache=none]` would select every such case).
 *
 * A /regex/ is matched by RE2 (re2js), in time linear in the id, never by
 * JavaScript's backtracking engine: `/(a+)+$/` would otherwise spin the host
 * for minutes before the first case runs, where no --timeout applies. RE2's
 * syntax is JavaScript's for what a filter needs (classes, groups,
 * alternation, anchors, \b, counted repeats, lookbehind); a backreference or
 * a lookahead, which no linear-time matcher has, is refused in one line.
 */
import { RE2JS } from 're2js';
import { UsageError } from '@rtbench/core/usage-error';

/** JavaScript's flags that mean something for a test against an id; g, y and u change nothing here. */
const FLAGS: Readonly<Record<string, number>> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL, g: 0, y: 0, u: 0 };

/** One /regex/flags pattern as a test of an id, or a UsageError that says why not. */
function regexTest(pattern: string, source: string, flags: string): (id: string) => boolean {
  let mask = RE2JS.LOOKBEHINDS;
  for (const flag of flags) {
    if (!Object.hasOwn(FLAGS, flag)) throw new UsageError(`--filter ${pattern}: the flag "${flag}" is not one a filter takes (i, m, s)`);
    mask |= FLAGS[flag]!;
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(source, mask);
  } catch (error) {
    throw new UsageError(
      `--filter ${pattern}: ${(error as Error).message}. Filters are matched in linear time (RE2's syntax: no backreferences or lookahead); a plain substring needs no slashes`,
    );
  }
  return (id) => re.matcher(id).find();
}

/** A whole /regex/flags pattern: its source and its flags. */
const REGEX_PATTERN = /^\/(.*)\/([a-z]*)$/s;

/** A substring that opens a case's parameters and does not close them: `generated [size=10kb` of a pasted id. */
const opensParams = (text: string): boolean => text.lastIndexOf('[') > text.lastIndexOf(']');

/**
 * A --filter value's patterns: split at commas, except that a piece opening
 * a /regex/ runs on to the first later piece that closes it, and a substring
 * opening a `[` (a case id pasted from the table: `generated [size=10kb,
 * cache=none]`) runs on to the first later piece that closes the `]`. A
 * piece never closed stays as it was, and an empty piece is dropped.
 */
function filterPatterns(filter: string): string[] {
  const pieces = filter.split(',');
  const patterns: string[] = [];
  for (let i = 0; i < pieces.length; i++) {
    let pattern = pieces[i]!.trim();
    const regex = pattern.replace(/^!\s*/, '').startsWith('/');
    const closed = regex ? (text: string) => REGEX_PATTERN.test(text.replace(/^!\s*/, '')) : (text: string) => !opensParams(text);
    if (!closed(pattern)) {
      for (let j = i + 1; j < pieces.length; j++) {
        const joined = pieces.slice(i, j + 1).join(',').trim();
        if (closed(joined)) {
          pattern = joined;
          i = j;
          break;
        }
      }
    }
    // An empty piece (a trailing or doubled comma) is in every id: it selects nothing of its own.
    if (pattern !== '') patterns.push(pattern);
  }
  return patterns;
}

/** One pattern as a test of an id: a /regex/, else a case-insensitive substring. */
function patternTest(pattern: string): (id: string) => boolean {
  const m = REGEX_PATTERN.exec(pattern);
  if (m) return regexTest(pattern, m[1]!, m[2]!);
  const needle = pattern.toLowerCase();
  return (id: string) => id.toLowerCase().includes(needle);
}

/**
 * The test a --filter value stands for: true when any of its patterns matches
 * the id and none of its `!` patterns does (a substring is in a phrase that
 * negates it too: `reviver,!no reviver` takes the cases with a reviver). Only
 * `!` patterns: every case they leave.
 */
export function caseFilter(filter: string): (id: string) => boolean {
  const patterns = filterPatterns(filter);
  const taken = patterns.filter((p) => !p.startsWith('!')).map(patternTest);
  const left = patterns.flatMap((p) => (p.startsWith('!') && p.length > 1 ? [patternTest(p.slice(1).trim())] : []));
  const all = taken.length === 0 && left.length > 0;
  return (id) => (all || taken.some((t) => t(id))) && !left.some((t) => t(id));
}

/** Control characters (line breaks, escapes) and bidi controls: written as \x{…} in a filter, so it stays one printable line. */
const UNPRINTABLE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A --filter value that matches exactly these case ids: each an anchored
 * regex, its commas written \x2c so the filter's own comma splits only
 * between them, and its control characters as \x{…} (RE2 reads them back).
 */
export function exactFilter(caseIds: readonly string[]): string {
  return caseIds
    .map((id) => `/^${id.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&').replace(/,/g, '\\x2c').replace(UNPRINTABLE, (ch) => `\\x{${ch.charCodeAt(0).toString(16)}}`)}$/`)
    .join(',');
}

/** --filter: the cases it matches, or a UsageError listing the cases when it matches none. */
export function filterCases<C extends { id: string }>(cases: readonly C[], filter: string | undefined): C[] {
  if (!filter) return [...cases];
  const matches = caseFilter(filter);
  const picked = cases.filter((c) => matches(c.id));
  if (picked.length === 0) {
    throw new UsageError(`--filter "${filter}" matches no case. Cases:\n${cases.map((c) => `  ${c.id}`).join('\n')}`);
  }
  return picked;
}
