/**
 * One copy of each package per bundle. A package with both an `import` and a
 * `require` entry (`exports` conditions, as zod's) is two files to esbuild:
 * the ES module for `import`, the CommonJS file for `require()`. A program
 * that reaches it both ways (its own ES code, and a CommonJS dependency) then
 * holds two instances whose classes and registries disagree (`instanceof`
 * fails across them). A `require()` of such a package is given the ES
 * module's instance instead, as Node.js's own require() of an ES module hands
 * it on: its namespace, or its default export when that is all it exports
 * (the shape of a CommonJS `module.exports = fn`).
 */
import { isBuiltin } from 'node:module';
import { dirname } from 'node:path';
import type { Plugin } from 'esbuild';

const ES_INSTANCE = 'rtbench-es-instance';
const RESOLVING = Symbol('rtbench-one-copy');
const AS_COMMONJS = '.cjs';

export const ONE_COPY_PER_PACKAGE: Plugin = {
  name: 'rtbench-one-copy-per-package',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, async (args) => {
      // Only the program's own require() calls: a resolve another plugin asks for carries its own mark (a pinned
      // package's), and answering it with a resolve of ours would hand it back to that plugin without end.
      if (args.kind !== 'require-call' || args.pluginData !== undefined || isBuiltin(args.path) || /^[a-z][a-z0-9-]*:/.test(args.path)) return undefined;
      const options = { resolveDir: args.resolveDir, importer: args.importer, pluginData: RESOLVING };
      const [asImport, asRequire] = await Promise.all([pluginBuild.resolve(args.path, { ...options, kind: 'import-statement' }), pluginBuild.resolve(args.path, { ...options, kind: 'require-call' })]);
      const twoFiles = !asImport.errors.length && !asRequire.errors.length && !asImport.external && asImport.namespace === 'file' && asRequire.namespace === 'file' && asImport.path !== asRequire.path;
      // Named as CommonJS: esbuild takes a module's format from its name's extension, and this one hands on module.exports.
      return twoFiles ? { path: `${asImport.path}${AS_COMMONJS}`, namespace: ES_INSTANCE } : undefined;
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: ES_INSTANCE }, (args) => {
      const file = args.path.slice(0, -AS_COMMONJS.length);
      // require() of the ES module: its one instance, as esbuild hands an ES module to CommonJS (no `import` here, which would make this module ES too).
      const contents = [
        `const instance = require(${JSON.stringify(file)});`,
        'const names = Object.keys(instance);',
        "module.exports = names.length === 1 && names[0] === 'default' ? instance.default : instance;",
        '',
      ].join('\n');
      return { contents, resolveDir: dirname(file), loader: 'js' };
    });
  },
};
