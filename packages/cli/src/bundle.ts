/**
 * One ESM file per (suite, runtime): the suite, the shared harness and that
 * runtime's entry, bundled by esbuild. The same suite source runs everywhere;
 * only the entry differs. Files are named by content hash, so a rerun of an
 * unchanged suite reuses its bundle and a results file can name what ran.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { storeProgram, type BundleTarget } from '@rtbench/runner-kit';
import { cacheDir, repoRoot, rtbenchModule } from './paths.ts';

/**
 * Files written for mitata or tinybench import those packages; in a bundle
 * they resolve to rtbench's adapters (packages/adapters), which declare cases
 * instead of measuring. A suite that does not import them is not affected.
 */
export const ADAPTED_PACKAGES: Readonly<Record<string, string>> = {
  mitata: rtbenchModule('@rtbench/adapters/mitata'),
  tinybench: rtbenchModule('@rtbench/adapters/tinybench'),
};

/** An import of mitata or tinybench (ESM or require): the mark of a file brought over unchanged. */
export const IMPORTS_ADAPTED = /(?:from\s*|import\s*\(?\s*|require\s*\(\s*)['"](mitata|tinybench)['"]/;

const LOADERS = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.jsx': 'jsx' } as const;

/** @rtbench/core's entry, as the CLI resolves it. */
const SUITE_API = rtbenchModule('@rtbench/core');

export const adapterPlugin: Plugin = {
  name: 'rtbench-adapters',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^(mitata|tinybench)$/ }, (args) => ({ path: ADAPTED_PACKAGES[args.path]! }));
    // A suite outside this checkout imports the suite API as 'rtbench' (or '@rtbench/core'): it must be the
    // very module the runtime entry uses (one registry, one UnsupportedError), wherever the suite lives.
    pluginBuild.onResolve({ filter: /^(rtbench|@rtbench\/core)$/ }, () => ({ path: SUITE_API }));
    // A brought-over file that finds its data next to itself (new URL('./x', import.meta.url))
    // must see its own location, not the bundle's.
    pluginBuild.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
      if (args.path.includes('node_modules')) return undefined;
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.') || !IMPORTS_ADAPTED.test(source)) return undefined;
      const contents = source
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.filename', JSON.stringify(args.path))
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)));
      const ext = /\.[cm]?[jt]sx?$/.exec(args.path)![0] as keyof typeof LOADERS;
      return { contents, loader: LOADERS[ext] ?? 'js', resolveDir: dirname(args.path) };
    });
  },
};

export interface Bundle {
  path: string;
  hash: string;
}

export async function bundleSuite(suiteEntry: string, suiteName: string, runtime: string, target: BundleTarget): Promise<Bundle> {
  const result = await build({
    stdin: {
      contents: [
        // The entry first: its top level (taking the job out of argv, keeping
        // its own clock and writer) runs before any of the suite's code.
        `import { start } from ${JSON.stringify(target.entry)};`,
        `import suite from ${JSON.stringify(suiteEntry)};`,
        `await start(suite);`,
      ].join('\n'),
      resolveDir: repoRoot,
      sourcefile: `rtbench-${runtime}-entry.ts`,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'esm',
    platform: target.platform,
    conditions: target.conditions,
    ...(target.mainFields ? { mainFields: target.mainFields } : {}),
    target: 'esnext',
    // node: builtins are provided by every runtime (workerd via nodejs_compat); bun: modules only by
    // bun (a brought-over file that imports one elsewhere is reported unsupported when it fails to load).
    external: ['node:*', 'bun:*'],
    plugins: [adapterPlugin],
    // Keep names: error stacks and digest summaries should read like the source.
    keepNames: false,
    minify: false,
    sourcemap: 'inline',
    // Sources relative to the repository, and the map says so: stacks map back to the files users wrote (run/stack-map.ts; deno maps them itself).
    absWorkingDir: repoRoot,
    sourceRoot: `${repoRoot}/`,
    logLevel: 'silent',
    legalComments: 'none',
  });
  // One cache for every program a runtime runs (runner-kit's program-cache): owner-only, checked against its hash before every run.
  return storeProgram(join(cacheDir, 'bundles', suiteName), runtime, '.mjs', result.outputFiles[0]!.contents);
}
