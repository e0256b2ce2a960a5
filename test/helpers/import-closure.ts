/**
 * An entry module's static import closure, as esbuild resolves it (the
 * workspace's packages, their dependencies from node_modules, type-only
 * imports dropped), and the modules in it that can start a process: those
 * that import Node's `child_process`. A dynamic `import()` loads only when a
 * path of the code takes it: not followed, or, for a process, every one
 * followed but those it does not take (declared, each with why).
 */
import { build, type Metafile, type Plugin } from 'esbuild';
import { relative } from 'node:path';
import { repoRoot } from './cli.ts';

const SPAWNING = /^(node:)?child_process$/;

/** A line of source added to one module of the closure as it is read: what a test plants to see the check fail. */
export interface Planted {
  /** The module's path from the repository's root. */
  file: string;
  line: string;
}

/** Reads each planted file with its line put first, every other module as it is. */
function planting(planted: readonly Planted[]): Plugin {
  return {
    name: 'planted-line',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        const lines = planted.filter((p) => p.file === relative(repoRoot, args.path)).map((p) => `${p.line}\n`);
        if (lines.length === 0) return undefined;
        const { readFile } = await import('node:fs/promises');
        return { contents: `${lines.join('')}${await readFile(args.path, 'utf8')}`, loader: 'ts' };
      });
    },
  };
}

/** A process's dynamic imports it does not take: importer → the modules it would load by them. */
export type Skipping = Readonly<Record<string, readonly string[]>>;

/** The modules `entry` loads, each by its path from the repository's root: its static imports, and its dynamic ones unless `skipping` is undefined or names them. */
function closure(metafile: Metafile, entry: string, skipping: Skipping | undefined): Set<string> {
  const seen = new Set<string>();
  const next = [entry];
  for (let file = next.pop(); file !== undefined; file = next.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const i of metafile.inputs[file]?.imports ?? []) {
      if (i.external) continue;
      if (i.kind === 'import-statement' || i.kind === 'require-call' || (i.kind === 'dynamic-import' && skipping !== undefined && !skipping[file]?.includes(i.path))) next.push(i.path);
    }
  }
  return seen;
}

/** What a process loads: its modules and which of them import `child_process`. */
export interface Closure {
  modules: Set<string>;
  spawning: string[];
}

/** The closures of the entries of one build: static imports only, or, given `skipping`, every dynamic import but those it names. */
export interface ImportGraph {
  closureOf(entry: string, skipping?: Skipping): Closure;
  /** The modules a module of the graph loads by a dynamic import. */
  dynamicImportsOf(file: string): string[];
}

/** The import graph of `entries` (paths from the repository's root), each planted line put in its module: one build for them all. */
export async function importGraph(entries: readonly string[], planted: readonly Planted[] = []): Promise<ImportGraph> {
  const { metafile } = await build({
    entryPoints: [...entries],
    absWorkingDir: repoRoot,
    bundle: true,
    write: false,
    outdir: 'out',
    metafile: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
    // A native addon (the store's SQLite binding) is loaded by its package at run time, not bundled: its imports are the package's.
    loader: { '.node': 'empty' },
    plugins: planted.length ? [planting(planted)] : [],
  });
  const dynamicImportsOf = (file: string): string[] => (metafile.inputs[file]?.imports ?? []).filter((i) => i.kind === 'dynamic-import' && !i.external).map((i) => i.path);
  const spawns = (file: string): boolean => metafile.inputs[file]!.imports.some((i) => i.external && SPAWNING.test(i.path));
  return {
    closureOf(entry, skipping) {
      if (!metafile.inputs[entry]) throw new Error(`${entry} is not an entry of this graph`);
      // A skipped import the build does not hold is a stale declaration: it no longer says what the process leaves out.
      const stale = Object.entries(skipping ?? {}).flatMap(([from, targets]) => targets.filter((to) => !dynamicImportsOf(from).includes(to)).map((to) => `${from} -> ${to}`));
      if (stale.length) throw new Error(`no such dynamic import: ${stale.join(', ')}`);
      const modules = closure(metafile, entry, skipping);
      return { modules, spawning: [...modules].filter(spawns).sort() };
    },
    dynamicImportsOf,
  };
}
