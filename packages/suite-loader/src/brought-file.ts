/**
 * A benchmark file written for another harness, run unchanged: mitata,
 * tinybench, vitest's bench(), benchmark.js, Node.js core's benchmark/ files (createBenchmark from
 * '../common.js'), node:bench and Deno.bench. The file is imported for its
 * side effects; what it imports from its harness resolves to
 * packages/adapters (bundle.ts), whose registry becomes the suite. This module
 * gives such a file what a suite folder gives: a location (name + an entry
 * that default-exports the suite, which bundle.ts bundles per runtime). Its
 * cases are listed in a runtime process (run's list-cases.ts), never on the host.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { BROUGHT_FORMATS, type BroughtFormat, type IsolationNeed } from '@rtbench/adapters/formats';
import { suiteNameFor } from '@rtbench/adapters/suite-name';
import { storeNamedFile } from '@rtbench/host/programs';
import { adaptedHarness, callsDenoBench, IMPORTS_ADAPTED, markBroughtGraph } from './bundle.ts';
import { UsageError } from '@rtbench/core/usage-error';
import { cacheDir, rtbenchModule } from './places.ts';
import type { SuiteLocation } from './suite-location.ts';
import { FRAMEWORK_PACKAGES_IN_WORDS } from './apps/all.ts';
import { declaredValues } from './declared-values.ts';
import { importsVitePlusTest } from './vite-plus.ts';
import type { DeclaredValue } from '@rtbench/adapters/value-shape';

const REGISTRY = rtbenchModule('@rtbench/adapters/registry');
const NODE_COMMON = rtbenchModule('@rtbench/adapters/node-common');
const BUILTINS = rtbenchModule('@rtbench/adapters/builtins');
const SCRIPT = /\.[cm]?[jt]sx?$/;

/** The file each generated entry stands for. */
const broughtEntries = new Map<string, string>();

/** What the formats rtbench runs unchanged look like, for messages. */
export const BROUGHT_FORMATS_IN_WORDS = "mitata, tinybench, vitest bench(), benchmark.js, node:bench, Deno.bench, or a Node.js core benchmark/<area>/<file>.js";

/** What `rtbench run` takes, for messages: those files, or a Worker. */
export const RUN_TARGETS_IN_WORDS = `${BROUGHT_FORMATS_IN_WORDS}; or a Worker: a module with \`export default { fetch }\`, a wrangler project folder or its wrangler.json(c)/.toml`;

