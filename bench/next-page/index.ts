/**
 * next-page: a Next.js App Router page (server components, async data, a
 * list of 860 products, about 1 MB of HTML, a Suspense boundary, one client component), built
 * once per content (build.ts) and served as each platform serves it: by
 * Next.js's own server on node (and bun, deno), by OpenNext's Cloudflare
 * adapter on workerd. CPU per request read by the host (docs/requests.md).
 * Its packages (Next.js, the adapter, wrangler) install into rtbench's
 * library cache and the app is built when a run first needs them (the
 * declaration's prepare, toolchain.ts), not when the suite is loaded, once
 * per toolchain an arm asks for (`next@15.5.29` pins another Next.js):
 * listing the suite's cases or its claims installs and builds nothing. A
 * build or install that fails is one line and exit 2, before anything is
 * measured.
 */
import { requestSuite, type ArmPackages, type InstalledPackage } from '@rtbench/core';
import { cacheDir, nextServer, normalizeNextPage, type NextBuild } from '@rtbench/suite-loader';
import { APP_DIR, buildNextPage, WORKER_COMPATIBILITY } from './build.ts';
import { ADDABLE, installedPackages, installToolchain, TOOLCHAIN, toolchainFor } from './toolchain.ts';

export { claims } from './claims.ts';

// One build per toolchain an arm asks for (next@15.5.29 pins another), keyed by its versions.
const builds = new Map<string, NextBuild>();
const preparing = new Map<string, Promise<InstalledPackage[]>>();
const keyOf = (packages: ArmPackages): string => JSON.stringify(toolchainFor(packages));

// RTBENCH_NEXT_PAGE_APP: another app folder built and served in the fixture's place (the suite's smoke builds a broken one).
function prepare(packages: ArmPackages): Promise<InstalledPackage[]> {
  const key = keyOf(packages);
  let pending = preparing.get(key);
  if (!pending) {
    pending = installToolchain(toolchainFor(packages)).then((toolchain) => {
      builds.set(key, buildNextPage(cacheDir, toolchain, process.env.RTBENCH_NEXT_PAGE_APP || APP_DIR, (line) => process.stderr.write(`next-page: ${line}\n`)));
      return installedPackages(toolchain);
    });
    preparing.set(key, pending);
  }
  return pending;
}
function build(packages: ArmPackages): NextBuild {
  const built = builds.get(keyOf(packages));
  if (!built) throw new Error("next-page: the app is read before the run prepared it for the arm's packages (its declaration's prepare)");
  return built;
}

export default requestSuite('next-page', [
  {
    name: 'app router page',
    // An arm may pin any of them (next@15.5.29), or add sharp (sharp@0.34.5): the app is built with that set.
    installs: [...Object.keys(TOOLCHAIN), ...ADDABLE],
    prepare,
    // workerd: OpenNext's Worker module, wrapped and served by workerd as any Worker is.
    handler: (packages) => build(packages).worker,
    compatibility: WORKER_COMPATIBILITY,
    // node, bun and deno (the runtimes that run a program): Next.js's own server for the build, deno with the reads it needs.
    server: (packages) => nextServer(build(packages).nodeServer),
    // The same page whatever the runtime's streams did to the inline Flight payload's chunks, and whichever Next.js named the build's chunks and modules.
    normalize: normalizeNextPage,
    mix: [{ name: 'GET /', weight: 1, request: { path: '/' } }],
    requests: 60,
  },
]);
