/**
 * An entry module's static import closure, as esbuild resolves it (the
 * workspace's packages, their dependencies from node_modules, type-only
 * imports dropped), and the modules in it that can start a process: those
 * that import Node's `child_process`. A dynamic `import()` is not followed:
 * it loads only when a path of the code takes it.
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

/** Reads `planted.file` with `planted.line` put first, every other module as it is. */
function planting(planted: Planted): Plugin {
  return {
    name: 'planted-line',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (relative(repoRoot, args.path) !== planted.file) return undefined;
        const { readFile } = await import('node:fs/promises');
        return { contents: `${planted.line}\n${await readFile(args.path, 'utf8')}`, loader: 'ts' };
      });
    },
  };
}

/** The modules `entry` loads without a dynamic import, each by its path from the repository's root. */
function staticClosure(metafile: Metafile, entry: string): Set<string> {
  const seen = new Set<string>();
  const next = [entry];
  for (let file = next.pop(); file !== undefined; file = next.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const i of metafile.inputs[file]?.imports ?? []) if (!i.external && (i.kind === 'import-statement' || i.kind === 'require-call')) next.push(i.path);
  }
  return seen;
}

/** What each entry (a path from the repository's root) loads, and which of those modules import `child_process`: one build for them all. */
export async function importClosures(entries: readonly string[], planted?: Planted): Promise<Map<string, { modules: Set<string>; spawning: string[] }>> {
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
    plugins: planted ? [planting(planted)] : [],
  });
  const spawns = (file: string): boolean => metafile.inputs[file]!.imports.some((i) => i.external && SPAWNING.test(i.path));
  return new Map(
    entries.map((entry) => {
      const modules = staticClosure(metafile, entry);
      return [entry, { modules, spawning: [...modules].filter(spawns).sort() }];
    }),
  );
}
