/**
 * Names shared by the host side (config.ts writes them) and the worker side
 * (entry.ts reads them). Kept in a module with no imports so the worker
 * bundle pulls in nothing else from the host.
 */

/**
 * The bundle ends in `void start(loadSuite)` and exports nothing, but workerd
 * needs a module whose default export is the fetch handler. entry.ts leaves
 * the handler on globalThis; the config's small main module imports the
 * bundle and exports that handler.
 */
export const HANDLER_KEY = '__rtbenchWorkerdHandler';

/**
 * What the worker cannot see from inside (process.versions.v8 is empty), and
 * whether to mark the sampling phase for the host's GC-trace reader: the host
 * sends it with the job, not as bindings, so the worker's process.env holds
 * the variant's variables and nothing of rtbench's.
 */
export interface WorkerdFacts {
  version: string;
  v8: string;
  /** The host reads V8's GC trace: the worker then marks the sampling phase in it. */
  gcMarkers?: boolean;
}
