/**
 * The CLI's bundle (packages/cli/bin/rtbench.mjs starts it): the CLI and the
 * workspace's package exports as entries of one esbuild build with shared
 * chunks, so a start loads a few JavaScript files instead of compiling
 * hundreds of TypeScript modules. The launcher binds `@rtbench/…` names in a
 * user's module (a suite, claims, a plug-in) to these entries, so both share
 * one copy of each module's state (the memory bound, the live children, the
 * warden). Each module keeps its own `import.meta.url`, so files read next to
 * it (the warden script, the page's styles) are found where they are.
 */
import { build, type Plugin } from 'esbuild';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { exportsOf, headStatements, rewrittenStatement, takenNames, type ModuleExports } from './barrel-imports.ts';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** What the bundle directory holds beside its modules: the CLI's entry and each package export's file. */
export interface BundleEntries {
  cli: string;
  /** Specifier → its entry's file, relative to the bundle directory ("@rtbench/core/schema" → "packages/" + "rtbench_core_schema.mjs"). */
  packages: Record<string, string>;
}

const ENTRIES_FILE = 'entries.json';

/** Bundles older than this, and beyond the newest few, are removed when a new one is built. */
const KEEP_NEWEST = 3;
const KEEP_YOUNGER_MS = 60 * 60 * 1000;

/** A runner's `./entry` is the program inside its runtime (bundled for it per suite), never imported by the host. */
const IN_RUNTIME_EXPORT = './entry';

/** Every `exports` entry of the workspace's packages that the host may import: specifier → source file. */
function packageExports(): Map<string, string> {
  const out = new Map<string, string>();
  for (const group of ['packages', 'runners']) {
    for (const name of readdirSync(join(repoRoot, group))) {
      const file = join(repoRoot, group, name, 'package.json');
      if (!existsSync(file)) continue;
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name: string; exports?: Record<string, string> };
      for (const [sub, target] of Object.entries(pkg.exports ?? {})) {
        if (sub !== IN_RUNTIME_EXPORT && typeof target === 'string' && target.endsWith('.ts')) out.set(sub === '.' ? pkg.name : `${pkg.name}${sub.slice(1)}`, join(repoRoot, group, name, target));
      }
    }
  }
  return out;
}

/**
 * The key of the launcher's function that gives a packed bundle's module its
 * installed place (packages/cli/bin/packed-places.mjs declares the same).
 */
const MODULE_PLACE = 'rtbench.modulePlace';

/** The workspace package a source file belongs to, and the file's path inside it: where an installed copy of it lies. */
export function packagePlace(file: string, root = repoRoot): { name: string; path: string } | undefined {
  for (let dir = dirname(file); dir.startsWith(`${root}/`); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) return { name: (JSON.parse(readFileSync(manifest, 'utf8')) as { name: string }).name, path: relative(dir, file) };
  }
  return undefined;
}

/**
 * The CLI's own modules, whose imports through a package's index are rewritten to name the declaring modules
 * (barrel-imports.ts), so what a start loads before its command is the few modules it uses. Only theirs: rewritten
 * in every package, the package exports (each an entry) reach so many different sets of modules that the bundle
 * splits into ~170 chunks, and a command loads ~130 files instead of ~60, which costs more than it saves.
 */
const CLI_SOURCES = join(repoRoot, 'packages', 'cli', 'src') + '/';

/**
 * Gives each workspace module its own source location (see the file's comment): the checkout's path, or, in a
 * bundle packed for publishing, its place in the installed package, found when the module loads. And the CLI's
 * own modules import what they take from the modules that declare it (CLI_SOURCES).
 */
function workspaceModules(packed: boolean): Plugin {
  return {
    name: 'workspace-modules',
    setup(b) {
      const exported = new Map<string, ModuleExports | undefined>();
      const exportsAt = (path: string): ModuleExports | undefined => {
        if (!exported.has(path)) exported.set(path, inWorkspace(path) ? exportsOf(readFileSync(path, 'utf8')) : undefined);
        return exported.get(path);
      };
      const resolved = async (specifier: string, resolveDir: string): Promise<string | undefined> => {
        const found = await b.resolve(specifier, { kind: 'import-statement', resolveDir });
        return found.errors.length || found.external ? undefined : found.path;
      };
      /** The module that declares `name`, as module `path` exports it: followed through what passes it on; undefined when not known. */
      const declared = async (path: string, name: string): Promise<{ path: string; name: string } | undefined> => {
        const info = exportsAt(path);
        if (!info) return undefined;
        const passed = info.names.get(name);
        if (passed) {
          const next = await resolved(passed.from, dirname(path));
          return next === undefined ? undefined : declared(next, passed.name);
        }
        if (info.declares(name)) return { path, name };
        for (const whole of info.whole) {
          const next = await resolved(whole, dirname(path));
          const found = next === undefined ? undefined : await declared(next, name);
          if (found) return found;
        }
        return undefined;
      };
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.includes('/node_modules/')) return undefined;
        const written = readFileSync(args.path, 'utf8');
        const source = args.path.startsWith(CLI_SOURCES) ? await withoutBarrelImports(written, dirname(args.path), resolved, declared) : written;
        if (!source.includes('import.meta.')) return { contents: source, loader: 'ts' };
        // Declared per module; `define` below points import.meta.* at them (esbuild renames each module's copy apart).
        const names = '[__rtbenchModuleUrl, __rtbenchModuleDir, __rtbenchModuleFile]';
        const place = packed ? installedPlace(args.path) : JSON.stringify([pathToFileURL(args.path).href, dirname(args.path), args.path]);
        return { contents: `const ${names} = ${place};\n${source}`, loader: 'ts' };
      });
    },
  };
}

