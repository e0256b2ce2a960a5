/**
 * Checking that V8 flags took effect. An embedder may set some V8 flags
 * itself after the user's and silently win: workerd keeps
 * --no-concurrent-marking, --no-incremental-marking and --no-memory-reducer
 * whatever its config asks. V8's --print-flag-values shows the values in
 * force; a requested flag whose value differs there did nothing.
 */
import { splitFlag } from './binary.ts';

/** `--print-flag-values` output: name -> value ("true"/"false" for booleans, quotes removed). */
export function parseV8FlagValues(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const m = /^\s*--(no-)?([a-z0-9][a-z0-9-]*)(?:=(.*))?\s*$/.exec(raw);
    if (!m) continue;
    const [, no, name, value] = m;
    if (value === undefined) values.set(name!, no ? 'false' : 'true');
    else if (!no) values.set(name!, value.replace(/^"(.*)"$/, '$1'));
  }
  return values;
}

function same(requested: string, effective: string): boolean {
  if (requested === effective) return true;
  const a = Number(requested);
  const b = Number(effective);
  return requested.trim() !== '' && Number.isFinite(a) && Number.isFinite(b) && a === b;
}

export interface OverriddenFlag {
  flag: string;
  /** The value V8 runs with, as --print-flag-values shows it. */
  effective: string;
}

/**
 * Requested flags (rtbench syntax) whose value in force differs. Names V8 did
 * not print (aliases) are not judged; unknown flags are refused by V8 itself.
 */
export function overriddenV8Flags(requested: readonly string[], effective: Map<string, string>): OverriddenFlag[] {
  const out: OverriddenFlag[] = [];
  for (const flag of requested) {
    let [name, value] = splitFlag(flag);
    name = name.replace(/_/g, '-');
    let wanted = value ?? 'true';
    if (value === undefined && name.startsWith('no-') && !effective.has(name)) {
      name = name.slice(3);
      wanted = 'false';
    }
    const actual = effective.get(name);
    if (actual === undefined) continue;
    if (!same(wanted, actual)) out.push({ flag, effective: actual === 'true' ? `--${name}` : actual === 'false' ? `--no-${name}` : `--${name}=${actual}` });
  }
  return out;
}

/** A line a runtime says why in: its own prefix ("node: bad option: …") or an error's message ("Error [CODE]: …"). */
const SAYS_WHY = /^(?:[a-z][\w-]*: |(?:[A-Z]\w*)?Error(?: \[[A-Z0-9_]+\])?: )/;

/**
 * The one line a runtime's refusal of flags is explained by, from what it
 * printed: the first line in its own words (node: "node: bad option: --x",
 * "Error: illegal value for flag …", "Error: Cannot find module …" after a
 * source location, a code excerpt and a caret), else the first line that is
 * not blank; undefined when it printed nothing.
 */
export function refusalLine(printed: string): string | undefined {
  const lines = printed.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return lines.find((l) => SAYS_WHY.test(l)) ?? lines[0];
}
