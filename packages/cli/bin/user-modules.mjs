// @ts-check
/**
 * When the CLI runs from its bundle (rtbench.mjs): how a module the user
 * wrote (a suite, claims, a runtime plug-in) is loaded into it. esbuild
 * (whose service the CLI starts anyway, to bundle suites for the runtimes)
 * bundles the module's own files into one ESM file beside the CLI's bundle,
 * with its `@rtbench/…` imports bound to the bundle's own entries, so the
 * user's module gets the CLI's copy of each package and of its state; the
 * packages it imports from node_modules stay where they are, imported by
 * Node. That costs one esbuild build, where registering tsx started a
 * loader thread of its own on every start (0.15–0.2 CPU-s).
 * A module esbuild cannot bundle (a syntax error, an import it cannot
 * resolve), or whose bundle Node cannot link, is loaded as before, through
 * tsx, which says why in its own words.
 * The packages ask for this through @rtbench/process (user-module.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './cli-key.mjs';

/** The key @rtbench/process's importUserModule() looks for (user-module.ts declares the same). */
const LOADER = Symbol.for('rtbench.userModuleLoader');

/** Both of tsx's loaders, as `node --import tsx` has them: a plug-in in a folder without "type": "module" is CommonJS. */
export async function registerTypeScript() {
  const [esm, cjs] = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]);
  esm.register();
  cjs.register();
}

const IN_PACKAGES = `${sep}node_modules${sep}`;
const OWN_SOURCES = ['packages', 'runners'].map((group) => join(repoRoot, group) + sep);
const RESOLVING = Symbol('rtbench-resolving');
const LOADERS = /** @type {const} */ ({ ts: 'ts', mts: 'ts', cts: 'ts', tsx: 'tsx', jsx: 'jsx', js: 'js', mjs: 'js', cjs: 'js' });
const LINK_ERRORS = new Set([
  'ERR_MODULE_NOT_FOUND',
  'ERR_UNSUPPORTED_DIR_IMPORT',
  'ERR_UNKNOWN_FILE_EXTENSION',
  'ERR_PACKAGE_PATH_NOT_EXPORTED',
  'ERR_IMPORT_ATTRIBUTE_MISSING',
  'ERR_IMPORT_ASSERTION_TYPE_MISSING',
]);
const IMPORT_META = /\bimport\.meta\.(url|filename|dirname)\b/g;

/**
 * @param {Record<string, string>} entries specifier → file URL of the bundle's entry
 * @returns {import('esbuild').Plugin}
 */
function userModulePlugin(entries) {
  return {
    name: 'rtbench-user-module',
    setup(build) {
      // Own keys only: a specifier such as "constructor" must not find Object's.
      build.onResolve({ filter: /^(@rtbench\/|rtbench$)/ }, (args) => (Object.hasOwn(entries, args.path) ? {
        path: entries[args.path],
        external: true,
      } : undefined));
      // A package's JavaScript is imported from where it lies (one copy, its own import.meta); a require() of it is bundled,
      // since an ES module has no require().
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === RESOLVING || args.kind === 'require-call' || args.kind === 'require-resolve') return undefined;
        // rtbench's own sources (a generated suite imports some by path) get their packages bundled, as the CLI's bundle has them.
        if (OWN_SOURCES.some((dir) => args.importer.startsWith(dir))) return undefined;
        const found = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: RESOLVING });
        if (found.errors.length || found.external || !found.path.includes(IN_PACKAGES) || !/\.[cm]?js$/.test(found.path)) return undefined;
        return { path: pathToFileURL(found.path).href, external: true };
      });
      // A module that finds its files next to itself (new URL('./x', import.meta.url)) sees its own place, not the bundle's.
      build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
        if (args.path.includes(IN_PACKAGES)) return undefined;
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta.')) return undefined;
        const place = { url: pathToFileURL(args.path).href, filename: args.path, dirname: dirname(args.path) };
        const ext = /** @type {keyof typeof LOADERS} */ (/\.([cm]?[jt]sx?)$/.exec(args.path)?.[1]);
        const contents = source.replace(IMPORT_META, (_, key) => JSON.stringify(place[/** @type {keyof typeof place} */ (key)]));
        return { contents, loader: LOADERS[ext] ?? 'js' };
      });
    },
  };
}

/**
 * @param {string} path the user's module
 * @param {Record<string, string>} entries
 * @param {string} outDir where its bundle is kept
 * @returns {Promise<unknown | undefined>} its namespace, or undefined when esbuild could not bundle it
 */
async function importBundled(path, entries, outDir) {
  // Required, not imported: esbuild is CommonJS, and an import first parses its whole main file for the names it exports.
  /** @type {typeof import('esbuild')} */
  const { build } = createRequire(import.meta.url)('esbuild');
  let code;
  try {
    const result = await build({
      entryPoints: [path],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      target: 'esnext',
      // As Node resolves: no "module" condition or field.
      conditions: [],
      mainFields: ['main'],
      // The stack traces of the module's errors name its own files (the CLI turns source maps on).
      sourcemap: 'inline',
      outfile: join(outDir, 'module.mjs'),
      // A CommonJS file bundled in (a require() of a package) requires the builtins through this, as in the CLI's bundle.
      banner: { js: "import { createRequire as __rtbenchCreateRequire } from 'node:module'; const require = __rtbenchCreateRequire(import.meta.url);" },
      plugins: [userModulePlugin(entries)],
      logLevel: 'silent',
    });
    code = result.outputFiles[0]?.contents;
  } catch {
    return undefined;
  }
  if (!code) return undefined;
  // Named by content: processes that load the same module at once write the same file.
  const file = join(outDir, `${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(outDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, code);
    renameSync(tmp, file);
  }
  try {
    return await import(pathToFileURL(file).href);
  } catch (error) {
    // An import Node cannot link (a package file that only a bundler or tsx resolves) fails before any module ran.
    if (LINK_ERRORS.has(/** @type {NodeJS.ErrnoException} */ (error)?.code ?? '')) return undefined;
    // A module that declares its own top-level require(), beside the one the bundle declares: refused as Node compiles it.
    if (error instanceof SyntaxError && /Identifier 'require' has already been declared/.test(error.message)) return undefined;
    throw error;
  }
}

/**
 * @param {Record<string, string>} entries specifier → file URL of the bundle's entry
 * @param {string} cacheDir where each user module's bundle is kept (the checkout's bundle's folder, or rtbench's cache)
 */
export function provideUserModuleLoader(entries, cacheDir) {
  /** @type {Promise<void> | undefined} */
  let tsx;
  const viaTsx = async (/** @type {string} */ path) => {
    await (tsx ??= (async () => {
      await registerTypeScript();
      // Registered after tsx, so it resolves first (the last hook registered runs first).
      register('./resolve-bundled.mjs', import.meta.url, { data: { entries } });
    })());
    return import(pathToFileURL(path).href);
  };
  /** @type {Map<string, Promise<unknown>>} one load per module, as an import is */
  const loaded = new Map();
  /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (globalThis))[LOADER] = (/** @type {string} */ path) => {
    let namespace = loaded.get(path);
    if (!namespace) {
      const outDir = join(cacheDir, 'user-modules', createHash('sha256').update(path).digest('hex').slice(0, 16));
      namespace = importBundled(path, entries, outDir).then((bundled) => bundled ?? viaTsx(path));
      loaded.set(path, namespace);
    }
    return namespace;
  };
}
