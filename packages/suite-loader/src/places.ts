/**
 * Where rtbench keeps things. In its own checkout (a pnpm workspace): the
 * cache in .rtbench-cache/ and suites in bench/, beside the code. Installed
 * in another repository (`npm i -D rtbench`): suites in ./bench of the
 * directory it is run in, the cache (bundles, runtimes) under
 * $XDG_CACHE_HOME/rtbench (~/.cache/rtbench).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The rtbench checkout, or the installed package's grandparent (packages/suite-loader/src -> ../../..). */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** Running from rtbench's own checkout, not from an installed package. */
export const inCheckout = existsSync(join(repoRoot, 'pnpm-workspace.yaml')) && existsSync(join(repoRoot, 'packages', 'suite-loader', 'src', 'places.ts'));
/** The project rtbench works for: its own checkout, or the directory an installed rtbench is run in. */
export const projectDir = inCheckout ? repoRoot : process.cwd();
export const cacheDir = inCheckout ? join(repoRoot, '.rtbench-cache') : join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'rtbench');
export const suitesDir = join(projectDir, 'bench');

/** The Node.js server a framework app's Node edition is served by (run inside the runtime as it is). */
export const serveAppModule = join(dirname(fileURLToPath(import.meta.url)), 'serve-app.mjs');
/** Next.js's own server for a built Next.js app, mounted on serveAppModule's (run inside the runtime as it is). */
export const serveNextModule = join(dirname(fileURLToPath(import.meta.url)), 'serve-next.mjs');

/** runners/node's node-26 package. */
const NODE_26 = join(repoRoot, 'runners', 'node', 'node_modules', 'node-26');

/**
 * The Node.js an app's build tools run on (vite, Next.js, wrangler 4, which
 * needs 22.12 or later while rtbench's host may be on 20): the node 26
 * rtbench installs as a runtime (runners/node's node-26 package), else the
 * host's.
 */
export function buildToolNode(): string {
  const node26 = join(NODE_26, 'bin', 'node');
  return existsSync(node26) ? node26 : process.execPath;
}

/** The version of buildToolNode's Node.js (its package's, else the host's): a build's key names it, not its path, which is the checkout's. */
export function buildToolNodeVersion(): string {
  try {
    return `v${String((JSON.parse(readFileSync(join(NODE_26, 'package.json'), 'utf8')) as { version?: unknown }).version)}`;
  } catch {
    return process.version;
  }
}

const require = createRequire(import.meta.url);
/** A module of one of rtbench's packages, as this package resolves it (the same copy the harness uses). */
export const rtbenchModule = (specifier: string): string => require.resolve(specifier);
