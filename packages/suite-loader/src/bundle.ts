/**
 * One ESM file per (suite, runtime): the suite, the shared harness and that
 * runtime's entry, bundled by esbuild. The same suite source runs everywhere;
 * only the entry differs. Files are named by content hash, so a rerun of an
 * unchanged suite reuses its bundle and a results file can name what ran.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isBuiltin } from 'node:module';
import { basename } from 'node:path';
import { transform, type Loader, type Plugin } from 'esbuild';
import type { BundleTarget } from '@rtbench/host';
import { bundleProgramFor, ownerOnlyDir, type BundledPackage, type NodeEnvUse } from '@rtbench/host/programs';
import { DenoResolver } from './deno-config.ts';
import { takesDenoBenchOut, withDenoBenchTakenOut } from './deno-destructured.ts';
import { cacheDir, repoRoot, rtbenchModule } from './places.ts';
import { isVitePlus, TEST_ENTRY } from './vite-plus.ts';

/**
 * Files written for mitata, tinybench or vitest's bench() import those
 * packages; in a bundle they resolve to rtbench's adapters
 * (packages/adapters), which declare cases instead of measuring. A suite that
 * does not import them is not affected.
 */
const ADAPTED_PACKAGES: Readonly<Record<string, string>> = {
  mitata: rtbenchModule('@rtbench/adapters/mitata'),
  tinybench: rtbenchModule('@rtbench/adapters/tinybench'),
  vitest: rtbenchModule('@rtbench/adapters/vitest-bench'),
};
/** vitest's bench API with its `expect` (@vitest/expect and chai), for a module that names `expect`; the others are bundled without them. */
const VITEST_WITH_EXPECT = rtbenchModule('@rtbench/adapters/vitest-bench-expect');

/** The adapter a module's import of a harness resolves to: vitest's with `expect` only for a module whose text names it. */
function adapterFor(harness: string, importer: string): string {
  if (harness !== 'vitest') return ADAPTED_PACKAGES[harness]!;
  let text = '';
  try {
    text = readFileSync(importer, 'utf8');
  } catch {
    return VITEST_WITH_EXPECT;
  }
  return /\bexpect\b/.test(text) ? VITEST_WITH_EXPECT : ADAPTED_PACKAGES.vitest!;
}
/** benchmark.js exports its constructor itself (`module.exports = Benchmark`): a CommonJS module hands on the adapter's. */
const BENCHMARK_JS = rtbenchModule('@rtbench/adapters/benchmark-js');

/** `node:bench` resolves to rtbench's implementation of its API on every runtime (node 26's own is behind a flag and runs its own sampling loop). */
const NODE_BENCH = rtbenchModule('@rtbench/adapters/node-bench');
/** `require('../common.js')` from a Node.js core benchmark file: rtbench's createBenchmark. */
const NODE_COMMON = rtbenchModule('@rtbench/adapters/node-common');
/** `Deno.bench` in a brought file is rewritten to this module's bench(). */
const DENO_BENCH = rtbenchModule('@rtbench/adapters/deno-bench');
/** Where the builtins a CommonJS file requires are kept, loaded by the brought entry before the file (adapters/builtins.ts). */
const BUILTINS_KEY = 'rtbench.builtins';

