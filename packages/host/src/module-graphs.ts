/**
 * A module graph of its own inside one bundle: an import written with
 * `with { conditions: 'react-server' }` (static or dynamic) is bundled by a
 * build of its own that adds those package.json conditions to the runtime's,
 * and the result is inlined as one module. Its packages are copies apart from
 * the rest of the bundle's: React's Server Components renderer needs the
 * `react-server` build of `react` while the client and react-dom beside it
 * in the same process need the ordinary one, which is how frameworks bundle
 * the two halves. Everything else the outer build does (the callers' plugins,
 * NODE_ENV and other defines) applies inside it too.
 */
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { dirname } from 'node:path';

/** The import attribute that asks for a graph of its own: a comma-separated list of conditions. */
const CONDITIONS_ATTRIBUTE = 'conditions';

const NAMESPACE = 'rtbench-module-graph';
const INNER = Symbol('rtbench-module-graph-inner');

export interface ModuleGraphs {
  plugin: Plugin;
  /** The inner builds' inputs, relative to the same working directory as the outer build's: whose packages the bundle holds. */
  inputs(): Metafile['inputs'];
}

/**
 * The plugin for one outer build, given that build's own options (its
 * platform, conditions, plugins, defines) and working directory.
 */
export function moduleGraphs(outer: BuildOptions, workingDir: string): ModuleGraphs {
  const inputs: Metafile['inputs'] = {};
  const plugin: Plugin = {
    name: 'rtbench-module-graphs',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /.*/ }, async (args) => {
        const wanted = args.with[CONDITIONS_ATTRIBUTE];
        if (wanted === undefined || args.pluginData === INNER) return undefined;
        const found = await pluginBuild.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: INNER });
        if (found.errors.length) return { errors: found.errors };
        const conditions = wanted.split(',').map((c) => c.trim()).filter(Boolean);
        return { path: found.path, namespace: NAMESPACE, pluginData: conditions };
      });
      pluginBuild.onLoad({ filter: /.*/, namespace: NAMESPACE }, async (args) => {
        const conditions = args.pluginData as string[];
        const inner = await build({
          ...outer,
          conditions: [...conditions, ...(outer.conditions ?? [])],
          entryPoints: [args.path],
          stdin: undefined,
          banner: undefined,
          sourcemap: false,
          absWorkingDir: workingDir,
          metafile: true,
          write: false,
        });
        Object.assign(inputs, inner.metafile.inputs);
        return { contents: inner.outputFiles[0]!.text, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
  return { plugin, inputs: () => inputs };
}
