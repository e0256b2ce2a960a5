/**
 * A wrangler project's configuration, read as wrangler reads it
 * (wrangler.json, wrangler.jsonc or wrangler.toml, in that order of
 * preference in a folder): the Worker's main module, its compatibility date
 * and flags, its vars (the handler's env), its define (written into the
 * bundle), its static assets (static-assets.ts) and the legacy node_compat
 * (as the nodejs_compat flag). A build step is not run; a binding rtbench
 * cannot stand in for, the legacy Workers Sites, and any top-level key that
 * is no setting it knows are refused in one line naming them, before
 * anything runs; a file too large or nesting too deep to be a config is
 * refused in one line too.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
// The ESM build: the package's main is a UMD build whose require() calls a bundle cannot follow.
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import { parse as parseToml, TomlError } from 'smol-toml';
import { transformSync } from 'esbuild';
import { oneLine } from '@rtbench/core/words';
import { UsageError } from '@rtbench/core/usage-error';
import { readAssetsTable, type StaticAssets } from './static-assets.ts';

/** The names wrangler looks for in a project folder, in its order of preference. */
const WRANGLER_CONFIG_NAMES = ['wrangler.json', 'wrangler.jsonc', 'wrangler.toml'] as const;

/** What rtbench takes from a wrangler project. */
export interface WranglerProject {
  /** The config file, and the project's name (its `name`, else the folder's). */
  configFile: string;
  name: string;
  /** The Worker's entry module, absolute; absent: a project of static assets alone. */
  main?: string;
  compatibilityDate?: string;
  compatibilityFlags: string[];
  /** `vars`: the env the handler is called with. */
  vars: Record<string, unknown>;
  /** `define`: identifiers replaced by expressions in the bundle, as esbuild's define. */
  define: Record<string, string>;
  /** The static assets served in front of the Worker, if it declares them. */
  assets?: StaticAssets;
  /** A `build` command the project declares (rtbench does not run it), if any. */
  build?: string;
  /** What is said before the run of how its settings were read (a legacy setting, bundling settings not applied). */
  notes: string[];
}

/**
 * Bindings wrangler gives a Worker that rtbench cannot stand in for, by
 * config key, with the words a refusal names them by. A Worker that uses one
 * would measure rtbench's stand-in, not the Worker. Any other top-level key
 * that is not a setting below is refused too, naming it.
 */
const BINDINGS: Record<string, string> = {
  kv_namespaces: 'a KV namespace',
  d1_databases: 'a D1 database',
  r2_buckets: 'an R2 bucket',
  durable_objects: 'a Durable Object',
  queues: 'a queue',
  services: 'a service binding',
  ai: 'Workers AI',
  vectorize: 'a Vectorize index',
  hyperdrive: 'a Hyperdrive config',
  analytics_engine_datasets: 'an Analytics Engine dataset',
  browser: 'Browser Rendering',
  dispatch_namespaces: 'a dispatch namespace',
  mtls_certificates: 'an mTLS certificate',
  send_email: 'an email binding',
  workflows: 'a workflow',
  images: 'Images',
  version_metadata: 'version metadata',
  secrets_store_secrets: 'a Secrets Store secret',
  pipelines: 'a pipeline',
  unsafe: 'an unsafe binding',
  ratelimits: 'a rate limiter',
  worker_loaders: 'a Worker loader',
  vpc_services: 'a VPC service',
  tail_consumers: 'a tail consumer',
  streaming_tail_consumers: 'a tail consumer',
  containers: 'a container',
  cloudchamber: 'a container',
  logfwdr: 'a log forwarder',
  // Service-worker globals: on a module Worker they are not in env either, so the Worker would run with them undefined.
  wasm_modules: 'a Wasm module',
  text_blobs: 'a text blob',
  data_blobs: 'a data blob',
};

/** Settings rtbench reads. */
const READ = ['main', 'name', 'compatibility_date', 'compatibility_flags', 'vars', 'define', 'build', 'node_compat', 'assets'] as const;

/** Settings of the deployment, not of the code a request runs: accepted and ignored. */
const DEPLOYMENT = [
  '$schema', 'account_id', 'workers_dev', 'preview_urls', 'route', 'routes', 'triggers', 'usage_model', 'limits', 'placement',
  'observability', 'logpush', 'send_metrics', 'keep_vars', 'dev', 'env', 'legacy_env', 'upload_source_maps', 'compliance_region',
  'migrations', 'first_party_worker', 'zone_id',
] as const;

/** Settings of wrangler's own bundling, which rtbench's bundle does not apply: named in a note. */
const BUNDLING = ['minify', 'keep_names', 'tsconfig', 'jsx_factory', 'jsx_fragment', 'no_bundle', 'find_additional_modules', 'base_dir', 'preserve_file_names', 'rules', 'alias'] as const;

/** The top-level keys a config may have, each in one of the lists above. */
const KNOWN = new Set<string>([...READ, ...DEPLOYMENT, ...BUNDLING]);

/** Bounds on what is read: a config file's size, and how deep its values nest. */
const MAX_CONFIG_BYTES = 1024 * 1024;
const MAX_DEPTH = 64;

