/** Which server serves the built page on each runtime. */
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BroughtServer, ServerPermissions } from '@rtbench/core';
import { serveAppModule } from '@rtbench/suite-loader';

/** The compatibility the adapter's Worker asks for (app/wrangler.jsonc, checked by a test): workerd serves it with them. */
export const WORKER_COMPATIBILITY = { date: '2025-09-01', flags: ['nodejs_compat', 'global_fetch_strictly_public'] } as const;

/** The module every build's serve.mjs imports (build.ts). */
const SERVE_NEXT = join(dirname(fileURLToPath(import.meta.url)), 'serve-next.mjs');
/** The Node.js server serve-next.mjs mounts Next's handler on (the one every framework app is served by). */
const SERVE_APP = serveAppModule;

/**
 * workerd: undefined, so the declaration's handler (OpenNext's Worker module)
 * is wrapped and served as any Worker is. node, bun and deno: Next.js's own
 * server, a node:http program they run as it is; deno with the permissions
 * it needs (denoPermissions).
 */
export function serverFor(runtime: string, nodeServer: string): BroughtServer | undefined {
  if (runtime === 'workerd') return undefined;
  if (runtime === 'deno') return { program: nodeServer, permissions: denoPermissions(dirname(nodeServer)) };
  return { program: nodeServer };
}

/**
 * What Next.js's server needs on deno, beyond listening on loopback: to read
 * the build (its folder, where serve.mjs is), the toolchain it was built with
 * (the folder the build's node_modules links to), serve-next.mjs and the
 * server it mounts Next's handler on (serve-app.mjs); the CPU
 * count (`os.cpus()`); and the environment. The environment cannot be
 * narrowed to named variables: Next.js's bundled `debug` lists every
 * variable (`Object.keys(process.env)`), which deno allows only with all of
 * env (the server's environment holds PATH, HOME and deno's own two).
 * The reads stay this narrow because serve-next.mjs names the build's
 * folder as the app's root: otherwise Next.js looks for a workspace in
 * every folder above it (pnpm-workspace.yaml, lerna.json, .git).
 */
export function denoPermissions(buildDir: string): ServerPermissions {
  return { read: [buildDir, realpathSync(join(buildDir, 'node_modules')), SERVE_NEXT, SERVE_APP], sys: ['cpus'], env: true };
}
