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
import { splitInlineMap, storeMapBeside } from './source-map-file.ts';
import { DEFAULT_NODE_ENV, nodeEnvDefine, nodeEnvReaders, readsNodeEnv, type NodeEnvUse } from './node-env.ts';
import { bundledPackages, type BundledPackage } from './bundled-packages.ts';
import { moduleGraphs } from './module-graphs.ts';
import type { BundleTarget } from './plugin-shapes.ts';
import { isBuiltin } from 'node:module';
import { resolve } from 'node:path';
import { nativeAddonLoad, nativeAddonModule, nativeAddonReexport } from './native-addon.ts';
import { ONE_COPY_PER_PACKAGE } from './one-copy.ts';

/**
 * An import written with a scheme (`node:fs`, and the modules a runtime
 * provides under its own) names a module of the runtime that runs the
 * program: left as an import, whichever runtime the bundle is for, so a
 * program that imports another runtime's module fails when it loads there,
 * with the reason. URLs and package registries' specifiers (npm:, jsr:) are
 * not such modules. After the callers' plugins, which may map some of them.
 */
const NOT_A_RUNTIME_MODULE = /^(data|https?|file|npm|jsr):/;
const NATIVE = 'rtbench-native-addon';
/**
 * A runtime module required from CommonJS on the neutral platform: an ESM
 * bundle there has no require(), and esbuild's stand-in throws ("Dynamic
 * require … is not supported"), so it becomes an import the Workers runtime
 * resolves (its nodejs_compat modules), handed on as the module's exports.
 */
const REQUIRED = 'rtbench-required-runtime-module';
const NATIVE_LOAD = 'rtbench-native-addon-load';
const TRIED = Symbol('rtbench-tried');
const PROVIDED_BY_THE_RUNTIME: Plugin = {
  name: 'rtbench-provided-by-the-runtime',
  setup(pluginBuild) {
    const neutral = pluginBuild.initialOptions.platform === 'neutral';
    const runtimeModule = (path: string, kind: string) => (neutral && kind === 'require-call' ? { path, namespace: REQUIRED } : { path, external: true });
    pluginBuild.onResolve({ filter: /^[a-z][a-z0-9-]*:/ }, (args) => (NOT_A_RUNTIME_MODULE.test(args.path) ? undefined : runtimeModule(args.path, args.kind)));
    // On the neutral platform (a Workers runtime) a bare builtin name (`zlib`) that no package provides
    // is the runtime's own module, as its Node.js compatibility serves it under `node:`.
    if (neutral) {
      pluginBuild.onResolve({ filter: /^[a-z_/]+$/ }, async (args) => {
        if (!isBuiltin(args.path) || args.pluginData === TRIED) return undefined;
        const found = await pluginBuild.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: TRIED });
        return found.errors.length ? runtimeModule(`node:${args.path}`, args.kind) : undefined;
      });
      pluginBuild.onLoad({ filter: /.*/, namespace: REQUIRED }, (args) => ({
        // The default export where the runtime gives one (its modules' CommonJS face), else the namespace.
        contents: `import * as runtimeModule from ${JSON.stringify(args.path)};
module.exports = 'default' in runtimeModule ? runtimeModule.default : runtimeModule;
`,
        loader: 'js',
      }));
    }
    // Elsewhere a builtin imported by its bare name (`import crypto from 'crypto'`, esbuild's external on the node
    // platform) is imported under `node:`, which every runtime with Node.js compatibility resolves (deno only so).
    else {
      pluginBuild.onResolve({ filter: /^[a-z_/]+$/ }, (args) => (args.kind === 'import-statement' || args.kind === 'dynamic-import') && isBuiltin(args.path) ? { path: `node:${args.path}`, external: true } : undefined);
    }
    // A native addon is loaded where it lies, by the runtime's own module loader (native-addon.ts).
    pluginBuild.onResolve({ filter: /\.node$/ }, (args) => ({ path: resolve(args.resolveDir, args.path), namespace: args.namespace === NATIVE ? NATIVE_LOAD : NATIVE }));
    pluginBuild.onLoad({ filter: /.*/, namespace: NATIVE }, (args) => ({ contents: nativeAddonModule(args.path, pluginBuild.initialOptions.platform === 'neutral'), loader: 'js' }));
    pluginBuild.onLoad({ filter: /.*/, namespace: NATIVE_LOAD }, (args) => ({ contents: nativeAddonLoad(args.path), loader: 'js' }));
    // A package whose main is its addon (`require('@napi-rs/uuid-linux-x64-gnu')`) resolves to the .node file itself.
    pluginBuild.onLoad({ filter: /\.node$/ }, (args) => ({ contents: nativeAddonReexport(args.path), loader: 'js' }));
  },
};

