/**
 * A native addon (`.node`) in a program's module graph cannot be bundled:
 * it is a shared library built for one runtime's ABI. The bundle keeps a
 * CommonJS module in its place whose exports are the addon, loaded where it
 * lies by the runtime's own CommonJS loader (`node:module`'s createRequire,
 * which the runtimes with Node.js compatibility provide; imported by an ES
 * module beside it, since an ES bundle has no require()). A runtime without
 * such a loader (a Workers runtime) throws one line naming the file, which
 * becomes that runtime's "unsupported, because …" while the others run.
 */

/** Why a runtime cannot run a program with this addon. */
function nativeAddonRefusal(file: string): string {
  return `it loads a native addon (${file}), which only a runtime with Node.js's module loader can load`;
}

/** The CommonJS module that stands for the addon at `file`; `loaderless`: for a runtime with no module loader. */
export function nativeAddonModule(file: string, loaderless: boolean): string {
  // The same path again: resolved to the ES module that loads it (nativeAddonLoad).
  return loaderless ? `throw new Error(${JSON.stringify(nativeAddonRefusal(file))});\n` : `module.exports = require(${JSON.stringify(file)}).addon;\n`;
}

/** The ES module that loads the addon at `file` with the runtime's createRequire. */
export function nativeAddonLoad(file: string): string {
  return `import { createRequire } from 'node:module';\nexport const addon = createRequire(${JSON.stringify(file)})(${JSON.stringify(file)});\n`;
}

/** The module for an addon a package names as its main: the addon by its path, which resolves as any `.node` require (nativeAddonModule). */
export function nativeAddonReexport(file: string): string {
  return `module.exports = require(${JSON.stringify(file)});\n`;
}
