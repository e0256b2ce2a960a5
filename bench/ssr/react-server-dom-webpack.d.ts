/**
 * The parts of react-server-dom-webpack the Flight cases call (the package
 * ships no types): the server renderer's web-stream entry, which the
 * `react-server` condition selects, and the client's web-stream decoder.
 */
declare module 'react-server-dom-webpack/server.edge' {
  /** Where each client reference's module is, keyed `<module id>#<export>` (flight-manifest.ts). */
  export type ClientManifest = Record<string, { id: string; chunks: string[]; name: string }>;
  export function renderToReadableStream(model: unknown, webpackMap: ClientManifest, options?: { onError?: (error: unknown) => void }): ReadableStream<Uint8Array>;
  export function registerClientReference<T>(proxy: T, id: string, exportName: string): T;
}

declare module 'react-server-dom-webpack/client.edge' {
  /** The client's side of the manifest: module id → export → where it is. */
  export interface ServerConsumerManifest {
    moduleMap: Record<string, Record<string, { id: string; chunks: string[]; name: string }>>;
    serverModuleMap: null;
    moduleLoading: null;
  }
  export function createFromReadableStream<T>(stream: ReadableStream<Uint8Array>, options: { serverConsumerManifest: ServerConsumerManifest }): Promise<T>;
}
