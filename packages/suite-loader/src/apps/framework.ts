/**
 * What a framework module declares for rtbench to run its apps
 * (`rtbench run <app folder>`, app-suite.ts), the same for every framework:
 * before anything runs, its plan (what builds each edition: the adapter the
 * app declares or the one rtbench adds, at its version; what it refuses, in
 * one line, whole or per edition; the notes said of it), then, when a run
 * first needs it, its build with the app's own toolchain and how each side
 * serves the output (the Cloudflare adapter's Worker with its wrangler
 * config on the Workers runtime, a Node.js server program on the others),
 * and the normaliser that compares the two editions' pages with the build's
 * names masked. all.ts lists the frameworks and loads a home when a folder
 * is its app.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { satisfies, validRange } from 'semver';
import type { ResponseNormalizer } from '@rtbench/core';
import type { WorkersCompatibility } from '@rtbench/core/request';
import { UsageError } from '@rtbench/core/usage-error';
import type { Edition } from '@rtbench/host/apps';
import { describeApp, manifestAt, type Framework, type FrameworkApp } from './framework-app.ts';

/** What a framework's plan says of an app, before any build: JSON, written into the suite's entry. */
export interface AppPlan<Detail = unknown> {
  /** The framework's own choices (which adapter each edition is built with), handed back to its build. */
  readonly detail: Detail;
  /** Why an edition cannot be built: its runtimes say so in one line, the other edition's still run. */
  readonly refused: Partial<Record<Edition, string>>;
  /** The toolchain's installed versions (the framework, its bundler, each adapter): the build's cache key. */
  readonly versions: Readonly<Record<string, string>>;
  /** What is said before the run: each adapter rtbench adds at its version, what the Worker finds. */
  readonly notes: readonly string[];
}

/** What a build is handed: the app, the editions the run's runtimes serve (none refused), where its builds are kept, the Node.js its tools run on, and a line's sink. */
interface AppBuildContext {
  readonly dir: string;
  readonly editions: readonly Edition[];
  readonly root: string;
  readonly node: string;
  readonly say: (line: string) => void;
}

/** The built editions, as each side serves them; an edition the plan refused is absent. */
export interface BuiltApp {
  /** A name of this build's output, unique per app files and versions (its program files are named by it). */
  readonly key: string;
  /**
   * The Cloudflare adapter's Worker: the wrangler config whose main it is (with its assets), modules imported before
   * it, and the module served in main's place when the build bundled it as wrangler deploys it (Next.js's).
   */
  readonly workers?: { readonly config: string; readonly preludes?: readonly string[]; readonly main?: string };
  /** The program node, bun and deno run (serve-app.mjs mounting the Node.js side's handler), the folders it reads, and the system facts deno must let it read (`cpus`). */
  readonly node?: { readonly source: string; readonly reads: readonly string[]; readonly sys?: readonly string[] };
}

/**
 * What a framework rtbench builds and serves does with its app: its plan, build and page. One home each, its file's
 * default export, loaded only when a folder is its app (all.ts lists the frameworks, each with how its app is told apart).
 */
export interface FrameworkHome<Detail = unknown> {
  /** The file whose default export it is: the suite's entry imports it from there. */
  readonly module: string;
  /** The compatibility its Worker is served with when the app has no wrangler config. */
  readonly defaultCompatibility: WorkersCompatibility;
  /** The plan, or a refusal of the whole app in one line (UsageError) when neither edition can be built. */
  plan(path: string, app: FrameworkApp): AppPlan<Detail>;
  /** The asked editions built (a framework that builds both at once may build both), cached by the app's files and versions; a failed build is one line. */
  build(plan: AppPlan<Detail>, context: AppBuildContext): Promise<BuiltApp>;
  /** The page compared across the two editions: the build's names masked, nothing else. */
  readonly normalize: ResponseNormalizer;
}

/** A framework rtbench builds and serves, its home loaded: how its app is told apart, and what it does with it. */
export interface AppFramework<Detail = unknown> extends Framework, FrameworkHome<Detail> {}

/** The version installed in the app's node_modules of each package, for the build's key; one not installed is left out. */
export function installedVersions(dir: string, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const manifest = manifestAt(join(dir, 'node_modules', name));
    if (manifest) out[name] = String(manifest.version);
  }
  return out;
}

/** Refused in one line when the app's vite, which its framework builds with, is not installed. */
export function requireVite(path: string, app: FrameworkApp): void {
  if (!existsSync(join(app.dir, 'node_modules', 'vite', 'bin', 'vite.js'))) throw new UsageError(`${path} is ${describeApp(app)}; its vite is not installed (no node_modules/vite): install its dependencies with its package manager first`);
}

/**
 * Whether a version is in a peer range as npm reads it (semver's
 * `satisfies`), prereleases included: an adapter that declares
 * `^3.0.0-next.0` builds a 3.x release, and one that declares `^2.0.0`
 * builds kit 2.1.0-next.3. A range semver cannot read admits the version
 * (the build then says what is wrong).
 */
export function inPeerRange(version: string, range: string): boolean {
  if (validRange(range, { loose: true }) === null) return true;
  return satisfies(version, range, { includePrerelease: true, loose: true });
}

/** The range of a package an installed package declares it supports (its peerDependencies), if it declares one. */
export function peerRangeOf(packageDir: string, peer: string): string | undefined {
  const range = manifestAt(packageDir)?.peerDependencies?.[peer];
  return typeof range === 'string' ? range : undefined;
}

/** The words for each edition's side. */
export const SIDE: Readonly<Record<Edition, string>> = { node: 'the Node.js side', workers: 'the Workers side' };