/** The wrangler config in a folder, or the file itself when it is one; undefined for anything else. */
export function wranglerConfigAt(path: string): string | undefined {
  const full = resolve(path);
  if (!existsSync(full)) return undefined;
  if (statSync(full).isDirectory()) return WRANGLER_CONFIG_NAMES.map((n) => join(full, n)).find((f) => existsSync(f));
  return (WRANGLER_CONFIG_NAMES as readonly string[]).includes(basename(full)) ? full : undefined;
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before[before.length - 1]!.length + 1}`;
}

/** How deep a parsed value nests, walked without recursion. */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_DEPTH) return deepest;
    if (typeof v === 'object' && v !== null) for (const inner of Object.values(v)) stack.push([inner, depth + 1]);
  }
  return deepest;
}

/** The config's text: a regular file within the size bound, else a one-line UsageError. */
function configText(file: string, shown: string): string {
  const stat = statSync(file);
  if (!stat.isFile()) throw new UsageError(`${shown} is not a regular file`);
  if (stat.size > MAX_CONFIG_BYTES) throw new UsageError(`${shown} is ${stat.size} bytes: rtbench reads wrangler configs of at most ${MAX_CONFIG_BYTES} bytes`);
  return readFileSync(file, 'utf8');
}

/** The config's top level as an object, or a one-line UsageError naming the file and where its syntax breaks. */
function parseConfig(file: string): Record<string, unknown> {
  const shown = basename(file);
  const text = configText(file, shown);
  const tooDeep = new UsageError(`${shown} nests its values more than ${MAX_DEPTH} deep: not a wrangler config rtbench reads`);
  let value: unknown;
  try {
    if (file.endsWith('.toml')) {
      value = parseToml(text, { maxDepth: MAX_DEPTH });
    } else {
      const errors: ParseError[] = [];
      value = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
      if (errors.length) throw new UsageError(`${shown} is not valid JSON with comments: ${lineAndColumn(text, errors[0]!.offset)}: ${printParseErrorCode(errors[0]!.error)}`);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (error instanceof RangeError) throw tooDeep;
    if (error instanceof TomlError) throw /nested/.test(error.message) ? tooDeep : new UsageError(`${shown} is not valid TOML: line ${error.line}, column ${error.column}: ${error.message.split('\n')[0]}`);
    throw new UsageError(`${shown} cannot be read: ${oneLine((error as Error).message)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`${shown}: its top level is not a table of settings`);
  if (depthOf(value) > MAX_DEPTH) throw tooDeep;
  return value as Record<string, unknown>;
}

const isStringRecord = (x: unknown): x is Record<string, string> => typeof x === 'object' && x !== null && !Array.isArray(x) && Object.values(x).every((v) => typeof v === 'string');

const isPresent = (value: unknown): boolean => (Array.isArray(value) ? value.length > 0 : value !== undefined && value !== null && value !== false && !(typeof value === 'object' && Object.keys(value).length === 0));

/** The names a binding's entries give (`binding`, else `name`). */
function bindingNames(value: unknown): string[] {
  const entries = Array.isArray(value) ? value : typeof value === 'object' && value !== null ? ((value as { bindings?: unknown[] }).bindings ?? [value]) : [];
  const names = entries.map((b) => (typeof b === 'object' && b !== null ? ((b as { binding?: unknown }).binding ?? (b as { name?: unknown }).name) : undefined));
  // A table of name = value (wasm_modules, text_blobs) names its bindings by its keys.
  const keyed = !Array.isArray(value) && typeof value === 'object' && value !== null && !('bindings' in value) && !names.some((n) => typeof n === 'string') ? Object.keys(value) : [];
  return [...names.filter((n): n is string => typeof n === 'string'), ...keyed];
}

/** Refuses, in one line, the first top-level key that is a binding, the legacy Workers Sites, or no setting rtbench knows. */
function checkKeys(config: Record<string, unknown>, shown: string): void {
  for (const [key, value] of Object.entries(config)) {
    const binding = BINDINGS[key];
    if (binding !== undefined) {
      if (!isPresent(value)) continue;
      const names = bindingNames(value);
      throw new UsageError(`${shown} declares ${binding} binding (${key}${names.length ? `: ${names.join(', ')}` : ''}): rtbench cannot stand in for it, and a Worker measured without it is not this Worker`);
    }
    if (key === 'site') {
      if (!isPresent(value)) continue;
      const bucket = typeof value === 'string' ? value : (value as { bucket?: unknown }).bucket;
      throw new UsageError(`${shown} declares the legacy Workers Sites (site${typeof bucket === 'string' ? `: ${bucket}` : ''}): its Worker reads a KV namespace rtbench cannot stand in for; static assets (assets = { directory = … }) replace it and are served`);
    }
    if (!KNOWN.has(key)) throw new UsageError(`${shown} declares ${key}, which is not a wrangler setting rtbench knows: were it a binding, rtbench could not stand in for it, so it refuses rather than measure without it`);
  }
}

/** A YYYY-MM-DD that names a day of the calendar. */
function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text;
}

