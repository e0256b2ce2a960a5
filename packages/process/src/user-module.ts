/**
 * Imports a module the user wrote into this process: a suite, its claims, a
 * runtime plug-in. From the sources (tsx, vitest) that is a plain import.
 * When the CLI runs from its bundle, its launcher (packages/cli/bin/rtbench.mjs)
 * provides the loader that imports it: TypeScript, with the module's
 * `@rtbench/…` imports bound to the bundle's own copies, so this process
 * keeps one of each module's state (the memory bound, the live children,
 * the warden).
 */
import { pathToFileURL } from 'node:url';

/** Where the launcher leaves its loader (packages/cli/bin/user-modules.mjs uses the same key). */
const LOADER = Symbol.for('rtbench.userModuleLoader');

export async function importUserModule(path: string): Promise<unknown> {
  const loader = (globalThis as Record<symbol, unknown>)[LOADER] as ((path: string) => Promise<unknown>) | undefined;
  const namespace = (loader ? await loader(path) : await import(pathToFileURL(path).href)) as { default?: unknown };
  // A CommonJS module compiled from ESM (a plug-in in a folder without "type": "module") has its exports
  // on `default`, marked __esModule: read as the module it was written as (tsx's own imports do the same).
  const inner = namespace.default as { __esModule?: unknown } | undefined;
  return typeof inner === 'object' && inner !== null && inner.__esModule === true ? inner : namespace;
}
