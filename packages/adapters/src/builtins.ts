/**
 * The runtime's builtin modules a CommonJS file requires (`require('buffer')`).
 * A bundle is ESM and has no require(); the bundler turns each such require
 * into a read of this map (packages/suite-loader/src/bundle.ts), and the brought
 * entry fills it before the file loads, with `import('node:…')` calls it
 * generated. A module the runtime lacks stays out of the map, so the file's
 * require throws "Cannot find module" and its cases are unsupported there.
 */
const KEY = Symbol.for('rtbench.builtins');

type Loaders = Readonly<Record<string, () => Promise<unknown>>>;

export async function provideBuiltins(loaders: Loaders): Promise<void> {
  const g = globalThis as unknown as Record<symbol, Map<string, unknown> | undefined>;
  const map = (g[KEY] ??= new Map<string, unknown>());
  await Promise.all(
    Object.entries(loaders).map(async ([name, load]) => {
      try {
        const mod = (await load()) as { default?: unknown };
        // require() gives the CommonJS exports: the default export where there is one (assert is a function).
        map.set(name, mod.default !== undefined ? mod.default : mod);
      } catch {
        // Absent here: the require fails with "Cannot find module".
      }
    }),
  );
}
