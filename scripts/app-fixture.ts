/**
 * A framework app of test/fixtures/apps, installed as its user would have
 * it: its files copied and its dependencies installed from its own lockfile
 * (`npm ci`, no install script, no audit, telemetry off, the npm registry
 * only), once per lockfile and file set, into the machine's test cache
 * outside the checkout (test/helpers/machine-cache.ts: a fresh clone on a
 * machine that installed it before installs nothing; the install is no
 * behaviour under test, the app's builds are, and rtbench makes those in
 * the checkout's own cache). Printed as a path, for `rtbench run <path>`:
 *
 *   npx tsx scripts/app-fixture.ts sveltekit
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { machineCache, pruneUnused, touchEntry } from '../test/helpers/machine-cache.ts';

const repoRoot = join(import.meta.dirname, '..');
const FIXTURES = join(repoRoot, 'test', 'fixtures', 'apps');
const NOT_SOURCE = new Set(['node_modules', '.svelte-kit', 'build']);

/** The fixture's files (path and bytes), less what an install or a build writes. */
function fixtureKey(dir: string): string {
  const hash = createHash('sha256');
  const files = readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .filter((path) => !NOT_SOURCE.has(path.split('/')[0]!))
    .sort();
  for (const file of files) hash.update(`${file}\u0000`).update(readFileSync(join(dir, file))).update('\u0000');
  return hash.digest('hex').slice(0, 12);
}

const installed = (dir: string): boolean => existsSync(join(dir, 'node_modules', '.package-lock.json'));

/** The app's folder in the machine's test cache with its dependencies installed (npm ci the first time on this machine). */
export function installedApp(name: string): string {
  const source = join(FIXTURES, name);
  const cache = machineCache('apps');
  const entry = `${name}-${fixtureKey(source)}`;
  const dir = join(cache, entry);
  pruneUnused(cache, (n) => n.startsWith(`${name}-`), [entry]);
  if (installed(dir)) {
    touchEntry(dir);
    return dir;
  }
  const temp = `${dir}.installing-${process.pid}`;
  rmSync(temp, { recursive: true, force: true });
  cpSync(source, temp, { recursive: true, filter: (path) => !NOT_SOURCE.has(relative(source, path).split('/')[0]!) });
  const npm = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: temp,
    encoding: 'utf8',
    env: { ...process.env, DO_NOT_TRACK: '1', WRANGLER_SEND_METRICS: 'false', npm_config_update_notifier: 'false' },
  });
  if (npm.status !== 0) {
    rmSync(temp, { recursive: true, force: true });
    throw new Error(`npm ci of the ${name} app failed (exit ${npm.status}): ${(npm.stderr || npm.stdout).trim().split('\n').at(-1)}`);
  }
  // A folder left half made by hand or by an older layout is no install.
  if (existsSync(dir) && !installed(dir)) rmSync(dir, { recursive: true, force: true });
  try {
    renameSync(temp, dir);
  } catch (error) {
    // Another run (of this checkout or another) installed it meanwhile: its folder is as good, and may be in use.
    rmSync(temp, { recursive: true, force: true });
    if (!installed(dir)) throw error;
  }
  return dir;
}

if (import.meta.filename === process.argv[1]) process.stdout.write(`${installedApp(process.argv[2] ?? 'sveltekit')}\n`);
