// @ts-check
/**
 * The key of the CLI's bundle (@rtbench/host's cli-bundle.ts): a hash of every
 * file it is built from (the workspace's sources and package.json files, the
 * lockfile for the bundled dependencies, and these launcher files), read on
 * every start, so an edit, a checkout or an install is never run from an old
 * bundle. Content, not times: a checkout rewrites times. A start whose files'
 * sizes, times and inodes are those of the last key's reading takes that key
 * without reading them (sources-stamp.json beside the bundles).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * @param {string} root the repository
 * @returns {string[]} the files the bundle may be built from (some may not exist), in a fixed order
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
  return files.sort();
}

/** Longer than a file system's timestamp step: a file changed this recently may change again within one step unseen. */
const RACY_MS = 3_000;

/**
 * @param {string} root the repository
 * @returns {string} where the last key is kept with the stamp of the files it was read from
 */
const memoOf = (root) => join(root, 'packages', 'cli', 'node_modules', '.cache', 'rtbench', 'sources-stamp.json');

/**
 * @param {string} root the repository (a test gives a scratch tree)
 * @returns {string} 16 hex digits
 */
export function sourcesKey(root = repoRoot) {
  /** @type {string[]} the inputs that exist, each stat-ed once */
  const files = [];
  // Each file's size, time and inode: while they are those of the last reading (and were then older than RACY_MS), the
  // contents are those read, as git's index trusts a stat; a checkout rewrites times, and the contents are read again.
  const stamp = createHash('sha256').update(root);
  let newest = 0n;
  for (const file of inputs(root)) {
    const s = statSync(file, { bigint: true, throwIfNoEntry: false });
    if (!s) continue;
    files.push(file);
    if (s.mtimeNs > newest) newest = s.mtimeNs;
    stamp.update(`\0${file.slice(root.length)}\0${s.size}\0${s.mtimeNs}\0${s.ino}`);
  }
  const stampText = stamp.digest('hex');
  const settled = newest < BigInt(Date.now() - RACY_MS) * 1_000_000n;
  const memo = memoOf(root);
  try {
    const kept = JSON.parse(readFileSync(memo, 'utf8'));
    if (settled && kept.stamp === stampText && typeof kept.key === 'string') return kept.key;
  } catch {
    /* no key kept yet, or not readable: read the contents */
  }
  // The place too: the bundle holds its sources' absolute paths (@rtbench/host's cli-bundle.ts), so a moved checkout rebuilds.
  const hash = createHash('sha256').update(root).update('\0');
  for (const file of files) hash.update(file.slice(root.length)).update('\0').update(readFileSync(file)).update('\0');
  const key = hash.digest('hex').slice(0, 16);
  if (settled) {
    try {
      mkdirSync(dirname(memo), { recursive: true });
      // Written whole then renamed: a second start reading it meanwhile sees the old one or the new one.
      writeFileSync(`${memo}.${process.pid}`, JSON.stringify({ stamp: stampText, key }));
      renameSync(`${memo}.${process.pid}`, memo);
    } catch {
      /* a read-only checkout: the contents are read at each start */
    }
  }
  return key;
}
