/**
 * The fixture app built once per content: `next build`, then OpenNext's
 * Cloudflare adapter on that same build (`--skipNextBuild`) and wrangler's
 * bundle of its Worker (`deploy --dry-run`), into a folder of rtbench's cache
 * named by a hash of the app's files and the versions of the toolchain it is
 * built with (toolchain.ts). A folder with a whole build is reused; a failed
 * build leaves none.
 * The steps, the cache key and the build's proof are the ones every app's
 * build takes (@rtbench/host's app-build.ts). Next.js's telemetry is off and
 * the app loads no remote font: the build does not reach the network.
 */
import { chmodSync, cpSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { AppBuildFailed, appBuildKey, buildAfresh, cachedBuildProblem, nodePrefixed, ownerOnlyDir, runBuildStep } from '@rtbench/host';
import { buildToolNode } from '@rtbench/suite-loader';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Toolchain } from './toolchain.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
export const APP_DIR = join(HERE, 'app');

/** A build of the app: where it is and what the servers need of it. */
export interface NextBuild {
  /** The built app's folder (next.config, .next). */
  dir: string;
  /** The toolchain's versions it was built with. */
  versions: Toolchain['versions'];
  /** The Worker OpenNext's adapter made of the build, bundled by wrangler as its deploy does. */
  worker: string;
  /** The program that serves the build with Next.js's own server (node:http; run by node, bun or deno). */
  nodeServer: string;
  /** Whether this call built it (false: the cache had it). */
  built: boolean;
}

/** The Node.js the build's tools run on (wrangler 4 needs 22.12 or later). */
const BUILD_NODE = buildToolNode();

/** The program Next.js's own server runs from: the build's folder and the Next.js it was built with. */
function nodeServerSource(dir: string, next: string): string {
  const serve = join(HERE, 'serve-next.mjs');
  return `import { serveNext } from ${JSON.stringify(serve)};\nawait serveNext(${JSON.stringify(dir)}, ${JSON.stringify(next)});\n`;
}

/** Where the Worker wrangler bundles from the adapter's output is written, in the build's folder. */
const WORKER_BUNDLE = 'worker-bundle';
/** That Worker with its Node.js built-ins imported as node:*, the module rtbench serves on workerd. */
const WORKER_MODULE = 'worker.node-prefixed.js';

/**
 * The app built in `cacheDir` (reused when its key's folder holds a whole
 * build, proven: cachedBuildProblem; its serve.mjs and proof are written last). It is built in that folder itself:
 * Next.js and the adapter write the folder's path into their output. A
 * step that fails throws AppBuildFailed with one line, and the folder is
 * removed; the step's output is kept in a log beside the builds.
 */
export function buildNextPage(cacheDir: string, toolchain: Toolchain, appDir = APP_DIR, say: (line: string) => void = () => {}): NextBuild {
  const { versions, modules } = toolchain;
  const requireTools = createRequire(join(modules, '..', 'package.json'));
  const key = appBuildKey(appDir, versions);
  const root = join(cacheDir, 'next-page');
  const dir = join(root, key);
  const done = (built: boolean): NextBuild => ({ dir, versions, worker: join(dir, WORKER_BUNDLE, WORKER_MODULE), nodeServer: join(dir, 'serve.mjs'), built });
  ownerOnlyDir(root);
  if (existsSync(dir)) {
    const why = cachedBuildProblem(dir);
    if (!why) return done(false);
    if (why.owner) throw new AppBuildFailed(`the cached build ${dir} ${why.problem}: rtbench will not run a build someone else could change; remove it (as its owner or root)`);
    say(`the cached build ${relative(process.cwd(), dir) || dir} ${why.problem}: building it again`);
  }
  say(`building the app with next ${versions.next} and @opennextjs/cloudflare ${versions['@opennextjs/cloudflare']} into ${relative(process.cwd(), dir) || dir} (once; cached after)`);
  const log = join(root, `${key}.log`);
  const started = performance.now();
  writeFileSync(log, '');
  buildAfresh(dir, () => {
    cpSync(appDir, dir, { recursive: true });
    // Owner-only whatever the umask, as the cache's other folders.
    chmodSync(dir, 0o700);
    // The app resolves next, react and the adapter from the toolchain's install.
    symlinkSync(modules, join(dir, 'node_modules'), 'dir');
    runBuildStep('next build', BUILD_NODE, requireTools.resolve('next/dist/bin/next'), ['build'], dir, log);
    runBuildStep('opennextjs-cloudflare build', BUILD_NODE, join(modules, '@opennextjs', 'cloudflare', 'dist', 'cli', 'index.js'), ['build', '--skipNextBuild'], dir, log);
    // The Worker as wrangler deploys it: the adapter's output bundled with the app's nodejs_compat (Node.js built-ins
    // imported as node:*), nothing uploaded.
    runBuildStep('wrangler deploy --dry-run', BUILD_NODE, join(modules, 'wrangler', 'bin', 'wrangler.js'), ['deploy', '--dry-run', '--outdir', WORKER_BUNDLE], dir, log);
    const bundled = join(dir, WORKER_BUNDLE, 'worker.js');
    if (!existsSync(bundled)) throw new AppBuildFailed(`wrangler deploy --dry-run wrote no ${WORKER_BUNDLE}/worker.js (its output: ${log})`);
    writeFileSync(join(dir, WORKER_BUNDLE, WORKER_MODULE), nodePrefixed(readFileSync(bundled, 'utf8')));
    writeFileSync(join(dir, 'serve.mjs'), nodeServerSource(dir, requireTools.resolve('next')));
  });
  say(`built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return done(true);
}