/** The mark of a file written for Deno's bench runner: it calls Deno.bench, or takes it out by destructuring. */
const CALLS_DENO_BENCH = /\bDeno\.bench\s*\(/;
export const callsDenoBench = (source: string): boolean => CALLS_DENO_BENCH.test(source) || takesDenoBenchOut(source);

/** The harnesses rtbench stands in for, by package name (a regular expression's alternatives). */
const HARNESSES = 'mitata|tinybench|vitest|benchmark';

/**
 * An import of a harness rtbench stands in for (ESM or require): the mark of a file brought over unchanged.
 * The harness is named (`'mitata'`) or reached by a path into its installed package
 * (`'../node_modules/mitata/src/cli.mjs'`, as runner modules of some repositories import it).
 */
export const IMPORTS_ADAPTED = new RegExp(`(?:from\\s*|import\\s*\\(?\\s*|require\\s*\\(\\s*)['"](?:(${HARNESSES})|[^'"\\n]*/node_modules/(${HARNESSES})/[^'"\\n]*)['"]`);

/** The harness an import matched by IMPORTS_ADAPTED names. */
export const adaptedHarness = (match: RegExpExecArray | null): string | undefined => match?.[1] ?? match?.[2];

/** A path into a harness's installed package (`../node_modules/mitata/src/cli.mjs`): which harness it is. */
const HARNESS_PACKAGE_PATH = new RegExp(`(?:^|/)node_modules/(${HARNESSES})/`);

/** The files of brought files' own graphs (the file, and the modules of its repository it imports): their import.meta is their own. */
const broughtGraph = new Set<string>();

export function markBroughtGraph(files: readonly string[]): void {
  for (const f of files) broughtGraph.add(f);
}

/** A read of a CommonJS module's own location (not a property of that name). */
const READS_OWN_PLACE = /(?<![.\w$])__(?:dirname|filename)\b/;

/** A require() whose argument is not a string: a path the file computes (require(join(__dirname, 'fixtures', name))). */
const REQUIRES_BY_NAME = /(?<![.\w$])require(\s*\(\s*)(?![\s'"`)])/;

const LOADERS = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.jsx': 'jsx' } as const;

/** @rtbench/core's entry, as this package resolves it. */
const SUITE_API = rtbenchModule('@rtbench/core');

const adapterPlugin: Plugin = {
  name: 'rtbench-adapters',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^(mitata|tinybench|vitest)$/ }, (args) => ({ path: adapterFor(args.path, args.importer) }));
    pluginBuild.onResolve({ filter: /^benchmark$/ }, () => ({ path: 'benchmark', namespace: 'rtbench-benchmark-js' }));
    // Vite+'s test entry (`vite-plus/test`, or an npm alias's, `vp/test`) is vitest.
    pluginBuild.onResolve({ filter: TEST_ENTRY }, (args) =>
      isVitePlus(TEST_ENTRY.exec(args.path)![1]!, args.resolveDir) ? { path: adapterFor('vitest', args.importer) } : undefined,
    );
    // The same harnesses reached by a path into their installed package, from a module of the file's own repository.
    pluginBuild.onResolve({ filter: HARNESS_PACKAGE_PATH }, (args) => {
      if (args.importer.includes(`${sep}node_modules${sep}`)) return undefined;
      const harness = HARNESS_PACKAGE_PATH.exec(args.path)![1]!;
      return harness === 'benchmark' ? { path: 'benchmark', namespace: 'rtbench-benchmark-js' } : { path: adapterFor(harness, args.importer) };
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: 'rtbench-benchmark-js' }, () => ({
      contents: `module.exports = require(${JSON.stringify(BENCHMARK_JS)}).Benchmark;`,
      loader: 'js',
      resolveDir: repoRoot,
    }));
    pluginBuild.onResolve({ filter: /^node:bench$/ }, () => ({ path: NODE_BENCH }));
    // Node core's benchmark/common.js (required as '../common.js' or '../common' from benchmark/<area>/).
    pluginBuild.onResolve({ filter: /^(\.\.\/)+common(\.js)?$/ }, (args) => {
      const target = join(args.resolveDir, args.path);
      return basename(dirname(target)) === 'benchmark' ? { path: NODE_COMMON } : undefined;
    });
    // A builtin required from CommonJS: an ESM bundle has no require(), so the module is taken from
    // what the brought entry loaded before the file (a runtime without it fails the file's load, with the reason).
    pluginBuild.onResolve({ filter: /^[a-z_:/]+$/ }, (args) => {
      if (args.kind !== 'require-call' || !isBuiltin(args.path) || args.path === 'node:bench') return undefined;
      return { path: args.path.replace(/^node:/, ''), namespace: 'rtbench-builtin' };
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: 'rtbench-builtin' }, (args) => ({
      contents: [
        `const found = globalThis[Symbol.for(${JSON.stringify(BUILTINS_KEY)})]?.get(${JSON.stringify(args.path)}) ?? globalThis.process?.getBuiltinModule?.(${JSON.stringify(args.path)});`,
        `if (found === undefined) throw new Error(${JSON.stringify(`Cannot find module '${args.path}' in this runtime`)});`,
        'module.exports = found;',
      ].join('\n'),
      loader: 'js',
    }));
    // A suite outside this checkout imports the suite API as 'rtbench' (or '@rtbench/core'): it must be the
    // very module the runtime entry uses (one registry, one UnsupportedError), wherever the suite lives.
    pluginBuild.onResolve({ filter: /^(rtbench|@rtbench\/core)$/ }, () => ({ path: SUITE_API }));
    // A bare import in a file under a deno.json: its import map and workspace packages, as deno resolves them.
    const deno = new DenoResolver();
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.importer.includes('node_modules') || isBuiltin(args.path) || !args.resolveDir) return undefined;
      const found = deno.resolve(args.path, args.resolveDir);
      if (!found) return undefined;
      return 'error' in found ? { errors: [{ text: found.error }] } : { path: found.path };
    });
    // A brought-over file that finds its data next to itself (new URL('./x', import.meta.url))
    // must see its own location, not the bundle's.
    // Files on disk only: another plugin's module (a package's one ES instance, named `….mjs.cjs`) is not a file to read.
    pluginBuild.onLoad({ filter: /\.[cm]?[jt]sx?$/, namespace: 'file' }, async (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (args.path.includes('node_modules')) {
        // A package's CommonJS that finds its files (a native addon's platform build) by __dirname: its own place, as Node.js gives it.
        return READS_OWN_PLACE.test(source) ? { contents: await withOwnPlace(source, args.path, 'js'), loader: 'js' as const, resolveDir: dirname(args.path) } : undefined;
      }
      const denoBench = callsDenoBench(source);
      const brought = broughtGraph.has(args.path) || IMPORTS_ADAPTED.test(source) || denoBench || /['"]node:bench['"]/.test(source);
      const readsOwnPlace = READS_OWN_PLACE.test(source);
      const requiresByName = REQUIRES_BY_NAME.test(source);
      if (!brought || (!source.includes('import.meta.') && !denoBench && !readsOwnPlace && !requiresByName)) return undefined;
      let contents = source
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.filename', JSON.stringify(args.path))
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)));
      const ext = /\.[cm]?[jt]sx?$/.exec(args.path)![0] as keyof typeof LOADERS;
      const loader = LOADERS[ext] ?? 'js';
      if (readsOwnPlace) contents = await withOwnPlace(contents, args.path, loader);
      if (requiresByName) {
        // require(path) of a computed path cannot be bundled, and an ES module bundle has no require() for it:
        // it becomes the runtime's own CommonJS loader, resolving from the file (node, bun, deno; workerd has none).
        const own = `require("node:module").createRequire(${JSON.stringify(args.path)})`;
        contents = contents.replace(new RegExp(REQUIRES_BY_NAME.source, 'g'), (_, open: string) => `${own}${open}`);
      }
      if (denoBench) {
        // Deno.bench(...) becomes the adapter's bench(...): esbuild's define rewrites the member expression
        // (not the text), and an inline map keeps stacks pointing at the file's own lines.
        const rewritten = await transform(`${withDenoBenchTakenOut(contents, '__rtbenchDenoBench')}\nimport { bench as __rtbenchDenoBench } from ${JSON.stringify(DENO_BENCH)};\n`, {
          loader,
          format: 'esm',
          define: { 'Deno.bench': '__rtbenchDenoBench' },
          sourcemap: 'inline',
          sourcefile: args.path,
        });
        contents = rewritten.code;
      }
      return { contents, loader: denoBench || readsOwnPlace ? 'js' : loader, resolveDir: dirname(args.path) };
    });
  },
};

