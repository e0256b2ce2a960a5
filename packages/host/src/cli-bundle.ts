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
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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

/** Gives each workspace module its own source location (see the file's comment). */
const keepModulePlaces: Plugin = {
  name: 'keep-module-places',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (args.path.includes('/node_modules/') || !source.includes('import.meta.')) return undefined;
      // Declared per module; `define` below points import.meta.* at them (esbuild renames each module's copy apart).
      const place = `const __rtbenchModuleUrl = ${JSON.stringify(pathToFileURL(args.path).href)}, __rtbenchModuleDir = ${JSON.stringify(dirname(args.path))}, __rtbenchModuleFile = ${JSON.stringify(args.path)};\n`;
      return { contents: place + source, loader: 'ts' };
    });
  },
};

/**
 * Builds the bundle into `outDir` (its name is the sources' key, packages/cli/bin/cli-key.mjs):
 * into a scratch directory first, renamed into place, so a CLI started
 * meanwhile never sees half a bundle; when another start got there first, its
 * bundle stays.
 */
export async function buildCliBundle(outDir: string): Promise<void> {
  const parent = dirname(outDir);
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
      sourcemap: 'linked',
      // esbuild finds its own binary next to its package; tsx loads users' modules (packages/cli/bin/user-modules.mjs).
      external: ['esbuild', 'tsx', 'tsx/*'],
      // Bundled CommonJS dependencies call require() for Node's modules.
      banner: { js: "import { createRequire as __rtbenchCreateRequire } from 'node:module'; const require = __rtbenchCreateRequire(import.meta.url);" },
      define: { 'import.meta.url': '__rtbenchModuleUrl', 'import.meta.dirname': '__rtbenchModuleDir', 'import.meta.filename': '__rtbenchModuleFile' },
      plugins: [keepModulePlaces],
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
  pruneOldBundles(parent, outDir);
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
