/** Small text helpers every reporter shares (one copy each). */
import { oneLine } from '@rtbench/core/words';
export { counted, firstLine, oneLine } from '@rtbench/core/words';

/**
 * Text safe inside a markdown table cell, or anywhere in a line of markdown:
 * shown as written, never markup. Backslashes and backticks are escaped (no
 * code span starts), and so are the brackets that make an image or a link
 * (`![x](y)` and `[x](y)` show as written; a bare `[1.2–1.3]` stays as it is,
 * since no reference is ever defined), pipes escaped, newlines flattened,
 * HTML shown as text (a case named `<img …>` is not markup), and an `@` or
 * `#` that GitHub would read as a mention or a reference, and a bare address
 * it would link, broken by a zero-width space, so a comment the CI posts mentions, references and
 * links nothing (`node@26`, like an e-mail address, is no mention).
 */
export function markdownCell(text: string): string {
  return text
    .replace(/[\\`]/g, '\\$&')
    .replace(/!\[/g, '!\\[')
    .replace(/\]\(/g, ']\\(')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ')
    .replace(/(^|[^\w])@/g, '$1@\u200b')
    .replace(/(^|[^\w])#(?=\d+(?!\w))/g, '$1#\u200b')
    .replace(/(:)(\/\/)/g, '$1\u200b$2')
    .replace(/\b(www)\./gi, '$1\u200b.');
}

/** The longest run of backticks in `text`. */
function longestBacktickRun(text: string): number {
  return Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
}

/**
 * `text` as one inline code span that nothing in it can end: the span's
 * backticks outnumber any run inside it (CommonMark), its line breaks are
 * shown as `\n`, and a pipe is escaped (a code span in a table cell still
 * splits at a bare pipe).
 */
export function markdownCode(text: string): string {
  const body = oneLine(text).replace(/\|/g, '\\|');
  const ticks = '`'.repeat(longestBacktickRun(body) + 1);
  const pad = body.startsWith('`') || body.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${body}${pad}${ticks}`;
}

/**
 * A fenced code block of `lines` that no line can close or leave: its fence
 * is longer than any run of backticks inside, and each line is kept on its
 * own line (a line break inside one is shown as `\n`). `indent` puts it
 * inside a list item.
 */
export function markdownFence(lines: readonly string[], info = '', indent = ''): string[] {
  const body = lines.map(oneLine);
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(body.join('\n')) + 1));
  return [`${indent}${fence}${info}`, ...body.map((l) => `${indent}${l}`), `${indent}${fence}`];
}

/** SGR (colour) sequences: the only escape sequences rtbench itself writes. */
const SGR = /^\x1b\[[0-9;]*m/;
/**
 * C0 controls but tab and newline, DEL, and C1 controls (0x9b is a one-byte
 * CSI); and the bidirectional-text controls (U+061C, U+200E/F, U+202A–U+202E,
 * U+2066–U+2069), which reorder what follows them on screen: a name holding
 * U+202E can show as another name ("Trojan Source").
 */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const unicodeEscape = (ch: string): string => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Bidi controls written as visible `\u202e` text, the rest unchanged: for text shown where controls are otherwise harmless (an HTML page). */
function bidiVisible(text: string): string {
  return text.replace(BIDI, unicodeEscape);
}

/** A JSON-like value with every string, and every key, passed through bidiVisible. */
export function bidiVisibleDeep<T>(value: T): T {
  if (typeof value === 'string') return bidiVisible(value) as T;
  if (Array.isArray(value)) return value.map(bidiVisibleDeep) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [bidiVisible(k), bidiVisibleDeep(v)])) as T;
}

/**
 * Text from a run or a runtime (case names, failure messages, stderr tails)
 * made safe to print: escape sequences other than colours and other control
 * characters become visible (`␛`, `\x07`), so a case cannot move the cursor,
 * retitle the terminal, clear the screen or hide a line with `\r`.
 */
export function printable(text: string, options: { keepColours?: boolean; oneLine?: boolean } = {}): string {
  if (options.oneLine && text.includes('\n')) return printable(text.replace(/\n/g, '\\n'), options);
  if (!CONTROL.test(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\x1b' && options.keepColours) {
      const sgr = SGR.exec(text.slice(i, i + 32));
      if (sgr) {
        out += sgr[0];
        i += sgr[0].length - 1;
        continue;
      }
    }
    out += ch === '\x1b' ? '␛' : ch.charCodeAt(0) > 0xff && CONTROL.test(ch) ? unicodeEscape(ch) : CONTROL.test(ch) ? `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}` : ch;
  }
  return out;
}

/** JSON text with C1 and bidi controls written as \u escapes (JSON.stringify leaves them raw): the same data, safe on a terminal. */
export function jsonPrintable(json: string): string {
  return json.replace(/[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, unicodeEscape);
}

/** Quote an argument the way a user would type it again in a shell. */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `"${arg.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** "1 case", "3 cases" */
function plural(n: number, word: string, pluralWord = `${word}s`): string {
  return `${n} ${n === 1 ? word : pluralWord}`;
}

/** The last path segment, without node:path (views stay free of Node APIs). */
export function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** What a spreadsheet reads as the start of a formula (OWASP's list): `=`, `+`, `-`, `@`, a tab, a carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain number a spreadsheet reads as one ("-1.5", "+2e3"): not a formula, left as it is. */
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * A value as one CSV field (RFC 4180): quoted when it holds a quote, a comma
 * or a line break; an unknown or non-finite number is empty. Text that a
 * spreadsheet would run as a formula (a case named `=HYPERLINK(…)`) gets a
 * leading `'`, which spreadsheets show as text; the JSON keeps the raw text
 * (docs/results-files.md).
 */
export function csvField(value: string | number | boolean | undefined): string {
  if (value === undefined) return '';
  let text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
