/**
 * How a case's name is shown: the one rule every reporter that draws names
 * for people uses (terminal, markdown, HTML, history). A name the user chose
 * can be any length; shown whole, a 64 KB name would be the whole table.
 * Names up to SHOWN_NAME_MAX characters are shown as they are; a longer one
 * keeps its start and its end (where parameters such as `[size=10kb]` are)
 * around a middle ellipsis. Names that would then read the same get a short
 * hash of the whole name in the middle, so two shown names never collide.
 * The data formats (json, csv, bmf) keep full names: they are keys.
 */

/** The longest name shown whole, in characters (code points): a heading of a 100-column table. */
export const SHOWN_NAME_MAX = 96;

/** Of the characters kept, the share taken from the start. */
const HEAD_SHARE = 2 / 3;

/** FNV-1a (32 bits) of the name's UTF-16 units, as 8 hex digits: stable across runs and machines, and no Node API (the page runs it too). */
function nameHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** `chars` cut to `max` with `middle` between a start and an end (by code points, so no surrogate pair is split). */
function aroundMiddle(chars: readonly string[], middle: string, max: number): string {
  const keep = Math.max(2, max - Array.from(middle).length);
  const head = Math.ceil(keep * HEAD_SHARE);
  return `${chars.slice(0, head).join('')}${middle}${chars.slice(chars.length - (keep - head)).join('')}`;
}

/** One name as shown, without regard to the others (shownNames keeps a set distinct); a line break is shown as `\n`, so a name is one line and cannot draw rows of its own. */
export function shownName(raw: string, max = SHOWN_NAME_MAX): string {
  const name = raw.replace(/\r?\n/g, (nl) => (nl.length === 2 ? '\\r\\n' : '\\n'));
  if (name.length <= max) return name;
  const chars = Array.from(name);
  return chars.length <= max ? name : aroundMiddle(chars, '…', max);
}

/**
 * The shown name of each of `names` (a run's or a view's cases), distinct
 * whenever the names are: a shortened name that reads like another shown
 * name gets the hash of its whole name in the middle ("start…#1a2b3c4d…end").
 */
export function shownNames(names: Iterable<string>, max = SHOWN_NAME_MAX): Map<string, string> {
  const unique = [...new Set(names)];
  const shown = new Map(unique.map((n) => [n, shownName(n, max)]));
  const count = new Map<string, number>();
  for (const s of shown.values()) count.set(s, (count.get(s) ?? 0) + 1);
  const taken = new Set(shown.values());
  for (const [name, s] of shown) {
    if (s === name || count.get(s)! < 2) continue;
    let hashed = aroundMiddle(Array.from(name), `…#${nameHash(name)}…`, max);
    // Two names with one hash and the same ends: number them (never seen; keeps the promise).
    for (let n = 2; taken.has(hashed); n++) hashed = aroundMiddle(Array.from(name), `…#${nameHash(name)}-${n}…`, max);
    taken.add(hashed);
    shown.set(name, hashed);
  }
  return shown;
}

/**
 * A function's name as callgrind gives it, shortened to what stays the same
 * across builds of an engine: without its parameter list, return type,
 * qualifiers, `[clone …]` suffix and recursion mark (`'2`), and with template
 * arguments folded to `<…>`:
 * "v8::internal::MaybeHandle<v8::internal::Object> v8::internal::JsonParser<unsigned char>::ParseJsonValue<true>()"
 * → "v8::internal::JsonParser<…>::ParseJsonValue<…>". Addresses and plain C names are kept.
 */
export function functionName(name: string): string {
  let text = name.replace(/'\d+$/, '').replace(/\s*\[clone [^\]]*\]/g, '');
  // Fold bracketed groups innermost first, so nested templates and parameter lists collapse whole.
  for (;;) {
    const folded = text.replace(/\([^()]*\)/g, '(…)').replace(/<[^<>]*>/g, '<…>');
    if (folded === text) break;
    text = folded;
  }
  text = text.replace(/(\s*(const|volatile|noexcept|&&|&))+$/, '').replace(/(\(…\))+$/, '');
  // What precedes the last space (none is left inside a folded group) is the return type.
  return text.slice(text.lastIndexOf(' ') + 1) || name;
}
