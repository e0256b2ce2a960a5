/**
 * A framework app brought as its repository holds it (`rtbench run <app
 * folder>`): recognised from its package.json (the framework's package
 * among its dependencies) and its config files, with the adapters it
 * declares for each platform, and said in one line: what it is, and how it
 * is built and served on the runtimes with a Node.js server and on the
 * Workers runtime. A folder whose package.json names no framework is not an
 * app (a wrangler project in it is served as a Worker); an app rtbench
 * cannot build yet, or whose dependencies are not installed, is one line,
 * before anything runs.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { oneLine } from '@rtbench/core/words';
import { UsageError } from '@rtbench/core/usage-error';
import { wranglerConfigAt } from '../wrangler-config.ts';

/** How a framework's app is told apart, and said in words: its entry in all.ts declares it. */
export interface Framework {
  readonly name: string;
  /** The package whose presence among the dependencies makes a folder this framework's app. */
  readonly package: string;
  /** Its config files, by the names the framework looks for. */
  readonly configs: readonly string[];
  /** What builds it, in words. */
  readonly builtWith: string;
  /** The server the Node.js side runs, and the packages that give it (none: the framework's own). */
  readonly node: { readonly server: string; readonly adapters: readonly string[] };
  /** The Cloudflare adapter's Worker, and the packages that make it. */
  readonly workers: { readonly worker: string; readonly adapters: readonly string[] };
}

/** A config file's names, as a framework looks for it by its stem. */
export const configFiles = (stem: string, extensions = ['js', 'mjs', 'ts', 'cjs', 'mts']): string[] => extensions.map((e) => `${stem}.${e}`);

/** The frameworks' packages, as a refusal names what a folder's package.json lacks. */
export const packagesInWords = (frameworks: readonly Framework[]): string => frameworks.map((f) => `${f.package} (${f.name})`).join(', ');

/** An app as rtbench found it. */
export interface FrameworkApp {
  readonly framework: Framework;
  readonly dir: string;
  /** The framework's version: installed in the app's node_modules, else the range its package.json declares. */
  readonly version: string;
  readonly installed: boolean;
  /** The config file it has, if any. */
  readonly config?: string;
  /** The adapters it declares (its dependencies), per platform. */
  readonly nodeAdapters: readonly string[];
  readonly workersAdapters: readonly string[];
  /** Its wrangler config, if it has one. */
  readonly wrangler?: string;
}

/** A package.json's dependencies of every kind, name → declared range; undefined when the folder has none or it does not parse. */
function dependenciesOf(dir: string): Record<string, string> | undefined {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return undefined;
  let pkg: unknown;
  try {
    pkg = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`${join(dir, 'package.json')} is not JSON: ${oneLine((error as Error).message)}`);
  }
  const out: Record<string, string> = {};
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
    const deps = (pkg as Record<string, unknown>)?.[field];
    if (typeof deps === 'object' && deps !== null) for (const [name, range] of Object.entries(deps)) if (typeof range === 'string') out[name] ??= range;
  }
  return out;
}

/** The fields of a package.json the app code reads. */
export interface PackageManifest {
  version?: unknown;
  dependencies?: Record<string, unknown>;
  devDependencies?: Record<string, unknown>;
  optionalDependencies?: Record<string, unknown>;
  peerDependencies?: Record<string, unknown>;
}

/** The package.json in a folder, or undefined when there is none that reads as JSON. */
export function manifestAt(dir: string): PackageManifest | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageManifest;
  } catch {
    return undefined;
  }
}

/** The version of a package installed in the app's node_modules, if it is. */
function installedVersion(dir: string, name: string): string | undefined {
  const version = manifestAt(join(dir, 'node_modules', name))?.version;
  return typeof version === 'string' ? version : undefined;
}

/** The framework app in a folder, or undefined when it is no folder or its package.json names none of the frameworks, tried in their order. */
export function frameworkAppAt(path: string, frameworks: readonly Framework[]): FrameworkApp | undefined {
  const dir = resolve(path);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return undefined;
  const deps = dependenciesOf(dir);
  if (!deps) return undefined;
  const framework = frameworks.find((f) => deps[f.package] !== undefined);
  if (!framework) return undefined;
  const installed = installedVersion(dir, framework.package);
  const config = framework.configs.find((c) => existsSync(join(dir, c)));
  const wrangler = wranglerConfigAt(dir);
  return {
    framework,
    dir,
    version: installed ?? deps[framework.package]!,
    installed: installed !== undefined,
    ...(config ? { config } : {}),
    nodeAdapters: framework.node.adapters.filter((a) => deps[a] !== undefined),
    workersAdapters: framework.workers.adapters.filter((a) => deps[a] !== undefined),
    ...(wrangler ? { wrangler } : {}),
  };
}

/** What rtbench found, and how each side would build and serve it, in one line's words. */
export function describeApp(app: FrameworkApp): string {
  const f = app.framework;
  const found = [`${f.package} ${app.version}${app.installed ? '' : ' (declared, not installed)'}`, ...(app.config ? [app.config] : []), ...(app.wrangler ? [app.wrangler.slice(app.dir.length + 1)] : [])];
  const side = (what: string, adapters: readonly string[], wanted: readonly string[]): string =>
    wanted.length === 0 || adapters.length ? `${what}${adapters.length ? ` (${adapters.join(', ')})` : ''}` : `${what}, whose adapter (${wanted.join(' or ')}) it does not declare`;
  return `${/^[AEIOU]/.test(f.name) ? 'an' : 'a'} ${f.name} app (${found.join(', ')}): built with ${f.builtWith}, served by ${side(f.node.server, app.nodeAdapters, f.node.adapters)} on the runtimes with a Node.js server and by ${side(f.workers.worker, app.workersAdapters, f.workers.adapters)} on the Workers runtime`;
}

/** The line said of an app rtbench cannot run: what it is, and why not (`built`: the frameworks rtbench builds). */
export function appRefusal(path: string, app: FrameworkApp, built: readonly Framework[]): UsageError {
  const names = built.map((f) => f.name);
  const named = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}` : (names[0] ?? 'no');
  const why = app.installed
    ? `rtbench builds ${named} apps, not ${app.framework.name} apps yet: build it with its own toolchain, then run its Worker (rtbench run ${app.wrangler ?? '<its wrangler config>'})`
    : `its dependencies are not installed (no node_modules/${app.framework.package}): install them with its package manager first`;
  return new UsageError(`${path} is ${describeApp(app)}; ${why}`);
}
