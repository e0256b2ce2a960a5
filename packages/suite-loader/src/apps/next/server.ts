/**
 * The server a built Next.js app is served by on the runtimes that run a
 * program (an app brought as its folder, and the next-page suite alike):
 * Next.js's own server (serve-next.mjs), a node:http program they run as
 * it is, deno with the permissions it needs.
 */
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BroughtServer } from '@rtbench/core/request';
import type { ServerPermissions } from '@rtbench/core/server-permissions';
import { serveAppModule, serveNextModule } from '../../places.ts';

/** The program a build's serve.mjs holds: Next.js's own server for the build in `dir`, with the Next.js it was built with. */
export function nextServerSource(dir: string, next: string): string {
  return `import { serveNext } from ${JSON.stringify(serveNextModule)};\nawait serveNext(${JSON.stringify(dir)}, ${JSON.stringify(next)});\n`;
}

/**
 * Next.js's own server for a build, as node, bun and deno run it (the
 * runtimes that run a program; the Workers runtime serves OpenNext's Worker):
 * the build's serve.mjs, with the permissions deno needs
 * (nextDenoPermissions), which the others do not ask.
 */
export function nextServer(nodeServer: string): BroughtServer {
  return { program: nodeServer, permissions: nextDenoPermissions(dirname(nodeServer)) };
}

/**
 * What Next.js's server needs on deno, beyond listening on loopback: to read
 * the build (its folder, where serve.mjs is), the packages it was built with
 * (the folder the build's node_modules links to), serve-next.mjs and the
 * server it mounts Next's handler on (serve-app.mjs); the CPU count
 * (`os.cpus()`); and the environment. The environment cannot be narrowed
 * to named variables: Next.js's bundled `debug` lists every variable
 * (`Object.keys(process.env)`), which deno allows only with all of env.
 * The reads stay this narrow because serve-next.mjs names the build's
 * folder as the app's root: otherwise Next.js looks for a workspace in
 * every folder above it (pnpm-workspace.yaml, lerna.json, .git).
 */
function nextDenoPermissions(buildDir: string): ServerPermissions {
  return { read: [buildDir, realpathSync(join(buildDir, 'node_modules')), serveNextModule, serveAppModule], sys: ['cpus'], env: true };
}
