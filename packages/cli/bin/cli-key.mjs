// @ts-check
/**
 * The key of the CLI's bundle (@rtbench/host's cli-bundle.ts): a hash of every
 * file it is built from (the workspace's sources and package.json files, the
 * lockfile for the bundled dependencies, and these launcher files), read on
 * every start, so an edit, a checkout or an install is never run from an old
 * bundle. Content, not times: a checkout rewrites times. 15–40 ms a start
 * on a quiet machine (335 files, 2.6 MB, 2026-11-25).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * @param {string} root the repository
 * @returns {string[]} the files the bundle is built from, in a fixed order
 */
function inputs(root) {
  const files = [join(root, 'pnpm-lock.yaml')];
  const bin = join(root, 'packages', 'cli', 'bin');
  if (existsSync(bin)) for (const name of readdirSync(bin)) files.push(join(bin, name));
  for (const group of ['packages', 'runners']) {
    if (!existsSync(join(root, group))) continue;
    for (const name of readdirSync(join(root, group))) {
      const pkg = join(root, group, name);
      files.push(join(pkg, 'package.json'));
      if (!existsSync(join(pkg, 'src'))) continue;
      for (const entry of readdirSync(join(pkg, 'src'), { recursive: true, withFileTypes: true })) {
        if (entry.isFile()) files.push(join(entry.parentPath ?? entry.path, entry.name));
      }
    }
  }
  return files.filter((f) => existsSync(f)).sort();
}

/**
 * @param {string} root the repository (a test gives a scratch tree)
 * @returns {string} 16 hex digits
 */
export function sourcesKey(root = repoRoot) {
  // The place too: the bundle holds its sources' absolute paths (@rtbench/host's cli-bundle.ts), so a moved checkout rebuilds.
  const hash = createHash('sha256').update(root).update('\0');
  for (const file of inputs(root)) hash.update(file.slice(root.length)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}
