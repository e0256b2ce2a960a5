/** Which server serves the built page on each runtime. */
import type { BroughtServer } from '@rtbench/core';

/** The compatibility the adapter's Worker asks for (app/wrangler.jsonc, checked by a test): workerd serves it with them. */
export const WORKER_COMPATIBILITY = { date: '2025-09-01', flags: ['nodejs_compat', 'global_fetch_strictly_public'] } as const;

/**
 * workerd: undefined, so the declaration's handler (OpenNext's Worker module)
 * is wrapped and served as any Worker is. node, bun and deno: Next.js's own
 * server, a node:http program they run as it is.
 */
export function serverFor(runtime: string, nodeServer: string): BroughtServer | undefined {
  return runtime === 'workerd' ? undefined : { program: nodeServer };
}
