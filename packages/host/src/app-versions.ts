/**
 * A framework app with some of its dependencies at other versions (an arm's
 * `next@15.4.6`), made in rtbench's cache and never in the app's folder: its
 * package.json with those dependencies written at the pinned versions,
 * installed by the app's own package manager from its own lockfile (npm,
 * or pnpm for a pnpm-lock.yaml; an app locked by another manager installs
 * with npm from its package.json, and it is said), install scripts not run,
 * telemetry off, the npm registry only (npm starting from a copy of the
 * app's own installed packages, so it changes only what the pins move, as
 * in the app's folder); then a copy of the app's files
 * whose node_modules is that install. The install is kept per package.json,
 * lockfile and versions, in the folder of installs the caller names (the
 * library store's, which checkouts may share: nothing of the app's path is
 * in it), the copy per app files and versions beside the app's builds; a
 * failed install leaves nothing and is one line quoting its error.
 */
import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, cpSync, openSync, existsSync, lstatSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { shownPath } from './file-name.ts';
import { AppBuildFailed, appBuildKey, copyAppFiles, lastError } from './app-build.ts';
import { ownerOnlyDir } from './program-cache.ts';
import { npmReason } from './npm-client.ts';
import { runContainedStep } from '@rtbench/process';

/** The files an install reads besides package.json: the lockfiles and the package managers' settings. */
const INSTALL_FILES = ['package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', '.npmrc', 'yarn.lock', 'bun.lock', 'bun.lockb'];

/** The package manager that installs the app's copy, as its lockfile names it. */
export interface AppPackageManager {
  readonly name: 'npm' | 'pnpm';
  /** The command and its arguments: an install that may move the pinned packages in the lockfile, no install script run. */
  readonly command: string;
  readonly args: readonly string[];
  /** Said when the app's own manager is not the one that installs it (a yarn or bun lockfile). */
  readonly note?: string;
}

/** The pnpm an app names in its package.json's `packageManager` (`pnpm@9.15.0`), else a release of pnpm 10. */
function pnpmVersion(manifest: { packageManager?: unknown }): string {
  const named = typeof manifest.packageManager === 'string' ? /^pnpm@(\d+\.\d+\.\d+)/.exec(manifest.packageManager)?.[1] : undefined;
  return named ?? '10.34.9';
}

