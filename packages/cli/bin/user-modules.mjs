// @ts-check
/**
 * When the CLI runs from its bundle (rtbench.mjs): how a module the user
 * wrote (a suite, claims, a runtime plug-in) is made importable. Before the
 * first such import, tsx is registered for TypeScript, and a resolve hook
 * (resolve-bundled.mjs) answers `@rtbench/…` specifiers with the bundle's own
 * entries, so the user's module gets the CLI's copy of each package.
 * The packages ask for this through @rtbench/process (user-module.ts). A
 * CommonJS module's require() of a package gets the package's sources, a
 * copy of its own, as it always has.
 */
import { register } from 'node:module';

/** The key @rtbench/process's importUserModule() looks for (user-module.ts declares the same). */
const LOADER = Symbol.for('rtbench.userModuleLoader');

/** Both of tsx's loaders, as `node --import tsx` has them: a plug-in in a folder without "type": "module" is CommonJS. */
export async function registerTypeScript() {
  const [esm, cjs] = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]);
  esm.register();
  cjs.register();
}

/** @param {Record<string, string>} entries specifier → file URL of the bundle's entry */
export function provideUserModuleLoader(entries) {
  /** @type {Promise<void> | undefined} */
  let ready;
  /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (globalThis))[LOADER] = () =>
    (ready ??= (async () => {
      await registerTypeScript();
      // Registered after tsx, so it resolves first (the last hook registered runs first).
      register('./resolve-bundled.mjs', import.meta.url, { data: { entries } });
    })());
}