/** esbuild's options for one ESM file for a runtime: what every program rtbench bundles shares. */
export function bundleOptions(target: Pick<BundleTarget, 'platform' | 'conditions' | 'mainFields'>): BuildOptions & { write: false } {
  return {
    bundle: true,
    write: false,
    format: 'esm',
    platform: target.platform,
    conditions: target.conditions,
    ...(target.mainFields ? { mainFields: target.mainFields } : {}),
    target: 'esnext',
    plugins: [PROVIDED_BY_THE_RUNTIME, ONE_COPY_PER_PACKAGE],
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
  /**
   * A source map, with sources relative to absWorkingDir under sourceRoot:
   * inline, or with `beside` in a file beside the program that no runtime
   * reads (source-map-file.ts).
   */
  sourceMap?: { absWorkingDir: string; sourceRoot: string; beside?: boolean };
  /**
   * Write process.env.NODE_ENV in for the bundled packages that read it
   * (node-env.ts): the variant's value when it sets one, else DEFAULT_NODE_ENV.
   */
  nodeEnv?: { variantValue: string | undefined };
  /** Packages bundled from folders outside any node_modules (a local build an arm pins): their files count as theirs. */
  packageDirs?: readonly { name: string; dir: string }[];
}

export interface BundledProgram extends CachedProgram {
  bytes: number;
  /** With `nodeEnv`: which packages read it and the value they were given. */
  nodeEnv?: NodeEnvUse;
  /** The npm packages in the bundle. */
  packages: BundledPackage[];
}

/** Bundles a program for a runtime and stores it in the program cache. */
export async function bundleProgramFor(target: BundleTarget, p: ProgramBuild): Promise<BundledProgram> {
  const workingDir = p.sourceMap?.absWorkingDir ?? process.cwd();
  const buildWith = async (define: Record<string, string> | undefined) => {
    const shared = { ...bundleOptions(target), plugins: [...(p.plugins ?? []), PROVIDED_BY_THE_RUNTIME, ONE_COPY_PER_PACKAGE], ...(define ? { define } : {}) };
    // An import that asks for conditions of its own is a graph of its own, built with these same options (module-graphs.ts).
    const graphs = moduleGraphs(shared, workingDir);
    const result = await build({
      ...shared,
      ...('file' in p.entry ? { entryPoints: [p.entry.file] } : { stdin: p.entry }),
      plugins: [graphs.plugin, ...shared.plugins],
      ...(p.banner ? { banner: { js: p.banner } } : {}),
      ...(p.sourceMap ? { sourcemap: 'inline' as const, absWorkingDir: p.sourceMap.absWorkingDir, sourceRoot: p.sourceMap.sourceRoot } : {}),
      metafile: true,
    });
    Object.assign(result.metafile.inputs, graphs.inputs());
    return result;
  };
  const value = p.nodeEnv ? (p.nodeEnv.variantValue ?? DEFAULT_NODE_ENV) : undefined;
  // Built with the value written in: which packages read it is known once they are resolved, and they
  // usually do (one build, and a smaller one: the branch of the other build is left out).
  let result = await buildWith(value === undefined ? p.define : { ...p.define, ...nodeEnvDefine(value) });
  let packages = bundledPackages(result.metafile, workingDir, p.packageDirs);
  let nodeEnv: NodeEnvUse | undefined;
  if (value !== undefined) {
    const readers = nodeEnvReaders(packages);
    nodeEnv = { readers, value, defaulted: p.nodeEnv!.variantValue === undefined };
    // No package reads it, but the suite's own code may: that code sees it as the runtime has it.
    if (!readers.length && readsNodeEnv(Object.keys(result.metafile.inputs).map((input) => resolve(workingDir, input)))) {
      result = await buildWith(p.define);
      packages = bundledPackages(result.metafile, workingDir, p.packageDirs);
    }
  }
  const built = result.outputFiles[0]!;
  const { code, map } = p.sourceMap?.beside ? splitInlineMap(built.text) : { code: built.contents, map: undefined };
  const stored = storeProgram(p.dir, p.stem, '.mjs', code);
  if (map !== undefined) storeMapBeside(stored.path, map);
  return { ...stored, bytes: Buffer.byteLength(code), packages, ...(nodeEnv ? { nodeEnv } : {}) };
}
