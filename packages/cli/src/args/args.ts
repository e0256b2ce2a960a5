/**
 * The command line, read from declarations: each command declares its options
 * (name, kind of value, help text) and positional arguments once, and both
 * parsing and --help come from that (help.ts).
 *
 * Node's util.parseArgs splits argv the standard way with no dependency; its
 * non-strict tokens are used, and the rules below applied to them, because
 * strict mode refuses a value that begins with a dash (`--seed -1` deserves
 * the option's own message) and has no trailing or optional values
 * (`--compare a b c`, `--html [file]`). Not `allowNegative` (Node 20.16):
 * rtbench supports Node 20.0, so --no-color is an option of its own.
 */
import { parseArgs } from 'node:util';
import { shellQuote } from '@rtbench/report';
import { UsageError } from '../errors.ts';

/**
 * What an option takes:
 * - flag: nothing (`--quiet`);
 * - value: one value, given once (`--time 2s`);
 * - list: one value each time it is given, any number of times (`--runtime a,b --runtime c`);
 * - trailing: the arguments after it, up to the next option (`--compare node@24 node@26`), and any given as `--compare=v`;
 * - flag-or-value: alone, or with the one argument after it (`--html`, `--html page.html`).
 */
type OptionKind = 'flag' | 'value' | 'list' | 'trailing' | 'flag-or-value';

export interface OptionSpec {
  /** The long name without its dashes: "fail-on-regression". */
  readonly name: string;
  /** A one-letter alias: "o" for -o. */
  readonly short?: string;
  readonly kind: OptionKind;
  /** What the value is, for --help: "duration" shows as `--time <duration>`. */
  readonly value?: string;
  readonly help: string;
  /** The section of --help it is listed under (default "Options"). */
  readonly section?: string;
  /** Answered on its own (--help, --version): the rest of the line is not checked. */
  readonly standalone?: boolean;
  /**
   * An earlier spelling, still accepted: the line gets one note saying what
   * the option is called now (`--out` -> `--save`).
   */
  readonly formerly?: { readonly name: string; readonly note: string };
}

export interface PositionalSpec {
  readonly name: string;
  readonly required?: boolean;
  /** Takes every remaining argument. */
  readonly variadic?: boolean;
  /** What to say when a required one is missing (default: "missing <name>"). */
  readonly missing?: string;
}

/** "fail-on-regression" -> "failOnRegression". */
type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
type ValueOf<K extends OptionKind> = K extends 'flag' ? true : K extends 'value' ? string : K extends 'list' | 'trailing' ? string[] : string | true;
/** The parsed options of a declaration list, keyed by camel-case name; an option not given is absent. */
export type FlagsOf<O extends readonly OptionSpec[]> = { [S in O[number] as Camel<S['name']>]?: ValueOf<S['kind']> };

export type ParsedFlags = Record<string, string | true | string[]>;

/** What a command line is read by: "rtbench bench", its options and its positional arguments. */
export interface ArgsSpec {
  readonly command: string;
  readonly options: readonly OptionSpec[];
  readonly positionals: readonly PositionalSpec[];
}

export interface ParsedArgs {
  flags: ParsedFlags;
  positionals: string[];
  /** One line each, for stderr: an option given by an earlier spelling. */
  notes: string[];
}

export const camelName = (name: string): string => name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

export function optionLabel(o: OptionSpec): string {
  const name = o.value ?? 'value';
  const value = o.kind === 'flag' ? '' : o.kind === 'flag-or-value' ? ` [${name}]` : o.kind === 'trailing' ? ` <${name}...>` : ` <${name}>`;
  return `--${o.name}${value}`;
}

/** The usage line's arguments: `<suite>`, `<run> [other]`, `<shards...>`. */
export function positionalsLabel(positionals: readonly PositionalSpec[]): string {
  return positionals.map((p) => (p.required ? `<${p.name}${p.variadic ? '...' : ''}>` : `[${p.name}${p.variadic ? '...' : ''}]`)).join(' ');
}

type Token = ReturnType<typeof parseArgs>['tokens'] extends (infer T)[] | undefined ? T : never;

