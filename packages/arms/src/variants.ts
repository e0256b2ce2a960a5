/**
 * Variants: a runtime plus everything that changes its speed. One syntax
 * everywhere (--runtime, --compare, results):
 *
 *   [name:] <runtime> [--engine-flag[=value] ...] [ENV_NAME=value ...]
 *
 * A name (`patched: node=/src/node/out/Release/node`) is the variant's id in
 * tables, notes and the page; its record keeps the runtime, flags and binary.
 * e.g. "node@26 --max-semi-space-size=64", "deno --jitless",
 * "bun --useConcurrentJIT=false", "node=/src/node/out/Release/node NODE_ENV=production".
 * Engine flags are written the same for every runtime and translated by its plug-in.
 */
import { FlagError, RuntimeUnavailableError, type RuntimeTarget, type TranslatedFlags } from '@rtbench/runtime-kit';
import type { ResolvedVariant, UnavailableVariant, VariantSpec } from '@rtbench/runtime-registry';
import { sha256File } from '@rtbench/host/installs';
import { runtimeStore } from './runtime-store.ts';
import type { Variant } from '@rtbench/core/schema';
import { UsageError } from '@rtbench/core/usage-error';
import { askPlugin, pluginForSpec, runtimePlugins } from '@rtbench/runtime-registry';

export const VARIANT_SYNTAX = '[name:] <runtime> [--engine-flag[=value] ...] [ENV=value ...] [package@version | package=/path ...]   e.g. "node@26 --max-semi-space-size=64", "workerd react@19.2.0", "patched: node=/src/node/out/Release/node"; quote a part that holds spaces or commas: \'NODE_OPTIONS=--a --b\'';

/** An npm package's name (lower case, an optional scope), as a pin names it. */
const PACKAGE_NAME = '(?:@[a-z0-9][a-z0-9._-]*/)?[a-z0-9][a-z0-9._-]*';
/** `react@19.2.0`, `react@19.2.x`: a package pinned to a version from npm. */
const PIN_VERSION = new RegExp(`^(${PACKAGE_NAME})@([0-9][0-9A-Za-z.+-]*)$`);
/** `react=/src/react/build/oss-stable/react`: a package pinned to a local build (a path; environment variables are upper case). */
const PIN_PATH = new RegExp(`^(${PACKAGE_NAME})=((?:/|\\./|\\.\\./|~/).*)$`);

type PackagePin = NonNullable<VariantSpec['packages']>[number];

/** A part that pins a package, or undefined. */
function pinOf(token: string): PackagePin | undefined {
  const version = PIN_VERSION.exec(token);
  if (version) return { name: version[1]!, version: version[2]! };
  const path = PIN_PATH.exec(token);
  return path ? { name: path[1]!, path: path[2]! } : undefined;
}

/** The runtime an arm that names only packages runs on (`--compare react@18.3.1 react@19.2.0`). */
const PINS_ONLY_RUNTIME = 'node';

/**
 * Splits a variant into its parts as a shell would, in a small subset:
 * whitespace separates; '…' is taken literally; "…" is taken with \" and \\
 * escaped; outside quotes a backslash escapes the next character. Quotes may
 * sit inside a part (FOO='a b'). With `commas`, an unquoted comma ends a
 * variant: the result is one list of parts per variant.
 */
function scan(text: string, commas: boolean): string[][] {
  const variants: string[][] = [[]];
  let part: string | undefined;
  const endPart = (): void => {
    if (part !== undefined) variants[variants.length - 1]!.push(part);
    part = undefined;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (/\s/.test(c)) endPart();
    else if (c === ',' && commas) {
      endPart();
      variants.push([]);
    } else if (c === "'" || c === '"') {
      const close = c;
      part ??= '';
      let j = i + 1;
      for (; j < text.length && text[j] !== close; j++) {
        if (close === '"' && text[j] === '\\' && (text[j + 1] === '"' || text[j + 1] === '\\')) j++;
        part += text[j];
      }
      if (j >= text.length) throw new UsageError(`cannot parse variant ${JSON.stringify(text)}: a ${close} quote is not closed. Syntax: ${VARIANT_SYNTAX}`);
      i = j;
    } else if (c === '\\' && i + 1 < text.length) {
      part = (part ?? '') + text[++i];
    } else part = (part ?? '') + c;
  }
  endPart();
  return variants;
}

