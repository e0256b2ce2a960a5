/**
 * A wrangler project's configuration, read as wrangler reads it
 * (wrangler.json, wrangler.jsonc or wrangler.toml, in that order of
 * preference in a folder): the Worker's main module, its compatibility date
 * and flags, its vars (the handler's env) and its define (written into the
 * bundle). A build step is not run, and a binding rtbench cannot stand in
 * for is refused in one line naming it, before anything runs.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
// The ESM build: the package's main is a UMD build whose require() calls a bundle cannot follow.
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import { parse as parseToml, TomlError } from 'smol-toml';
import { UsageError } from './errors.ts';

/** The names wrangler looks for in a project folder, in its order of preference. */
const WRANGLER_CONFIG_NAMES = ['wrangler.json', 'wrangler.jsonc', 'wrangler.toml'] as const;

/** What rtbench takes from a wrangler project. */
interface WranglerProject {
  /** The config file, and the project's name (its `name`, else the folder's). */
  configFile: string;
  name: string;
  /** The Worker's entry module, absolute. */
  main: string;
  compatibilityDate?: string;
  compatibilityFlags: string[];
  /** `vars`: the env the handler is called with. */
  vars: Record<string, unknown>;
  /** `define`: identifiers replaced by expressions in the bundle, as esbuild's define. */
  define: Record<string, string>;
  /** A `build` command the project declares (rtbench does not run it), if any. */
  build?: string;
}

/**
 * Bindings wrangler gives a Worker that rtbench cannot stand in for, by
 * config key, with the words a refusal names them by. A Worker that uses one
 * would measure rtbench's stand-in, not the Worker.
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
  assets: 'static assets',
  pipelines: 'a pipeline',
  unsafe: 'an unsafe binding',
};

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

/** The config's top level as an object, or a one-line UsageError naming the file and where its syntax breaks. */
function parseConfig(file: string): Record<string, unknown> {
  const text = readFileSync(file, 'utf8');
  const shown = basename(file);
  let value: unknown;
  if (file.endsWith('.toml')) {
    try {
      value = parseToml(text);
    } catch (error) {
      if (error instanceof TomlError) throw new UsageError(`${shown} is not valid TOML: line ${error.line}, column ${error.column}: ${error.message.split('\n')[0]}`);
      throw error;
    }
  } else {
    const errors: ParseError[] = [];
    value = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
    if (errors.length) throw new UsageError(`${shown} is not valid JSON with comments: ${lineAndColumn(text, errors[0]!.offset)}: ${printParseErrorCode(errors[0]!.error)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`${shown}: its top level is not a table of settings`);
  return value as Record<string, unknown>;
}

const isStringRecord = (x: unknown): x is Record<string, string> => typeof x === 'object' && x !== null && !Array.isArray(x) && Object.values(x).every((v) => typeof v === 'string');

/** Reads and checks a wrangler config; every problem is one UsageError line, before anything runs. */
export function readWranglerProject(file: string): WranglerProject {
  const config = parseConfig(file);
  const shown = basename(file);
  for (const [key, what] of Object.entries(BINDINGS)) {
    const value = config[key];
    const present = Array.isArray(value) ? value.length > 0 : value !== undefined && value !== null && !(typeof value === 'object' && Object.keys(value).length === 0);
    if (!present) continue;
    const names = (Array.isArray(value) ? value : (value as { bindings?: unknown[] }).bindings ?? [value]).map((b) => (b as { binding?: string; name?: string }).binding ?? (b as { name?: string }).name).filter((n): n is string => typeof n === 'string');
    throw new UsageError(`${shown} declares ${what} binding (${key}${names.length ? `: ${names.join(', ')}` : ''}): rtbench cannot stand in for it, and a Worker measured without it is not this Worker`);
  }
  const main = config.main;
  if (typeof main !== 'string' || main === '') throw new UsageError(`${shown} names no main (the Worker's entry module, e.g. main = "src/index.js")`);
  const mainPath = resolve(dirname(file), main);
  if (!existsSync(mainPath) || !statSync(mainPath).isFile()) throw new UsageError(`${shown}: main ${main}: no such file${config.build ? ' (the project\'s build step makes it? rtbench does not run [build]: build it first)' : ''}`);
  const date = config.compatibility_date;
  if (date !== undefined && (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date))) throw new UsageError(`${shown}: compatibility_date ${JSON.stringify(date)} is not a date (YYYY-MM-DD)`);
  const flags = config.compatibility_flags ?? [];
  if (!Array.isArray(flags) || !flags.every((f) => typeof f === 'string')) throw new UsageError(`${shown}: compatibility_flags must be a list of flag names`);
  const vars = config.vars ?? {};
  if (typeof vars !== 'object' || vars === null || Array.isArray(vars)) throw new UsageError(`${shown}: vars must be a table of names and values`);
  const define = config.define ?? {};
  if (!isStringRecord(define)) throw new UsageError(`${shown}: define must map names to expressions written as strings`);
  const build = (config.build as { command?: unknown } | undefined)?.command;
  return {
    configFile: file,
    name: typeof config.name === 'string' && config.name ? config.name : basename(dirname(file)),
    main: mainPath,
    ...(date !== undefined ? { compatibilityDate: date } : {}),
    compatibilityFlags: flags as string[],
    vars: vars as Record<string, unknown>,
    define,
    ...(typeof build === 'string' ? { build } : {}),
  };
}
