/**
 * The client components' manifest, written by hand as React's own Flight
 * fixtures do: a bundler (webpack, Turbopack) would write it from the
 * `'use client'` files it found. The server renders a client component as a
 * reference (module id, export name); the client looks the id up in its half
 * of the manifest and loads the module through `__webpack_require__`, which
 * here returns the module already in the bundle (no chunks to load).
 */
import type { ClientManifest } from 'react-server-dom-webpack/server.edge';
import type { ServerConsumerManifest } from 'react-server-dom-webpack/client.edge';

/** The one module of client components, as the server and the client both name it. */
export const CLIENT_MODULE_ID = 'ssr/flight-client-components';

/** Its exports: the components the server page refers to. */
export const CLIENT_EXPORTS = ['AddToCart', 'Filters', 'ReviewForm'] as const;
export type ClientExport = (typeof CLIENT_EXPORTS)[number];

const entry = (name: string) => ({ id: CLIENT_MODULE_ID, chunks: [] as string[], name });

/** The server's half: `<module id>#<export>` → where that export is. */
export const clientManifest: ClientManifest = Object.fromEntries(CLIENT_EXPORTS.map((name) => [`${CLIENT_MODULE_ID}#${name}`, entry(name)]));

/** The client's half: module id → export → where it is. */
export const serverConsumerManifest: ServerConsumerManifest = {
  moduleMap: { [CLIENT_MODULE_ID]: Object.fromEntries(CLIENT_EXPORTS.map((name) => [name, entry(name)])) },
  serverModuleMap: null,
  moduleLoading: null,
};

/**
 * Installs the global the Flight client calls to load a client module
 * (webpack's runtime provides it in a framework's bundle): the module with
 * that id, or an error naming it.
 */
export function installClientModules(modules: Readonly<Record<string, unknown>>): void {
  (globalThis as { __webpack_require__?: (id: string) => unknown }).__webpack_require__ = (id) => {
    if (!(id in modules)) throw new Error(`no client module ${JSON.stringify(id)} in the manifest`);
    return modules[id];
  };
}
