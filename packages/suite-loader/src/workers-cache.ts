/**
 * Runs inside the runtime, imported before a framework app's Worker: the
 * Workers platform's Cache API (`caches.default`, `caches.open`) as it is on
 * a workers.dev address, where it stores nothing and finds nothing. The
 * Cloudflare adapter's Worker looks a page up there before rendering it and
 * puts it there after; rtbench's Workers runtime has no cache configured
 * (its lookups would throw), and a cache that answered would measure a
 * lookup, not the page the Node.js edition renders. Web APIs only.
 */
const none = {
  match: async (): Promise<undefined> => undefined,
  put: async (): Promise<void> => {},
  delete: async (): Promise<boolean> => false,
};

Object.defineProperty(globalThis, 'caches', { value: { default: none, open: async () => none }, configurable: true, writable: true });