/** argv split into tokens by util.parseArgs; a value-taking option takes the next argument whatever it starts with. */
function tokenize(args: readonly string[], options: readonly OptionSpec[]): Token[] {
  const config = Object.fromEntries(
    options.flatMap((o) => {
      const type = o.kind === 'value' || o.kind === 'list' ? ('string' as const) : ('boolean' as const);
      return [[o.name, { type, ...(o.short ? { short: o.short } : {}) }], ...(o.formerly ? [[o.formerly.name, { type }]] : [])];
    }),
  );
  return parseArgs({ args: [...args], options: config, strict: false, allowPositionals: true, tokens: true }).tokens;
}

/** The nearest declared option to a mistyped one, if it is close (a typo, or a prefix). */
function nearest(raw: string, options: readonly OptionSpec[]): string | undefined {
  const typed = raw.replace(/^-+/, '');
  let best: { name: string; distance: number } | undefined;
  for (const o of options) {
    const d = o.name.startsWith(typed) && typed.length >= 3 ? 1 : editDistance(typed, o.name);
    if (d <= Math.max(1, Math.floor(o.name.length / 4)) && (!best || d < best.distance)) best = { name: o.name, distance: d };
  }
  return best && `--${best.name}`;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

/** One use of a trailing or flag-or-value option, with the arguments it took (in order) and how many it may take. */
interface Claim {
  option: OptionSpec;
  /** The arguments taken, with their places in argv. */
  taken: { index: number; value: string }[];
  capacity: number;
  /** `--compare=a`: its value was written with it, not taken from the arguments after it. */
  inline?: boolean;
}

/** The options whose values are variants ("node@26 --max-semi-space-size=64"): engine flags belong inside them. */
const VARIANT_OPTIONS = new Set(['runtime', 'compare']);

/**
 * An engine flag written after a variant instead of inside its quotes
 * (`--runtime node --max-semi-space-size=64`): the message, with the command
 * corrected (the flag joined to the variant before it, the last of a list).
 */
function engineFlagOutside(spec: ArgsSpec, args: readonly string[], variantAt: number, flagAt: number): string {
  const raw = args[variantAt]!;
  const inline = /^(--[\w-]+=)(.*)$/s.exec(raw);
  const [prefix, variants] = inline ? [inline[1]!, inline[2]!] : ['', raw];
  const joined = variants.replace(/[^,]*$/, (last) => `${last} ${args[flagAt]}`);
  const corrected = args.flatMap((a, i) => (i === flagAt ? [] : i === variantAt ? [`${prefix}${shellQuote(joined)}`] : [shellQuote(a)]));
  return `Unknown option \`${args[flagAt]}\`: if it is an engine flag, it goes inside the variant's quotes, as in \`${spec.command} ${corrected.join(' ')}\``;
}

/** The usage line: "rtbench bench <suite>". */
export const usageLine = (spec: ArgsSpec): string => `${spec.command} ${positionalsLabel(spec.positionals)}`.trim();

/**
 * Reads `args` (what follows the command) by the declarations. Errors are
 * UsageErrors of one line, naming the option as `--name`.
 */
export function parseCommandArgs(args: readonly string[], spec: ArgsSpec): ParsedArgs {
  const { options, positionals } = spec;
  const usage = usageLine(spec);
  const byName = new Map(options.flatMap((o) => [[o.name, o] as const, ...(o.formerly ? [[o.formerly.name, o] as const] : [])]));
  const tokens = tokenize(args, options);
  for (const token of tokens) {
    const option = token.kind === 'option' ? byName.get(token.name) : undefined;
    if (option?.standalone) return { flags: { [camelName(option.name)]: true }, positionals: [], notes: [] };
  }
  const notes: string[] = [];
  const flags: ParsedFlags = {};
  const free: { index: number; value: string }[] = [];
  const claims: Claim[] = [];
  let collecting: Claim | undefined;
  // Where the last variant (a --runtime or --compare value) was written: an unknown option right after it is an engine flag left outside its quotes.
  let variantAt: number | undefined;

  for (const token of tokens) {
    if (token.kind === 'option-terminator') {
      collecting = undefined;
      continue;
    }
    if (token.kind === 'positional') {
      if (collecting && collecting.taken.length < collecting.capacity) {
        collecting.taken.push({ index: token.index, value: token.value });
        if (VARIANT_OPTIONS.has(collecting.option.name)) variantAt = token.index;
      } else free.push({ index: token.index, value: token.value });
      continue;
    }
    collecting = undefined;
    const option = byName.get(token.name);
    if (!option) {
      const near = nearest(token.rawName, options);
      // Right after a variant and close to no option of rtbench's: an engine flag left outside the variant's quotes.
      if (!near && variantAt !== undefined && variantAt === token.index - 1) throw new UsageError(engineFlagOutside(spec, args, variantAt, token.index));
      throw new UsageError(`Unknown option \`${token.rawName}\`${near ? ` (did you mean ${near}?)` : ''}: \`${spec.command} --help\` lists the options`);
    }
    const name = `--${option.name}`;
    const key = camelName(option.name);
    if (option.formerly && token.name === option.formerly.name && !notes.includes(option.formerly.note)) notes.push(option.formerly.note);
    const value = token.value;
    switch (option.kind) {
      case 'flag':
        if (value !== undefined) throw new UsageError(`${name} takes no value (got ${JSON.stringify(value)})`);
        flags[key] = true;
        break;
      case 'value':
      case 'list': {
        // A value-taking option swallows the next argument; one that is itself an option means the value was left out.
        if (value === undefined || (!token.inlineValue && value.startsWith('--'))) throw new UsageError(`${name} needs a value`);
        if (value.trim() === '') throw new UsageError(`${name} needs a value (it was empty)`);
        const before = flags[key];
        if (VARIANT_OPTIONS.has(option.name)) variantAt = token.inlineValue ? token.index : token.index + 1;
        if (option.kind === 'list') flags[key] = [...((before as string[] | undefined) ?? []), value];
        else if (before !== undefined) throw new UsageError(`${name} is given twice (${JSON.stringify(before)} and ${JSON.stringify(value)})`);
        else flags[key] = value;
        break;
      }
      case 'trailing':
        flags[key] ??= [];
        // `--compare=a` is one value and takes nothing after it; kept among the claims so that values stay in order.
        if (value !== undefined) claims.push({ option, taken: [{ index: token.index, value }], capacity: 1, inline: true });
        else claims.push((collecting = { option, taken: [], capacity: Infinity }));
        break;
      case 'flag-or-value':
        if (flags[key] !== undefined) throw new UsageError(`${name} is given twice`);
        flags[key] = value ?? true;
        if (value === undefined) claims.push((collecting = { option, taken: [], capacity: 1 }));
        break;
    }
  }

  // An option that takes the arguments after it leaves the command its own: `bench --compare a b suite` is suite "suite".
  const required = positionals.filter((p) => p.required).length;
  for (let c = claims.length - 1; c >= 0 && free.length < required; c--) {
    const { taken, inline } = claims[c]!;
    while (!inline && taken.length && free.length < required) free.push(taken.pop()!);
  }
  free.sort((a, b) => a.index - b.index);
  for (const claim of claims) {
    const key = camelName(claim.option.name);
    if (claim.option.kind === 'trailing') (flags[key] as string[]).push(...claim.taken.map((t) => t.value));
    else if (claim.taken.length) flags[key] = claim.taken[0]!.value;
  }

  const given = free.map((f) => f.value);
  const missing = positionals.slice(given.length).find((p) => p.required);
  if (missing) throw new UsageError(`${usage}: ${missing.missing ?? `missing <${missing.name}>`}`);
  if (!positionals.some((p) => p.variadic) && given.length > positionals.length) {
    throw new UsageError(`${usage}: unexpected argument ${JSON.stringify(given[positionals.length])}`);
  }
  return { flags, positionals: given, notes };
}

/**
 * The command named on the line: its first argument that is neither an
 * option nor an option's value (options may come before it), and the rest.
 * `options`: every command's, to know which take a value.
 */
export function splitCommand(argv: readonly string[], options: readonly OptionSpec[]): { name?: string; rest: string[] } {
  const first = tokenize(argv, options).find((t) => t.kind === 'positional');
  if (!first) return { rest: [...argv] };
  return { name: first.value, rest: argv.filter((_, i) => i !== first.index) };
}