/** A part as it must be written to read back as itself (quoted when it holds spaces, quotes, commas or backslashes). */
export function quotePart(part: string): string {
  if (part !== '' && !/[\s'",\\]/.test(part)) return part;
  if (!part.includes("'")) return `'${part}'`;
  return `"${part.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * The parts with the runtime first. An arm that starts with packages runs on
 * the runtime written right after them (`react@19.2.0 workerd`: a release
 * range of a package writes its versions first), or on the default runtime.
 */
function runtimeFirst(parts: readonly string[]): string[] {
  const leadingPins = parts.findIndex((p) => pluginForSpec(p) !== undefined || pinOf(p) === undefined);
  if (leadingPins === 0) return [...parts];
  const next = leadingPins < 0 ? undefined : parts[leadingPins]!;
  if (next === undefined || next.startsWith('-') || !pluginForSpec(next)) return [PINS_ONLY_RUNTIME, ...parts];
  return [next, ...parts.filter((_, i) => i !== leadingPins)];
}

/** `patched:` before a variant (or glued to its runtime, `patched:node=/…`): the name the tables, notes and page call it by. */
const NAME = /^([A-Za-z][\w.+-]*):(.*)$/s;

/** The name a variant's first part gives it, if any, and its parts without it. */
function namedParts(parts: readonly string[]): { name?: string; parts: string[] } {
  const m = parts.length ? NAME.exec(parts[0]!) : null;
  if (!m) return { parts: [...parts] };
  return { name: m[1]!, parts: m[2] ? [m[2], ...parts.slice(1)] : parts.slice(1) };
}

function variantFromParts(written: string[], text: string): VariantSpec {
  const { name, parts } = namedParts(written);
  if (name !== undefined && !parts.length) throw new UsageError(`variant ${JSON.stringify(text)} names ${name} but no runtime after it. Syntax: ${VARIANT_SYNTAX}`);
  const [runtimeSpec, ...rest] = runtimeFirst(parts);
  if (!runtimeSpec || runtimeSpec.startsWith('-')) throw new UsageError(`cannot parse variant ${JSON.stringify(text)}: it must start with a runtime. Syntax: ${VARIANT_SYNTAX}`);
  const flags: string[] = [];
  // Keyed by the user's variable names: no prototype, so `constructor=1` or `__proto__=1` is a variable like any other.
  const env: Record<string, string> = Object.create(null);
  const packages: PackagePin[] = [];
  for (const token of rest) {
    const pin = pinOf(token);
    if (pin) {
      const twice = packages.find((p) => p.name === pin.name);
      if (twice) throw new UsageError(`variant ${JSON.stringify(text)} pins ${pin.name} twice (${pinText(twice)} and ${pinText(pin)}): one version of a package per arm`);
      packages.push(pin);
    } else if (/^--?[A-Za-z0-9_-]+(=.*)?$/s.test(token)) flags.push(token);
    else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(token)) {
      const eq = token.indexOf('=');
      const name = token.slice(0, eq);
      if (Object.hasOwn(env, name)) throw new UsageError(`variant ${JSON.stringify(text)} sets ${name} twice`);
      env[name] = token.slice(eq + 1);
    } else throw new UsageError(`cannot parse ${JSON.stringify(token)} in variant ${JSON.stringify(text)}. Syntax: ${VARIANT_SYNTAX}`);
  }
  if (!pluginForSpec(runtimeSpec)) throw new UsageError(unknownRuntimeMessage(runtimeSpec));
  return { id: name ?? parts.map(quotePart).join(' '), runtimeSpec, flags, env, ...(packages.length ? { packages } : {}) };
}

/** A pin as written. */
export function pinText(pin: PackagePin): string {
  return pin.path !== undefined ? `${pin.name}=${pin.path}` : `${pin.name}@${pin.version!}`;
}

/** Whether a variant is packages alone, its runtime not written (`react@18.3.1`, not `node react@18.3.1`). */
export function pinsAlone(spec: VariantSpec): boolean {
  return Boolean(spec.packages?.length) && scan(spec.id, false)[0]!.every((part) => pinOf(part) !== undefined);
}

/** One variant; its id is the canonical spelling (parts quoted where needed), which parses back to the same variant. */
export function parseVariant(text: string): VariantSpec {
  const variants = scan(text, false);
  return variantFromParts(variants[0]!, text);
}

/** Splits a comma-separated list of variants (commas inside quotes belong to the variant). Empty entries are dropped. */
export function splitVariantList(list: string): string[][] {
  return scan(list, true).filter((parts) => parts.length > 0);
}

/**
 * The same variant listed again is allowed (an A/A table or comparison
 * measures the machine's noise): later copies get ids "node@26 #2", "#3", …
 */
export function numberRepeats(specs: readonly VariantSpec[]): VariantSpec[] {
  const seen = new Map<string, number>();
  return specs.map((spec) => {
    const count = (seen.get(spec.id) ?? 0) + 1;
    seen.set(spec.id, count);
    return count === 1 ? spec : { ...spec, id: `${spec.id} #${count}` };
  });
}

