/**
 * The fixture app built once per content: `next build`, then OpenNext's
 * Cloudflare adapter on that same build (`--skipNextBuild`) and wrangler's
 * bundle of its Worker (`deploy --dry-run`), into a folder of rtbench's cache
 * named by a hash of the app's files and the versions of the toolchain it is
 * built with (toolchain.ts). A folder with a whole build is reused; a failed
 * build leaves none.
 * Next.js's telemetry is off and the app loads no remote font: the build does
 * not reach the network.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, lstatSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { folderDigest, ownerOnlyDir } from '@rtbench/host';
import { builtinModules, createRequire } from 'node:module';
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

/** A build that failed: the one line the user reads. */
export class NextBuildFailed extends Error {
  override readonly name = 'NextBuildFailed';
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/** The cache key: every file of the app (path and bytes) and the toolchain's versions. */
export function buildKey(appDir: string, versions: Readonly<Record<string, string>>): string {
  const hash = createHash('sha256');
  for (const file of filesUnder(appDir)) hash.update(`${file}\u0000`).update(readFileSync(join(appDir, file))).update('\u0000');
  for (const [name, version] of Object.entries(versions)) hash.update(`${name}@${version}\n`);
  return hash.digest('hex').slice(0, 16);
}

/** What a failed step's output says, for its one line: its first line naming an error, else its first line. */
function lastWords(output: string): string {
  const lines = output.split('\n').map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trim()).filter((l) => l && !/^at /.test(l));
  const error = lines.find((l) => /error/i.test(l));
  return (error ?? lines[0] ?? 'no output').slice(0, 300);
}

/**
 * The Node.js the build's tools run on: wrangler 4 needs 22.12 or later and
 * rtbench's host may be on 20, so the node 26 rtbench installs as a runtime
 * (runners/node's node-26 package), else the host's.
 */
const BUILD_NODE = ((): string => {
  const node26 = join(HERE, '..', '..', 'runners', 'node', 'node_modules', 'node-26', 'bin', 'node');
  return existsSync(node26) ? node26 : process.execPath;
})();

function run(step: string, bin: string, args: readonly string[], cwd: string, log: string): void {
  const r = spawnSync(BUILD_NODE, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
    // Telemetry off; CI set so neither tool asks a question or draws progress.
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', CI: '1', NODE_ENV: 'production', WRANGLER_SEND_METRICS: 'false' },
  });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  writeFileSync(log, `$ ${step}\n${output}\n`, { flag: 'a' });
  if (r.error || r.status !== 0) throw new NextBuildFailed(`${step} failed (${r.error ? r.error.message : `exit ${r.status}`}): ${lastWords(output)} (its output: ${log})`);
}

/** The program Next.js's own server runs from: the build's folder and the Next.js it was built with. */
function nodeServerSource(dir: string, next: string): string {
  const serve = join(HERE, 'serve-next.mjs');
  return `import { serveNext } from ${JSON.stringify(serve)};\nawait serveNext(${JSON.stringify(dir)}, ${JSON.stringify(next)});\n`;
}

/** Where the Worker wrangler bundles from the adapter's output is written, in the build's folder. */
const WORKER_BUNDLE = 'worker-bundle';
/** That Worker with its Node.js built-ins imported as node:*, the module rtbench serves on workerd. */
const WORKER_MODULE = 'worker.node-prefixed.js';

const BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith('_')));

/**
 * A module's static imports of Node.js built-ins by bare name (`from "fs"`,
 * which workerd's nodejs_compat resolves) written as `node:fs`: rtbench's
 * bundler leaves only imports with a scheme to the runtime, and would try to
 * resolve a bare name as a package. Nothing else in the text changes.
 */