/**
 * A CommonJS file's __dirname / __filename (free, not its own variables) as its own location, as import.meta's
 * are: an ES module bundle has neither, and a file that finds its data by them would not load.
 */
async function withOwnPlace(contents: string, file: string, loader: Loader): Promise<string> {
  return (await transform(contents, { loader, define: { __dirname: JSON.stringify(dirname(file)), __filename: JSON.stringify(file) }, sourcemap: 'inline', sourcefile: file })).code;
}

export interface Bundle {
  path: string;
  hash: string;
  /** Which bundled packages read process.env.NODE_ENV, and the value written in for them. */
  nodeEnv: NodeEnvUse;
  /** The npm packages in the bundle: what the suite imports. */
  packages: BundledPackage[];
}

/** What one arm's bundle depends on beyond the runtime: the NODE_ENV its variant sets, and the packages it pins. */
export interface ArmBuild {
  nodeEnv?: string | undefined;
  /** Each pinned package's folder: every import of the name, from the suite or another package, resolves there. */
  packages?: readonly { name: string; dir: string }[];
}

/**
 * A folder whose node_modules/<name> is the package at `dir`, so that the
 * bundler resolves `<name>/<subpath>` through the package's own exports and
 * the runtime's conditions: an npm install's own folder, or for a local build
 * a folder in the cache holding a link to it.
 */