/** The app's package manager: pnpm for a pnpm-lock.yaml, npm for a package-lock.json or none; a yarn or bun lockfile is not read (npm installs from package.json, said). */
export function appPackageManager(appDir: string): AppPackageManager {
  const manifest = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8')) as { packageManager?: unknown };
  const npm = { name: 'npm', command: 'npm', args: ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'] } as const;
  if (existsSync(join(appDir, 'pnpm-lock.yaml'))) return { name: 'pnpm', command: 'npx', args: ['--yes', `pnpm@${pnpmVersion(manifest)}`, 'install', '--no-frozen-lockfile', '--ignore-scripts', '--config.confirmModulesPurge=false'] };
  const other = ['yarn.lock', 'bun.lock', 'bun.lockb'].find((f) => existsSync(join(appDir, f)));
  return other ? { ...npm, note: `the app's ${other} is not read: npm installs the copy from its package.json` } : npm;
}

/**
 * The app's package.json with each pinned package written at its version,
 * in whichever of its dependency lists names it; a pin the app does not
 * declare is left out (the caller pins only what the app declares).
 */
export function pinnedManifest(text: string, pins: Readonly<Record<string, string>>): string {
  const manifest = JSON.parse(text) as Record<string, unknown>;
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
    const deps = manifest[field];
    if (typeof deps !== 'object' || deps === null) continue;
    for (const [name, version] of Object.entries(pins)) if (name in deps) (deps as Record<string, string>)[name] = version;
  }
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** A pinned package as the arm's record holds it: its version, its folder in the copy's install, the registry's integrity the lockfile keeps. */
interface AppVersionPackage {
  readonly name: string;
  readonly version: string;
  readonly dir: string;
  readonly integrity?: string;
}

export interface AppWithVersions {
  /** The copy's folder: the app's files, its package.json pinned, node_modules the install. */
  readonly dir: string;
  readonly manager: AppPackageManager;
  /** sha256 of the install's lockfile: what proves the set the pinned packages were installed in. */
  readonly sha256: string;
  readonly packages: readonly AppVersionPackage[];
}

/** The integrity the install's lockfile holds of a package at a version (npm's packages map, pnpm's resolution), if it holds one. */
export function lockedIntegrity(lockText: string, manager: AppPackageManager['name'], name: string, version: string): string | undefined {
  if (manager === 'npm') {
    const entry = (JSON.parse(lockText) as { packages?: Record<string, { version?: string; integrity?: string }> }).packages?.[`node_modules/${name}`];
    return entry?.version === version ? entry.integrity : undefined;
  }
  const at = lockText.indexOf(`\n  ${/^[\w.-]+$/.test(name) ? name : `'${name}`}@${version}`);
  return at < 0 ? undefined : /resolution: \{integrity: ([\w+/=-]+)\}/.exec(lockText.slice(at, at + 600))?.[1];
}

const LOCKFILES: Readonly<Record<AppPackageManager['name'], string>> = { npm: 'package-lock.json', pnpm: 'pnpm-lock.yaml' };
/** Written in an install's folder once its install is whole. */
const INSTALLED = '.rtbench-installed';

/** The pins as one text, sorted: `svelte@5.57.2 vite@8.3.8`. */
const pinWordsOf = (pins: Readonly<Record<string, string>>): string => Object.entries(pins).sort(([a], [b]) => a.localeCompare(b)).map(([n, v]) => `${n}@${v}`).join(' ');

function hashOf(parts: readonly (string | Buffer)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\u0000');
  return hash.digest('hex').slice(0, 16);
}

/**
 * The app's installed packages (a real node_modules folder, not a link to
 * one) copied into `temp` for npm to start from: npm then installs only what
 * the pinned package.json moves, where an empty folder would have it
 * extract every package again. Only links relative to and inside the
 * app's node_modules are copied (each then points into the copy); any other
 * (a workspace's, a `file:` one, an absolute one) is left for npm to make,
 * so npm never writes through one into the app's or another folder.
 */
export function seedFromApp(appDir: string, temp: string): void {
  const from = join(appDir, 'node_modules');
  try {
    if (!lstatSync(from).isDirectory()) return;
  } catch {
    return;
  }
  const inside = (link: string, target: string): boolean => !isAbsolute(target) && !relative(from, resolve(dirname(link), target)).startsWith('..');
  cpSync(from, join(temp, 'node_modules'), {
    recursive: true,
    verbatimSymlinks: true,
    preserveTimestamps: true,
    filter: (source) => !lstatSync(source).isSymbolicLink() || inside(source, readlinkSync(source)),
  });
}

/** Where a link points, or undefined when there is no link. */
function linkTarget(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

/** A folder made whole in a temporary one beside it and moved into place; a failure leaves neither. */
function madeWhole(dir: string, make: (temp: string) => void): void {
  const temp = `${dir}.making-${process.pid}`;
  rmSync(temp, { recursive: true, force: true, maxRetries: 5 });
  try {
    make(temp);
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    renameSync(temp, dir);
  } catch (error) {
    rmSync(temp, { recursive: true, force: true, maxRetries: 5 });
    throw error;
  }
}

/**
 * The settings of an app's `.npmrc` that shape what is installed (peers, hoisting, the layout),
 * one a line; every other is left out: where packages come from (`registry`, a scope's
 * `@x:registry`, a host's `//host/:…` settings, proxies), other config files, certificates. An
 * arm's install asks the registry the user configured, never one the app names.
 */
const INSTALL_SHAPING = new Set([
  'legacy-peer-deps', 'strict-peer-deps', 'engine-strict', 'install-strategy', 'omit', 'include', 'prefer-dedupe',
  'auto-install-peers', 'strict-peer-dependencies', 'dedupe-peer-dependents', 'resolve-peers-from-workspace-root',
  'node-linker', 'shamefully-hoist', 'hoist', 'hoist-pattern', 'public-hoist-pattern', 'resolution-mode',
]);

function installSettings(npmrc: string): string {
  return npmrc
    .split(/\r?\n/)
    .filter((line) => INSTALL_SHAPING.has(line.split('=')[0]!.trim().replace(/\[\]$/, '')))
    .map((line) => `${line.trim()}\n`)
    .join('');
}

/** The most an arm's install may take: a whole app's dependencies from a slow registry. */
const INSTALL_TIMEOUT_MS = 20 * 60_000;

/**
 * The package manager's install in `temp`, contained as a build step is (runContainedStep) but with
 * the network, and npm told to take even a lockfile's `resolved` addresses from the configured
 * registry; git, which fetches a dependency named by its repository, allowed no transport that
 * reaches a host (git's own GIT_ALLOW_PROTOCOL), so the registry is all the install reaches; its
 * output in `temp`.log, and a failure one line quoting its cause (npm's, not its log's address).
 */
function installIn(temp: string, manager: AppPackageManager, pinText: string): void {
  const log = `${temp}.log`;
  const fd = openSync(log, 'w', 0o600);
  let r;
  try {
    const args = manager.name === 'npm' ? [...manager.args, '--replace-registry-host=always'] : manager.args;
    r = runContainedStep(manager.command, args, {
      cwd: temp,
      env: { ...process.env, DO_NOT_TRACK: '1', NEXT_TELEMETRY_DISABLED: '1', WRANGLER_SEND_METRICS: 'false', npm_config_update_notifier: 'false', CI: '1', GIT_ALLOW_PROTOCOL: 'file' },
      outputFd: fd,
      timeoutMs: INSTALL_TIMEOUT_MS,
      network: true,
    });
  } finally {
    closeSync(fd);
  }
  const output = readFileSync(log, 'utf8');
  rmSync(log, { force: true });
  if (r.status === 0) return;
  const how = r.timedOut ? `not done within ${INSTALL_TIMEOUT_MS / 60_000} min` : r.error ? r.error.message : r.signal ? `killed by ${r.signal}` : `exit ${r.status}`;
  const git = /transport '([\w+-]+)' not allowed/.exec(output)?.[1];
  const cause = git ? `a dependency is fetched from a git repository (over ${git}), which an arm's install does not reach: it asks the configured registry alone` : manager.name === 'npm' ? npmReason(output) : lastError(output);
  throw new AppBuildFailed(`${manager.name} install of ${pinText} failed (${how}): ${cause}`);
}

/** The pins' install of the app in `installs`: named by its package manager, the pins, its package.json and lockfiles, nothing of its path. */
export function appInstallDir(appDir: string, installs: string, pins: Readonly<Record<string, string>>): string {
  const present = INSTALL_FILES.filter((f) => existsSync(join(appDir, f)));
  return join(installs, hashOf([appPackageManager(appDir).name, pinWordsOf(pins), readFileSync(join(appDir, 'package.json')), ...present.flatMap((f) => [f, readFileSync(join(appDir, f))])]));
}

/** Where an app's copies with other versions are kept: `copies`, the app's files per versions (beside its builds); `installs`, each set of versions installed. */
export interface AppVersionPlaces {
  readonly copies: string;
  readonly installs: string;
}

/**
 * The app with `pins` installed (installed now when `places.installs`
 * lacks it) and copied under `places.copies`: `say` tells when an install
 * starts. A failed install is an AppBuildFailed in one line quoting the
 * package manager's error.
 */
export function appWithVersions(appDir: string, places: AppVersionPlaces, pins: Readonly<Record<string, string>>, say: (line: string) => void = () => {}): AppWithVersions {
  const manager = appPackageManager(appDir);
  const present = INSTALL_FILES.filter((f) => existsSync(join(appDir, f)));
  const pinText = pinWordsOf(pins);
  ownerOnlyDir(places.installs);
  ownerOnlyDir(places.copies);
  const install = appInstallDir(appDir, places.installs, pins);
  const installName = basename(install);
  if (!existsSync(join(install, INSTALLED))) {
    say(`installing ${pinText} in a copy of the app with ${manager.name} (once; cached after), in ${shownPath(install)}; the app's own folder is untouched${manager.note ? `; ${manager.note}` : ''}`);
    madeWhole(install, (temp) => {
      ownerOnlyDir(temp);
      for (const f of present) if (f !== '.npmrc') copyFileSync(join(appDir, f), join(temp, f));
      if (present.includes('.npmrc')) writeFileSync(join(temp, '.npmrc'), installSettings(readFileSync(join(appDir, '.npmrc'), 'utf8')));
      writeFileSync(join(temp, 'package.json'), pinnedManifest(readFileSync(join(appDir, 'package.json'), 'utf8'), pins));
      if (manager.name === 'npm') seedFromApp(appDir, temp);
      installIn(temp, manager, pinText);
      writeFileSync(join(temp, INSTALLED), `${pinText}\n`);
    });
  }
  // The app's files beside the install, named by them and the versions: what the framework's build copies.
  const dir = join(places.copies, `${installName}-app-${appBuildKey(appDir, pins)}`);
  // A copy linked to another install (one an older rtbench kept beside the copies) is made again, linked to this one.
  if (linkTarget(join(dir, 'node_modules')) !== join(install, 'node_modules')) {
    madeWhole(dir, (temp) => {
      copyAppFiles(appDir, temp, new Set(['node_modules', '.git', '.next', '.open-next', '.wrangler', '.svelte-kit', '.react-router']));
      for (const f of ['package.json', ...present]) if (existsSync(join(install, f))) copyFileSync(join(install, f), join(temp, f));
      symlinkSync(join(install, 'node_modules'), join(temp, 'node_modules'), 'dir');
    });
  }
  const lockfile = join(install, LOCKFILES[manager.name]);
  const lockText = existsSync(lockfile) ? readFileSync(lockfile, 'utf8') : '';
  const packages = Object.keys(pins).map((name): AppVersionPackage => {
    const folder = join(install, 'node_modules', name);
    const version = String((JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version?: unknown }).version);
    const integrity = lockText ? lockedIntegrity(lockText, manager.name, name, version) : undefined;
    return { name, version, dir: realpathSync(folder), ...(integrity ? { integrity } : {}) };
  });
  return { dir, manager, sha256: createHash('sha256').update(lockText).digest('hex'), packages };
}
