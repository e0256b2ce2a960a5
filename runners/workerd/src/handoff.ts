/**
 * Names shared by the host side (config.ts writes them) and the worker side
 * (entry.ts reads them). Kept in a module with no imports so the worker
 * bundle pulls in nothing else from the host.
 */

/**
 * The bundle ends in `await start(suite)` and exports nothing, but workerd
 * needs a module whose default export is the fetch handler. entry.ts leaves
 * the handler on globalThis; the config's small main module imports the
 * bundle and exports that handler.
 */
export const HANDLER_KEY = '__rtbenchWorkerdHandler';

/** Text bindings with facts the worker cannot see from inside (process.versions.v8 is empty). */
export const BINDING_WORKERD_VERSION = 'RTBENCH_WORKERD_VERSION';
export const BINDING_V8_VERSION = 'RTBENCH_V8_VERSION';
/** Present ("1") when the host reads V8's GC trace: the worker then marks the sampling phase in it. */
export const BINDING_GC_MARKERS = 'RTBENCH_GC_MARKERS';
