/**
 * next-page: a Next.js App Router page (server components, async data, a
 * list of 400 products, a Suspense boundary, one client component), built
 * once per content (build.ts) and served as each platform serves it: by
 * Next.js's own server on node (and bun, deno), by OpenNext's Cloudflare
 * adapter on workerd. CPU per request read by the host (docs/requests.md).
 * The app is built when a run first needs it (the handler's or the server's
 * path), not when the suite is loaded: listing the suite's cases or its claims
 * builds nothing. A build that fails is one line and exit 2, before anything
 * is measured.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requestSuite } from '@rtbench/core';
import { APP_DIR, buildNextPage, type NextBuild } from './build.ts';
import { joinFlightChunks } from './normalize.ts';
import { serverFor, WORKER_COMPATIBILITY } from './servers.ts';

/** rtbench's cache in its checkout (.gitignore'd), where the builds are kept. */
const CACHE_DIR = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '.rtbench-cache');

// RTBENCH_NEXT_PAGE_APP: another app folder built and served in the fixture's place (the suite's smoke builds a broken one).
let built: NextBuild | undefined;
function build(): NextBuild {
  built ??= buildNextPage(CACHE_DIR, process.env.RTBENCH_NEXT_PAGE_APP || APP_DIR, (line) => process.stderr.write(`next-page: ${line}\n`));
  return built;
}

export default requestSuite('next-page', [
  {
    name: 'app router page',
    // workerd: OpenNext's Worker module, wrapped and served by workerd as any Worker is.
    get handler() {
      return build().worker;
    },
    compatibility: WORKER_COMPATIBILITY,
    server: (runtime) => serverFor(runtime, build().nodeServer),
    // The same page whatever the runtime's streams did to the inline Flight payload's chunks.
    normalize: joinFlightChunks,
    mix: [{ name: 'GET /', weight: 1, request: { path: '/' } }],
    requests: 60,
  },
]);
