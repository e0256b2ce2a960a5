/** Which server serves the built page on each runtime. */
import type { BroughtServer } from '@rtbench/core';

/** The compatibility the adapter's Worker asks for (app/wrangler.jsonc, checked by a test): workerd serves it with them. */
export const WORKER_COMPATIBILITY = { date: '2025-09-01', flags: ['nodejs_compat', 'global_fetch_strictly_public'] } as const;

/**
 * workerd: undefined, so the declaration's handler (OpenNext's Worker module)
 * is wrapped and served as any Worker is. node and bun: Next.js's own
 * server, a node:http program they run as it is; deno: unsupported (why below).
 */
export function serverFor(runtime: string, nodeServer: string): BroughtServer | undefined {
  if (runtime === 'workerd') return undefined;
  if (runtime === 'deno') return { unsupported: DENO_UNSUPPORTED };
  return { program: nodeServer };
}

/** Why not on deno: rtbench's programs run there with --allow-env and --allow-net=127.0.0.1 alone. */
export const DENO_UNSUPPORTED =
  "Next.js's server reads its build and its own modules from disk and asks for the CPU count, and rtbench runs a deno program with --allow-env and --allow-net=127.0.0.1 alone (deno refuses: Requires read access; with --allow-read and --allow-sys it serves the page, which a suite cannot yet ask for)";