function resolveRootOf(name: string, dir: string): string {
  const tail = `${sep}node_modules${sep}${name.split('/').join(sep)}`;
  if (dir.endsWith(tail)) return dir.slice(0, -tail.length);
  const root = join(cacheDir, 'linked-packages', createHash('sha256').update(`${name}\0${dir}`).digest('hex').slice(0, 16));
  const link = join(root, 'node_modules', name);
  if (!existsSync(link)) {
    mkdirSync(dirname(link), { recursive: true });
    ownerOnlyDir(root);
    symlinkSync(dir, link, 'dir');
  }
  return root;
}

const PINNED = Symbol('rtbench-pinned');

/** Every import of a pinned package, whoever imports it, resolved from that package's folder. */
function pinPlugin(packages: readonly { name: string; dir: string }[]): Plugin {
  const roots = new Map(packages.map((p) => [p.name, resolveRootOf(p.name, p.dir)]));
  const names = [...roots.keys()].map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  return {
    name: 'rtbench-pinned-packages',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: new RegExp(`^(${names.join('|')})(/|$)`) }, async (args) => {
        if (args.pluginData === PINNED) return undefined;
        const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0]!;
        const found = await pluginBuild.resolve(args.path, { kind: args.kind, resolveDir: roots.get(name)!, pluginData: PINNED });
        return found.errors.length ? { errors: found.errors } : { path: found.path, namespace: found.namespace, external: found.external, sideEffects: found.sideEffects };
      });
    },
  };
}

export async function bundleSuite(suiteEntry: string, suiteName: string, runtime: string, target: BundleTarget, arm: ArmBuild = {}): Promise<Bundle> {
  const pinned = arm.packages?.length ? [pinPlugin(arm.packages)] : [];
  const { path, hash, nodeEnv, packages } = await bundleProgramFor(target, {
    entry: {
      contents: [
        // The entry first: its top level (taking the job out of argv, keeping
        // its own clock and writer) runs before any of the suite's code. Not
        // awaited at the top level: a case's promise that never settles then
        // lets the event loop run empty, which each entry hears and names (an
        // unsettled top-level await is a crash on some runtimes, a hang on others).
        // Where the runtime asks for it, the suite's module is loaded by the first job instead.
        `import { start } from ${JSON.stringify(target.entry)};`,
        ...(target.suiteInFirstJob
          ? [`void start(() => import(${JSON.stringify(suiteEntry)}).then((m) => m.default));`]
          : [`import suite from ${JSON.stringify(suiteEntry)};`, `void start(suite);`]),
      ].join('\n'),
      resolveDir: repoRoot,
      sourcefile: `rtbench-${runtime}-entry.ts`,
      loader: 'ts',
    },
    // The program cache (host program-cache.ts): owner-only, checked against its hash before every run.
    dir: join(cacheDir, 'bundles', suiteName),
    stem: runtime,
    plugins: [...pinned, adapterPlugin],
    // Sources relative to the repository, and the map says so: stacks and profiles map back to the files users wrote
    // (measurers stack-map.ts, profile source-map.ts). Beside the bundle, not in it: a runtime that reads an inline map
    // on every start (deno) pays for it in every case's process (host source-map-file.ts).
    sourceMap: { absWorkingDir: repoRoot, sourceRoot: `${repoRoot}/`, beside: true },
    nodeEnv: { variantValue: arm.nodeEnv },
    ...(arm.packages?.length ? { packageDirs: arm.packages } : {}),
  });
  return { path, hash, nodeEnv: nodeEnv!, packages };
}

/**
 * What a bundle runs, by content: the sha256 (16 hex digits) of its code
 * without an inline source map, whose sourceRoot is the folder it was
 * bundled in, so that two checkouts of the same commit agree (a suite's
 * bundle keeps its map beside it: its code is the whole file).
 */
export function bundleCodeHash(bundlePath: string): string {
  const text = readFileSync(bundlePath, 'utf8');
  const map = text.lastIndexOf('\n//# sourceMappingURL=');
  return createHash('sha256').update(map === -1 ? text : text.slice(0, map)).digest('hex').slice(0, 16);
}