const REQUIRES_NODE_COMMON = /require\s*\(\s*['"](?:\.\.\/)+common(?:\.js)?['"]\s*\)/;
const IMPORTS_NODE_BENCH = /(?:from\s*|import\s*\(?\s*|require\s*\(\s*)['"]node:bench['"]/;

/** The harness a module was written for, from its own text (and, for Vite+'s vitest, what its import names where it lies); undefined for anything else. */
function broughtFormatOf(source: string, path: string): BroughtFormat | undefined {
  const adapted = adaptedHarness(IMPORTS_ADAPTED.exec(source)) ?? (importsVitePlusTest(source, path) ? 'vitest' : undefined);
  // A vitest file is a benchmark file when it calls bench() (its tests import vitest too).
  if (adapted === 'vitest') return /\bbench(?:\.only)?\s*\(/.test(source) ? 'vitest' : undefined;
  if (adapted === 'benchmark') return 'benchmark-js';
  if (adapted) return adapted as 'mitata' | 'tinybench';
  if (IMPORTS_NODE_BENCH.test(source)) return 'node-bench';
  if (callsDenoBench(source)) return 'deno-bench';
  if (REQUIRES_NODE_COMMON.test(source) && /\bcreateBenchmark\s*\(/.test(source)) return 'node-core';
  return undefined;
}

function sourceOf(path: string): string | undefined {
  const full = resolve(path);
  if (!SCRIPT.test(full) || !existsSync(full) || !statSync(full).isFile()) return undefined;
  return readFileSync(full, 'utf8');
}

/** The specifiers a module imports, re-exports or requires, written as string literals. */
const SPECIFIERS = [
  /\b(?:import|export)\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g,
  /\bimport\s*\(?\s*['"]([^'"]+)['"]/g,
  /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
];
const EXTENSIONS = ['', '.ts', '.js', '.mjs', '.cjs', '.tsx', '.jsx', '.mts', '.cts'];
/** A repository's runner modules are a few files: a graph larger than this is not walked further. */
const MAX_GRAPH_FILES = 200;

/** The file a relative specifier names, as a bundler finds it (with or without an extension, a folder's index, TypeScript's `.js` for `.ts`). */
function resolveRelative(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  const candidates = [...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.slice(1).map((e) => join(base, `index${e}`)), base.replace(/\.([cm]?)js$/, '.$1ts')];
  return candidates.find((c) => SCRIPT.test(c) && existsSync(c) && statSync(c).isFile());
}

/**
 * The files of a file's own module graph, the file first, breadth-first:
 * its relative imports, never a package's (node_modules) nor Node core's
 * common.js, which rtbench stands in for.
 */
function ownGraph(file: string): { path: string; source: string }[] {
  const found: { path: string; source: string }[] = [];
  const seen = new Set<string>();
  const queue = [resolve(file)];
  while (queue.length && found.length < MAX_GRAPH_FILES) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    seen.add(path);
    const source = sourceOf(path);
    if (source === undefined) continue;
    found.push({ path, source });
    for (const pattern of SPECIFIERS) {
      for (const [, spec] of source.matchAll(pattern)) {
        if (!spec!.startsWith('.') || /^(\.\.\/)+common(\.js)?$/.test(spec!)) continue;
        const next = resolveRelative(path, spec!);
        if (next && !next.includes(`${sep}node_modules${sep}`)) queue.push(next);
      }
    }
  }
  return found;
}

/** A module written as a suite of rtbench's own (it imports rtbench's API), which `bench` runs, not `run`. */
export const IMPORTS_SUITE_API = /(?:from\s*|import\s*\(?\s*)['"](?:rtbench|@rtbench\/[\w-]+)['"]/;

/**
 * The harness a file was written for, from its module graph: its own text,
 * else the first module of its repository it imports (a shared runner that
 * imports mitata) that names one; undefined for anything else.
 */
function graphFormat(path: string): { format: BroughtFormat; files: string[] } | undefined {
  const graph = ownGraph(path);
  const own = graph[0] === undefined ? undefined : broughtFormatOf(graph[0].source, graph[0].path);
  // A suite of rtbench's own that imports a module written for another harness is still a suite.
  if (own === undefined && graph[0] !== undefined && IMPORTS_SUITE_API.test(graph[0].source)) return undefined;
  const format = own ?? graph.map((m) => broughtFormatOf(m.source, m.path)).find((f) => f !== undefined);
  return format ? { format, files: graph.map((m) => m.path) } : undefined;
}

/**
 * The sha256 (16 hex digits) of the text of a file's own module graph, in
 * order: what a case that returns nothing is proven to have run (registry.ts).
 */
function graphSourceHash(path: string): string {
  const hash = createHash('sha256');
  for (const { source } of ownGraph(path)) hash.update(source).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** Is this path a file written for one of the harnesses rtbench stands in for? */
export function isBroughtFile(path: string): boolean {
  return sourceOf(path) !== undefined && graphFormat(path) !== undefined;
}

/** What a Node core benchmark file needs of Node's harness beyond a microbenchmark, or undefined. */
function harnessNeeds(source: string): string | undefined {
  if (/\.http\s*\(/.test(source) || /_http-benchmarkers/.test(source)) return 'it starts an HTTP server and a load generator (bench.http)';
  if (/require\s*\(\s*['"](?:node:)?(?:child_process|cluster)['"]\s*\)/.test(source)) return 'it starts processes of its own (child_process)';
  if (/\bcommon\.PORT\b/.test(source)) return 'it listens on common.PORT';
  return undefined;
}

/**
 * Options that belong to one format, checked before anything runs: a Node
 * core file that needs more of Node's harness than a microbenchmark is
 * refused, `--set` applies to Node core files only, and a `// rtbench:`
 * comment must declare a value rtbench can read (declared-values.ts).
 */
export function checkBroughtFile(path: string, set: readonly string[]): void {
  const source = sourceOf(path) ?? '';
  declaredValues(path, source);
  const format = graphFormat(path)?.format;
  if (format === 'node-core') {
    const needs = harnessNeeds(source);
    if (needs) throw new UsageError(`${path} needs more of Node's benchmark harness than a microbenchmark: ${needs}; rtbench runs benchmark/ files that time code in their own process`);
    for (const s of set) if (!/^[^=]+=/.test(s)) throw new UsageError(`--set ${s}: expected key=value (a configuration of the file, as compare.js takes it)`);
  } else if (set.length) {
    throw new UsageError(`--set sets a configuration of a Node.js core benchmark file (createBenchmark); ${path} is a ${format ? BROUGHT_FORMATS[format].label : 'different'} file`);
  }
}

/** The builtins a CommonJS file and the files it requires relatively ask for with require(). */
function requiredBuiltins(file: string, seen = new Set<string>()): Set<string> {
  const found = new Set<string>();
  if (seen.has(file) || file.includes('node_modules')) return found;
  seen.add(file);
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch {
    return found;
  }
  for (const [, spec] of source.matchAll(/require\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    if (spec!.startsWith('.')) {
      for (const candidate of [spec!, `${spec}.js`, join(spec!, 'index.js')]) {
        const next = resolve(dirname(file), candidate);
        if (existsSync(next) && statSync(next).isFile()) {
          for (const b of requiredBuiltins(next, seen)) found.add(b);
          break;
        }
      }
    } else if (isBuiltin(spec!) && spec !== 'node:bench') {
      found.add(spec!.replace(/^node:/, ''));
    }
  }
  return found;
}

/** Why `path` cannot be run as a brought file, in words a user can act on, or undefined when it can. */
export function broughtFileProblem(path: string): string | undefined {
  let stat;
  try {
    stat = statSync(resolve(path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? `${path}: no such file` : `${path} cannot be read (${code ?? (error as Error).message})`;
  }
  if (stat.isDirectory()) return `${path} is a directory with no wrangler.json, wrangler.jsonc or wrangler.toml, and no framework app (a package.json naming ${FRAMEWORK_PACKAGES_IN_WORDS}): name a benchmark file or a Worker in it (for a suite folder: rtbench bench ${path})`;
  if (!stat.isFile()) return `${path} is not a regular file`;
  if (isBroughtFile(path)) return undefined;
  return `${path} is not a benchmark file or a Worker rtbench can bring (${RUN_TARGETS_IN_WORDS}; for a suite: rtbench bench <suite>)`;
}

export function isBroughtEntry(entry: string): boolean {
  return broughtEntries.has(entry);
}

/**
 * Writes the entry that turns the file into a suite: it imports the file
 * lazily, so an error while the file loads in some runtime becomes
 * "unsupported here, because …" for its cases instead of a dead process.
 * `set`: a Node.js core file's configurations (--set), baked into its entry;
 * `declared`: values the command line declares random or per-runtime
 * (--random, --per-runtime), with the file's own `// rtbench:` comments;
 * `realRandomAtLoad`: Math.random is left unseeded while the file loads.
 */
export function locateBroughtFile(path: string, set: readonly string[] = [], declared: readonly DeclaredValue[] = [], realRandomAtLoad = false): SuiteLocation {
  const file = resolve(path);
  const name = suiteNameFor(file);
  const graph = graphFormat(file);
  markBroughtGraph(graph?.files ?? []);
  const nodeCore = graph?.format === 'node-core';
  const builtins = [...requiredBuiltins(file)].sort();
  const preload = builtins.length
    ? `await provideBuiltins({ ${builtins.map((b) => `${JSON.stringify(b)}: () => import(${JSON.stringify(`node:${b}`)})`).join(', ')} }); `
    : '';
  const source = [
    `import { broughtSuite } from ${JSON.stringify(REGISTRY)};`,
    ...(builtins.length ? [`import { provideBuiltins } from ${JSON.stringify(BUILTINS)};`] : []),
    ...(nodeCore
      ? [
          `import { configureNodeCore } from ${JSON.stringify(NODE_COMMON)};`,
          // compare.js names a file <area>/<file>.js.
          `configureNodeCore({ set: ${JSON.stringify(set)}, name: ${JSON.stringify(`${basename(dirname(file))}/${basename(file)}`)} });`,
        ]
      : []),
    `export default await broughtSuite(${JSON.stringify(name)}, async () => { ${preload}return import(${JSON.stringify(file)}); }, ${JSON.stringify({ sourceHash: graphSourceHash(file), declaredValues: [...declared, ...declaredValues(path, readFileSync(file, 'utf8'))], ...(realRandomAtLoad ? { realRandomAtLoad } : {}) })});`,
    '',
  ].join('\n');
  // In the one program cache (owner-only, rewritten whenever it differs), named after the file it stands for (and what the command line gave it).
  const entry = storeNamedFile(join(cacheDir, 'brought', `${name}-${createHash('sha256').update(JSON.stringify([file, set, declared, realRandomAtLoad])).digest('hex').slice(0, 12)}.ts`), source);
  broughtEntries.set(entry, file);
  return { name, entry };
}

/** The format of the file a generated entry stands for; undefined for a suite's own entry. */
export function broughtFormatOfEntry(entry: string): BroughtFormat | undefined {
  const file = broughtEntries.get(entry);
  return file === undefined ? undefined : graphFormat(file)?.format;
}

/** The isolation the cases of the file a generated entry stands for need, if its format says so; undefined for a suite's own entry. */
export function broughtIsolationOfEntry(entry: string): IsolationNeed | undefined {
  const format = broughtFormatOfEntry(entry);
  const declared: { label: string; isolation?: IsolationNeed } | undefined = format ? BROUGHT_FORMATS[format] : undefined;
  return declared?.isolation;
}

/** The file a generated entry stands for. */
export function broughtFileOf(entry: string): string {
  return broughtEntries.get(entry) ?? entry;
}
