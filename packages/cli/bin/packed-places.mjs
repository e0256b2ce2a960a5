// @ts-check
/**
 * Where an installed rtbench's packages lie, for the bundle packed with it
 * (scripts/pack-rtbench.ts, @rtbench/host's cli-bundle.ts): each module of that
 * bundle that reads files next to itself (the warden's script, a runtime's
 * in-runtime entry, the page's styles) asks for its place as
 * (package, path in it) when it loads, and gets the installed package's
 * file. A package is found as Node finds it, from the folder of the
 * package that depends on it (a pnpm install links each package's
 * dependencies beside it only), starting at rtbench's own.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Where the bundle packed with the package lies in it (scripts/pack-rtbench.ts builds it, rtbench.mjs starts it). */
export const PACKED = join(dirname(fileURLToPath(import.meta.url)), '..', 'packed');

/** The key cli-bundle.ts's packed modules call (it declares the same). */
const MODULE_PLACE = Symbol.for('rtbench.modulePlace');

/** @param {string} name */
const isOwn = (name) => name === 'rtbench' || name.startsWith('@rtbench/');

/**
 * @param {string} from a package's folder
 * @param {string} name a package it depends on
 * @returns {string | undefined} that package's folder, as Node's resolution finds it from `from`
 */
function findFrom(from, name) {
  for (let dir = from; ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') {
      const candidate = join(dir, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * @param {string} root rtbench's installed package folder
 * @returns {Map<string, string>} each of rtbench's own packages (rtbench, @rtbench/…) it depends on, however deep → its folder
 */
export function installedPackages(root) {
  /** @type {Map<string, string>} */
  const found = new Map();
  const pending = [realpathSync(root)];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    const manifest = /** @type {{ name: string, dependencies?: Record<string, string> }} */ (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')));
    if (found.has(manifest.name)) continue;
    found.set(manifest.name, dir);
    for (const name of Object.keys(manifest.dependencies ?? {}).filter(isOwn)) {
      const at = findFrom(dir, name);
      if (at && !found.has(name)) pending.push(at);
    }
  }
  return found;
}

/** @param {Map<string, string>} packages what installedPackages found */
export function provideModulePlaces(packages) {
  /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (globalThis))[MODULE_PLACE] = (/** @type {string} */ name, /** @type {string} */ path) => {
    const dir = packages.get(name);
    if (dir === undefined) throw new Error(`rtbench's packed bundle needs ${name}, which is not installed beside it: reinstall rtbench`);
    const file = join(dir, path);
    return [pathToFileURL(file).href, dirname(file), file];
  };
}