export function nodePrefixed(source: string): string {
  return source.replace(/\b(from|import)\s*(["'])([a-z_][a-z0-9_/]*)\2/g, (whole, keyword: string, quote: string, name: string) =>
    BUILTINS.has(name) ? `${keyword} ${quote}node:${name}${quote}` : whole,
  );
}

/** What proves a whole build, written beside its folder once it is built: the folder's digest (folderDigest). */
const proofOf = (dir: string): string => `${dir}.proof.json`;

/**
 * Why the build folder `dir` must not be reused, or undefined when it may:
 * as every other folder of rtbench's cache, a real folder of this user's
 * that no one else can write to, whose files are still those it was built
 * with (its proof beside it). A folder another user owns is refused
 * (`owner: true`): it is not removed, nor built over; any other is built
 * again.
 */
export function cachedBuildProblem(dir: string): { problem: string; owner?: true } | undefined {
  let stat;
  try {
    stat = lstatSync(dir);
  } catch {
    return { problem: 'is missing' };
  }
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) return { problem: `belongs to another user (uid ${stat.uid})`, owner: true };
  if (!stat.isDirectory()) return { problem: 'is not a folder (a link or a file)' };
  if ((stat.mode & 0o022) !== 0) return { problem: 'is writable by others' };
  let proof: unknown;
  try {
    proof = JSON.parse(readFileSync(proofOf(dir), 'utf8'));
  } catch {
    return { problem: 'has no proof of the build rtbench made' };
  }
  const { sha256, bytes } = folderDigest(dir);
  const want = proof as { sha256?: unknown; bytes?: unknown };
  if (want.sha256 !== sha256 || want.bytes !== bytes) return { problem: `is not the build rtbench made (${bytes} bytes, sha256 ${sha256.slice(0, 12)}…; ${String(want.bytes)} bytes, ${String(want.sha256).slice(0, 12)}… when built)` };
  return undefined;
}

/** Writes the proof of a whole build beside its folder. */
export function recordBuild(dir: string): void {
  writeFileSync(proofOf(dir), `${JSON.stringify(folderDigest(dir))}\n`, { mode: 0o600 });
}

/**
 * The app built in `cacheDir` (reused when its key's folder holds a whole
 * build, proven: cachedBuildProblem; its serve.mjs and proof are written last). It is built in that folder itself:
 * Next.js and the adapter write the folder's path into their output. A
 * step that fails throws NextBuildFailed with one line, and the folder is
 * removed; the step's output is kept in a log beside the builds.
 */
export function buildNextPage(cacheDir: string, toolchain: Toolchain, appDir = APP_DIR, say: (line: string) => void = () => {}): NextBuild {
  const { versions, modules } = toolchain;
  const requireTools = createRequire(join(modules, '..', 'package.json'));
  const key = buildKey(appDir, versions);
  const root = join(cacheDir, 'next-page');
  const dir = join(root, key);
  const done = (built: boolean): NextBuild => ({ dir, versions, worker: join(dir, WORKER_BUNDLE, WORKER_MODULE), nodeServer: join(dir, 'serve.mjs'), built });
  ownerOnlyDir(root);
  if (existsSync(dir)) {
    const why = cachedBuildProblem(dir);
    if (!why) return done(false);
    if (why.owner) throw new NextBuildFailed(`the cached build ${dir} ${why.problem}: rtbench will not run a build someone else could change; remove it (as its owner or root)`);
    say(`the cached build ${relative(process.cwd(), dir) || dir} ${why.problem}: building it again`);
  }
  say(`building the app with next ${versions.next} and @opennextjs/cloudflare ${versions['@opennextjs/cloudflare']} into ${relative(process.cwd(), dir) || dir} (once; cached after)`);
  const log = join(root, `${key}.log`);
  const started = performance.now();
  rmSync(dir, { recursive: true, force: true });
  rmSync(proofOf(dir), { force: true });
  writeFileSync(log, '');
  try {
    cpSync(appDir, dir, { recursive: true });
    // Owner-only whatever the umask, as the cache's other folders.
    chmodSync(dir, 0o700);
    // The app resolves next, react and the adapter from the toolchain's install.
    symlinkSync(modules, join(dir, 'node_modules'), 'dir');
    run('next build', requireTools.resolve('next/dist/bin/next'), ['build'], dir, log);
    run('opennextjs-cloudflare build', join(modules, '@opennextjs', 'cloudflare', 'dist', 'cli', 'index.js'), ['build', '--skipNextBuild'], dir, log);
    // The Worker as wrangler deploys it: the adapter's output bundled with the app's nodejs_compat (Node.js built-ins
    // imported as node:*), nothing uploaded.
    run('wrangler deploy --dry-run', join(modules, 'wrangler', 'bin', 'wrangler.js'), ['deploy', '--dry-run', '--outdir', WORKER_BUNDLE], dir, log);
    const bundled = join(dir, WORKER_BUNDLE, 'worker.js');
    if (!existsSync(bundled)) throw new NextBuildFailed(`wrangler deploy --dry-run wrote no ${WORKER_BUNDLE}/worker.js (its output: ${log})`);
    writeFileSync(join(dir, WORKER_BUNDLE, WORKER_MODULE), nodePrefixed(readFileSync(bundled, 'utf8')));
    writeFileSync(join(dir, 'serve.mjs'), nodeServerSource(dir, requireTools.resolve('next')));
    recordBuild(dir);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    rmSync(proofOf(dir), { force: true });
    throw error;
  }
  say(`built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return done(true);
}
