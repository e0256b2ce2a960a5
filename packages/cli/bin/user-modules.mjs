// @ts-check
/**
 * When the CLI runs from its bundle (rtbench.mjs): how a module the user
 * wrote (a suite, claims, a runtime plug-in) is made importable. Before the
 * first such import, tsx is registered for TypeScript, and a resolve hook
 * (resolve-bundled.mjs) answers `@rtbench/…` specifiers with the bundle's own
 * entries, so the user's module gets the CLI's copy of each package.
 * The packages ask for this through @rtbench/process (user-module.ts).
 */
import { register } from 'node:module';

/** The key @rtbench/process's importUserModule() looks for (user-module.ts declares the same). */
const LOADER = Symbol.for('rtbench.userModuleLoader');

/** @param {Record<string, string>} entries specifier → file URL of the bundle's entry */
export function provideUserModuleLoader(entries) {
  /** @type {Promise<void> | undefined} */
  let ready;
  /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (globalThis))[LOADER] = () =>
    (ready ??= (async () => {
      const tsx = await import('tsx/esm/api');
      tsx.register();
      // Registered after tsx, so it resolves first (the last hook registered runs first).
      register('./resolve-bundled.mjs', import.meta.url, { data: { entries } });
    })());
}
