/**
 * The one bundler: every program rtbench hands a runtime (suite bundles,
 * start-up programs, servers, the entries of brought-over files) is one ESM
 * file built here by esbuild for the runtime's BundleTarget (its platform,
 * conditions and main fields) and stored in the program cache
 * (program-cache.ts: owner-only, named by content hash, checked before every
 * run). Callers say only what differs: the entry, esbuild plugins, a banner,
 * defines, a source map.
 */
import { build, type BuildOptions, type Loader, type Plugin } from 'esbuild';
import { storeProgram, type CachedProgram } from './program-cache.ts';
import type { BundleTarget } from './types.ts';

/** esbuild's options for one ESM file for a runtime: what every program rtbench bundles shares. */
export function bundleOptions(target: Pick<BundleTarget, 'platform' | 'conditions' | 'mainFields' | 'provides'>): BuildOptions & { write: false } {
  return {
    bundle: true,
    write: false,
    format: 'esm',
    platform: target.platform,
    conditions: target.conditions,
    ...(target.mainFields ? { mainFields: target.mainFields } : {}),
    target: 'esnext',
    // What the runtime provides (its plug-in's BundleTarget): a program that imports another runtime's module does not bundle for this one.
    external: [...target.provides],
    logLevel: 'silent',
    legalComments: 'none',
  };
}

/** A file to bundle, or source text written for the program (an entry that imports the real one). */
type ProgramEntry = { file: string } | { contents: string; resolveDir: string; sourcefile: string; loader: Loader };

export interface ProgramBuild {
  entry: ProgramEntry;
  /** The program cache's folder it is stored in, and the start of its name (`<stem>-<hash>.mjs`). */
  dir: string;
  stem: string;
  plugins?: Plugin[];
  banner?: string;
  define?: Record<string, string>;
  /** Inline source map, with sources relative to absWorkingDir under sourceRoot. */
  sourceMap?: { absWorkingDir: string; sourceRoot: string };
}

export interface BundledProgram extends CachedProgram {
  bytes: number;
}

/** Bundles a program for a runtime and stores it in the program cache. */
export async function bundleProgramFor(target: BundleTarget, p: ProgramBuild): Promise<BundledProgram> {
  const result = await build({
    ...bundleOptions(target),
    ...('file' in p.entry ? { entryPoints: [p.entry.file] } : { stdin: p.entry }),
    ...(p.plugins ? { plugins: p.plugins } : {}),
    ...(p.banner ? { banner: { js: p.banner } } : {}),
    ...(p.define ? { define: p.define } : {}),
    ...(p.sourceMap ? { sourcemap: 'inline' as const, absWorkingDir: p.sourceMap.absWorkingDir, sourceRoot: p.sourceMap.sourceRoot } : {}),
  });
  const code = result.outputFiles[0]!.contents;
  return { ...storeProgram(p.dir, p.stem, '.mjs', code), bytes: code.byteLength };
}