/** Each define value as esbuild's define takes it, or a one-line UsageError quoting esbuild's whole complaint. */
function checkDefine(define: Record<string, string>, shown: string): void {
  for (const [name, value] of Object.entries(define)) {
    try {
      transformSync('', { define: { [name]: value } });
    } catch (error) {
      const text = (error as { errors?: { text: string }[] }).errors?.[0]?.text ?? (error as Error).message;
      throw new UsageError(`${shown}: define ${name}: ${oneLine(text)}`);
    }
  }
}

/** A config's compatibility date and flags, its legacy node_compat read as the flag (said in `notes`). */
function compatibilityOf(config: Record<string, unknown>, shown: string, notes: string[]): { date?: string; flags: string[] } {
  const date = config.compatibility_date;
  if (date !== undefined && (typeof date !== 'string' || !isCalendarDate(date))) throw new UsageError(`${shown}: compatibility_date ${JSON.stringify(date)} is not a date of the calendar (YYYY-MM-DD)`);
  const flags = config.compatibility_flags ?? [];
  if (!Array.isArray(flags) || !flags.every((f) => typeof f === 'string')) throw new UsageError(`${shown}: compatibility_flags must be a list of flag names`);
  const nodeCompat = config.node_compat;
  if (nodeCompat !== undefined && typeof nodeCompat !== 'boolean') throw new UsageError(`${shown}: node_compat must be true or false`);
  if (nodeCompat === true) {
    // wrangler's legacy setting bundled polyfills of Node's builtins; the flag that replaced it has the Workers runtime provide them.
    if (!flags.some((f) => /^nodejs_compat(_v2)?$/.test(f as string))) flags.push('nodejs_compat');
    notes.push(`${shown}'s legacy node_compat = true is read as the nodejs_compat flag: Node's builtins come from the Workers runtime, not from bundled polyfills`);
  }
  return { ...(typeof date === 'string' ? { date } : {}), flags: flags as string[] };
}

/**
 * A config read before the project's build has made its main and assets
 * folder (a framework app's): every refusal of readWranglerProject that
 * does not need them (a binding, a key rtbench does not know, a bad
 * date), and the compatibility the Workers runtime serves the build with.
 */
export function readWranglerCompatibility(file: string): { date?: string; flags: string[] } {
  const config = parseConfig(file);
  checkKeys(config, basename(file));
  return compatibilityOf(config, basename(file), []);
}

/** A config's vars (the Worker's env), read before the project's build (a framework app's: its Node.js side's stand-in env). */
export function readWranglerVars(file: string): Record<string, unknown> {
  const vars = parseConfig(file).vars ?? {};
  if (typeof vars !== 'object' || vars === null || Array.isArray(vars)) throw new UsageError(`${basename(file)}: vars must be a table of names and values`);
  return vars as Record<string, unknown>;
}

/** Reads and checks a wrangler config; every problem is one UsageError line, before anything runs. */
export function readWranglerProject(file: string): WranglerProject {
  const config = parseConfig(file);
  const shown = basename(file);
  checkKeys(config, shown);
  const notes: string[] = [];
  const main = config.main;
  const hasAssets = isPresent(config.assets);
  if (main !== undefined || !hasAssets) {
    if (typeof main !== 'string' || main === '') throw new UsageError(`${shown} names no main (the Worker's entry module, e.g. main = "src/index.js")`);
    const mainPath = resolve(dirname(file), main);
    if (!existsSync(mainPath) || !statSync(mainPath).isFile()) throw new UsageError(`${shown}: main ${main}: no such file${config.build ? ' (the project\'s build step makes it? rtbench does not run [build]: build it first)' : ''}`);
  }
  const { date, flags } = compatibilityOf(config, shown, notes);
  const vars = config.vars ?? {};
  if (typeof vars !== 'object' || vars === null || Array.isArray(vars)) throw new UsageError(`${shown}: vars must be a table of names and values`);
  const define = config.define ?? {};
  if (!isStringRecord(define)) throw new UsageError(`${shown}: define must map names to expressions written as strings`);
  checkDefine(define, shown);
  const unapplied = BUNDLING.filter((key) => config[key] !== undefined);
  if (unapplied.length) notes.push(`${shown}'s ${unapplied.join(', ')} ${unapplied.length === 1 ? 'is a setting' : 'are settings'} of wrangler's bundling, not applied: rtbench bundles main with esbuild's defaults`);
  const build = (config.build as { command?: unknown } | undefined)?.command;
  const assets = hasAssets ? readAssetsTable(config.assets, dirname(file), shown, { ...(date !== undefined ? { date } : {}), flags }) : undefined;
  return {
    configFile: file,
    name: typeof config.name === 'string' && config.name ? config.name : basename(dirname(file)),
    ...(typeof main === 'string' ? { main: resolve(dirname(file), main) } : {}),
    ...(assets ? { assets } : {}),
    ...(date !== undefined ? { compatibilityDate: date } : {}),
    compatibilityFlags: flags,
    vars: vars as Record<string, unknown>,
    define,
    ...(typeof build === 'string' ? { build } : {}),
    notes,
  };
}
