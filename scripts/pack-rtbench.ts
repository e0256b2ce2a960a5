/**
 * rtbench as one npm package: `npx pnpm -s pack:rtbench [--out <dir>]` writes
 * `rtbench-<version>.tgz` (its path is the one line on stdout), which a
 * project installs with `npm i -D ./rtbench-<version>.tgz` and runs with
 * `npx rtbench …` (docs/install.md).
 *
 * What it holds: the CLI's bundle (@rtbench/host's cli-bundle.ts, esbuild),
 * built for an install, that the launcher (packages/cli/bin/rtbench.mjs)
 * starts from, and every workspace package's sources as bundled dependencies
 * (node_modules/@rtbench/* inside the tarball): the bundle's modules read
 * files beside them there (a runtime's in-runtime entry, the warden's script,
 * the page's styles: packages/cli/bin/packed-places.mjs), and esbuild bundles
 * the in-runtime entries from them for each suite. The packages' own npm
 * dependencies become rtbench's, at the versions this checkout installed, so
 * npm installs them beside it; the pinned runtimes (the runners'
 * devDependencies) become its optionalDependencies: `npm i -D` brings this
 * platform's, `--omit=optional` none (rtbench then installs one on first use,
 * docs/runtimes.md). npm, not pnpm, packs it: bundleDependencies is npm's.
 * test/installed.test.ts calls packRtbench in its own process, which goes on
 * after it: packRtbench stops esbuild's service (a process the build starts,
 * which otherwise lives as long as the process that called it) before it
 * returns; an esbuild call after it starts a new one.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { stop as stopEsbuild } from 'esbuild';
import { buildCliBundle } from '../packages/host/src/cli-bundle.ts';

const repoRoot = join(import.meta.dirname, '..');

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  [field: string]: unknown;
}

const readManifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
const isOwn = (name: string): boolean => name === 'rtbench' || name.startsWith('@rtbench/');
/** A runner's devDependency that is a runtime's package (not its type declarations). */
const isRuntime = (name: string): boolean => !/types$/.test(name);

/** Every workspace package's folder: packages/* and runners/*. */
function workspaceFolders(): string[] {
  return ['packages', 'runners'].flatMap((group) =>
    readdirSync(join(repoRoot, group))
      .map((name) => join(repoRoot, group, name))
      .filter((dir) => existsSync(join(dir, 'package.json'))),
  );
}

/** Dotted versions compared part by part (what pnpm installed: plain x.y.z). */
function newer(a: string, b: string): boolean {
  const [x, y] = [a, b].map((v) => v.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0));
  for (let i = 0; i < Math.max(x!.length, y!.length); i++) if ((x![i] ?? 0) !== (y![i] ?? 0)) return (x![i] ?? 0) > (y![i] ?? 0);
  return false;
}

/** Dependencies that build a native module at install time; the package lists them as optional. */
const NATIVE_MODULES = ['better-sqlite3'];

/** The npm packages the workspace's packages depend on, each at `^` the newest version this checkout installed for them. */
function outsideDependencies(folders: readonly string[]): Record<string, string> {
  const installed = new Map<string, string>();
  for (const dir of folders) {
    for (const name of Object.keys(readManifest(dir).dependencies ?? {}).filter((n) => !isOwn(n))) {
      const at = join(dir, 'node_modules', name);
      if (!existsSync(join(at, 'package.json'))) throw new Error(`${name}, a dependency of ${dir}, is not installed: run \`npx pnpm install\``);
      const { version } = readManifest(at);
      const seen = installed.get(name);
      if (seen === undefined || newer(version, seen)) installed.set(name, version);
    }
  }
  return Object.fromEntries([...installed].sort(([a], [b]) => a.localeCompare(b)).map(([name, version]) => [name, `^${version}`]));
}

/** A workspace package as it lies inside the tarball: its sources, README and manifest, depending on nothing npm would fetch. */
function stagePackage(dir: string, into: string, version: string): void {
  mkdirSync(into, { recursive: true });
  cpSync(join(dir, 'src'), join(into, 'src'), { recursive: true });
  if (existsSync(join(dir, 'README.md'))) cpSync(join(dir, 'README.md'), join(into, 'README.md'));
  const manifest = readManifest(dir);
  // Its own packages lie beside it and its npm packages are rtbench's; a runner keeps its devDependencies, which
  // name the runtime it pins (its plug-in reads them), and which npm never installs for a dependency.
  const own = Object.keys(manifest.dependencies ?? {}).filter(isOwn);
  const { dependencies: _deps, private: _private, ...rest } = manifest;
  writeFileSync(join(into, 'package.json'), `${JSON.stringify({ ...rest, version, ...(own.length ? { dependencies: Object.fromEntries(own.map((n) => [n, version])) } : {}) }, null, 2)}\n`);
}

/** Builds the package into a scratch folder and packs it into `out`; returns the tarball's path. */
export async function packRtbench(out: string): Promise<string> {
  const folders = workspaceFolders();
  const cliDir = join(repoRoot, 'packages', 'cli');
  const cli = readManifest(cliDir);
  const libraries = folders.filter((dir) => dir !== cliDir);
  const stage = mkdtempSync(join(tmpdir(), 'rtbench-pack-'));
  try {
    for (const part of ['bin', 'src']) cpSync(join(cliDir, part), join(stage, part), { recursive: true });
    await buildCliBundle(join(stage, 'packed'), { packed: true });
    const names: string[] = [];
    for (const dir of libraries) {
      const { name } = readManifest(dir);
      names.push(name);
      stagePackage(dir, join(stage, 'node_modules', ...name.split('/')), cli.version);
    }
    const runtimes = Object.fromEntries(
      folders
        .filter((dir) => dir.startsWith(join(repoRoot, 'runners')))
        .flatMap((dir) => Object.entries(readManifest(dir).devDependencies ?? {}).filter(([name]) => isRuntime(name)))
        .sort(([a], [b]) => a.localeCompare(b)),
    );
    names.sort();
    const { dependencies: _own, '//': _notes, ...rest } = cli;
    // A package that builds a native module (better-sqlite3: the results store) is optional: where it cannot build, or
    // under --omit=optional, history reads the run files one by one and says so in one line (results-store places.ts).
    const outside = outsideDependencies(folders);
    const native = Object.fromEntries(Object.entries(outside).filter(([name]) => NATIVE_MODULES.includes(name)));
    const manifest = {
      ...rest,
      files: ['bin', 'packed', 'src'],
      dependencies: { ...Object.fromEntries(Object.entries(outside).filter(([name]) => !(name in native))), ...Object.fromEntries(names.map((n) => [n, cli.version])) },
      bundleDependencies: names,
      optionalDependencies: { ...runtimes, ...native },
    };
    writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    mkdirSync(out, { recursive: true });
    // Without the npm_config_* settings pnpm hands its scripts (npm warns of each it does not know): packing a folder
    // reads only the folder, and npm still reads its own .npmrc files.
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_config_/i.test(key)));
    const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: stage, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })) as { filename: string }[];
    return join(out, packed[0]!.filename);
  } finally {
    await stopEsbuild();
    rmSync(stage, { recursive: true, force: true });
  }
}

// Run as the script (pnpm pack:rtbench), not where a test imports packRtbench.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { out: { type: 'string', default: '.' } } });
  process.stdout.write(`${await packRtbench(resolve(values.out))}\n`);
}