/** --runtime "a,b,c": commas separate variants. */
export function parseRuntimeList(list: string): VariantSpec[] {
  const specs = splitVariantList(list).map((parts) => variantFromParts(parts, parts.map(quotePart).join(' ')));
  if (!specs.length) throw new UsageError(`--runtime ${JSON.stringify(list)} names no variant. Syntax: ${VARIANT_SYNTAX}`);
  return numberRepeats(specs);
}

export function unknownRuntimeMessage(spec: string): string {
  const known = runtimePlugins().flatMap((r) => [r.name, ...r.knownSpecs().map((k) => k.spec)]);
  return `unknown runtime "${spec}". Known: ${[...new Set(known)].join(', ')}`;
}

/** `message` without a leading "<name>: " (a runtime's error names its spec; the line it ends up in names the variant already). */
function withoutPrefix(message: string, name: string): string {
  return message.startsWith(`${name}: `) ? message.slice(name.length + 2) : message;
}

export async function resolveVariant(spec: VariantSpec): Promise<ResolvedVariant | UnavailableVariant> {
  const plugin = pluginForSpec(spec.runtimeSpec)!;
  let target: RuntimeTarget;
  try {
    // A plug-in from RTBENCH_RUNTIME_PLUGINS: bounded, and any failure said in one line naming it.
    target = await askPlugin(plugin, `resolving "${spec.runtimeSpec}"`, () => plugin.resolve(spec.runtimeSpec, runtimeStore()));
  } catch (error) {
    if (error instanceof RuntimeUnavailableError) return { spec, plugin, reason: withoutPrefix(error.message, spec.runtimeSpec), kind: 'runtime-unavailable' };
    throw error;
  }
  let flags: TranslatedFlags;
  try {
    flags = plugin.translateFlags(spec.flags);
    flags = { args: flags.args, env: { ...flags.env, ...spec.env } };
    if (spec.flags.length) await askPlugin(plugin, `checking the flags of "${spec.runtimeSpec}"`, () => plugin.checkFlags(target, flags));
  } catch (error) {
    if (error instanceof FlagError) return { spec, plugin, reason: error.message, kind: 'flags' };
    throw error;
  }
  const record: Variant = {
    id: spec.id,
    runtime: plugin.name,
    spec: spec.runtimeSpec,
    flags: spec.flags,
    translatedFlags: flags,
    binary: target.binary,
    binarySha256: await sha256File(target.binary),
    source: target.source,
    version: target.version,
    engine: target.engine,
    engineVersion: target.engineVersion,
    displayNames: { runtime: plugin.displayName, engine: plugin.engine.displayName, engineShort: plugin.engine.shortName },
  };
  return { spec, plugin, target, flags, record };
}