const inWorkspace = (path: string): boolean => ['packages', 'runners'].some((group) => path.startsWith(join(repoRoot, group) + '/')) && !path.includes('/node_modules/');

/** `source` with its imports from a package's index naming the modules that declare each name (barrel-imports.ts). */
async function withoutBarrelImports(
  source: string,
  dir: string,
  resolved: (specifier: string, resolveDir: string) => Promise<string | undefined>,
  declared: (path: string, name: string) => Promise<{ path: string; name: string } | undefined>,
): Promise<string> {
  let out = '';
  let at = 0;
  for (const statement of headStatements(source).statements) {
    const names = takenNames(statement);
    const target = names?.length ? await resolved(statement.specifier, dir) : undefined;
    if (target === undefined || !inWorkspace(target)) continue;
    const places = new Map<string, { path: string; name: string } | undefined>();
    for (const name of names!) places.set(name, await declared(target, name));
    // Every name declared where the import points already: nothing to see through.
    if ([...places.values()].every((place) => place?.path === target)) continue;
    const text = rewrittenStatement(statement, (name) => places.get(name));
    if (text === undefined) continue;
    out += source.slice(at, statement.start) + text;
    at = statement.start + statement.text.length;
  }
  return out + source.slice(at);
}

/** The namespace of the module that hands on esbuild's own (CommonJS) module. */
const REQUIRED = 'rtbench-required';

/**
 * esbuild (external: its package finds its binary beside it) is CommonJS: imported from an ES module, Node first
 * parses its whole main file for the names it exports (cjs-module-lexer), at every start that bundles. Taken by
 * require() (the bundle's banner gives each chunk one), it is only loaded.
 */
function esbuildRequired(): Plugin {
  return {
    name: 'esbuild-required',
    setup(b) {
      b.onResolve({ filter: /^esbuild$/ }, (args) => (args.kind === 'require-call' ? { path: 'esbuild', external: true } : { path: 'esbuild', namespace: REQUIRED }));
      b.onLoad({ filter: /.*/, namespace: REQUIRED }, () => ({ contents: "module.exports = require('esbuild');", loader: 'js' }));
    },
  };
}

/** A module's place as the packed bundle finds it when loaded: its package's folder where installed, and its path in it. */
function installedPlace(file: string): string {
  const place = packagePlace(file);
  if (!place) throw new Error(`${file} is in no package of the workspace: a packed bundle cannot find it where installed`);
  return `globalThis[Symbol.for(${JSON.stringify(MODULE_PLACE)})](${JSON.stringify(place.name)}, ${JSON.stringify(place.path)})`;
}

/**
 * Builds the bundle into `outDir` (its name is the sources' key, packages/cli/bin/cli-key.mjs):
 * into a scratch directory first, renamed into place, so a CLI started
 * meanwhile never sees half a bundle; when another start got there first, its
 * bundle stays. `packed`: the bundle published with the package
 * (scripts/pack-rtbench.ts, before `npm pack`), whose modules find
 * their places where installed, without source maps (they would name this
 * checkout's files).
 */
export async function buildCliBundle(outDir: string, { packed = false } = {}): Promise<void> {
  const parent = dirname(outDir);
  if (packed) rmSync(outDir, { recursive: true, force: true });
  const scratch = mkdtempSync(`${outDir}.building-`);
  try {
    const exported = packageExports();
    const entryPoints: Record<string, string> = { cli: join(repoRoot, 'packages/cli/src/bin.ts') };
    const entries: BundleEntries = { cli: 'cli.mjs', packages: {} };
    for (const [specifier, file] of exported) {
      const name = `packages/${specifier.replace(/[^a-z0-9]+/gi, '_').replace(/^_/, '')}`;
      entryPoints[name] = file;
      entries.packages[specifier] = `${name}.mjs`;
    }
    await build({
      entryPoints,
      outdir: scratch,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      outExtension: { '.js': '.mjs' },
      chunkNames: 'chunks/[name]-[hash]',
      sourcemap: packed ? false : 'linked',
      // esbuild finds its own binary next to its package; tsx loads users' modules (packages/cli/bin/user-modules.mjs).
      external: ['esbuild', 'tsx', 'tsx/*'],
      // Bundled CommonJS dependencies call require() for Node's modules.
      banner: { js: "import { createRequire as __rtbenchCreateRequire } from 'node:module'; const require = __rtbenchCreateRequire(import.meta.url);" },
      define: { 'import.meta.url': '__rtbenchModuleUrl', 'import.meta.dirname': '__rtbenchModuleDir', 'import.meta.filename': '__rtbenchModuleFile' },
      plugins: [esbuildRequired(), workspaceModules(packed)],
      logLevel: 'silent',
    });
    writeFileSync(join(scratch, ENTRIES_FILE), JSON.stringify(entries, null, 2));
    try {
      renameSync(scratch, outDir);
    } catch (error) {
      if (!existsSync(join(outDir, ENTRIES_FILE))) throw error;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  if (!packed) pruneOldBundles(parent, outDir);
}

function pruneOldBundles(parent: string, kept: string): void {
  const now = Date.now();
  const bundles = readdirSync(parent)
    .filter((name) => /^cli-[0-9a-f]+$/.test(name) && join(parent, name) !== kept)
    .map((name) => ({ path: join(parent, name), mtime: statSync(join(parent, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const [i, b] of bundles.entries()) {
    if (i >= KEEP_NEWEST - 1 && now - b.mtime > KEEP_YOUNGER_MS) rmSync(b.path, { recursive: true, force: true });
  }
}
