/**
 * next-page: a Next.js App Router page (server components, async data, a
 * list of 860 products, about 1 MB of HTML, a Suspense boundary, one client component), built
 * once per content (build.ts) and served as each platform serves it: by
 * Next.js's own server on node (and bun, deno), by OpenNext's Cloudflare
 * adapter on workerd. CPU per request read by the host (docs/requests.md).
 * Its packages (Next.js, the adapter, wrangler) install into rtbench's
 * library cache and the app is built when a run first needs them (the
 * declaration's prepare, toolchain.ts), not when the suite is loaded:
 * listing the suite's cases or its claims installs and builds nothing. A
 * build or install that fails is one line and exit 2, before anything is
 * measured.
 */
import { requestSuite } from '@rtbench/core';
import { cacheDir } from '@rtbench/suite-loader';
import { APP_DIR, buildNextPage, type NextBuild } from './build.ts';
import { joinFlightChunks } from './normalize.ts';
import { serverFor, WORKER_COMPATIBILITY } from './servers.ts';
import { installToolchain } from './toolchain.ts';

export { claims } from './claims.ts';

// RTBENCH_NEXT_PAGE_APP: another app folder built and served in the fixture's place (the suite's smoke builds a broken one).
let built: NextBuild | undefined;
async function prepare(): Promise<void> {
  const toolchain = await installToolchain();
  built ??= buildNextPage(cacheDir, toolchain, process.env.RTBENCH_NEXT_PAGE_APP || APP_DIR, (line) => process.stderr.write(`next-page: ${line}\n`));
}
function build(): NextBuild {
  if (!built) throw new Error('next-page: the app is read before the run prepared it (its declaration\'s prepare)');
  return built;
}

export default requestSuite('next-page', [
  {
    name: 'app router page',
    prepare,
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
