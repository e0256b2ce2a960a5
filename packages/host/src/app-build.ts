/**
 * What building a framework app into rtbench's cache takes, whichever app
 * and framework: the cache key (the app's files and the toolchain's
 * versions), the proof a build folder is still the one rtbench made, a
 * build step run with every framework's telemetry off and its failure said
 * in one line quoting the last error it printed, a bundled Worker's
 * bare imports of Node.js built-ins written `node:` for rtbench's bundler,
 * a Node.js side's server bundled into one module, and the wrangler config
 * the Cloudflare Vite plugin writes rewritten as the one served.
 */
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, cpSync, existsSync, fstatSync, linkSync, openSync, readSync, lstatSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, sep } from 'node:path';
import { shownPath } from './file-name.ts';
import { buildSync } from 'esbuild';
import { BYTE_SIZE_HINT, parseByteSize } from '@rtbench/core/byte-size';
import { byteSizeText, isolation, pidAlive, runContainedStep, STEP_OUTPUT_KEPT } from '@rtbench/process';
import { folderDigest } from './library-store.ts';
import { ownerOnlyDir } from './program-cache.ts';

/** A build that failed: the one line the user reads. */
export class AppBuildFailed extends Error {
  override readonly name: string = 'AppBuildFailed';
}

/**
 * Some of an app's editions failed to build, each with its one line; the
 * others were built (and are in the cache). Its message is the failed
 * editions' lines, so one edition's failure reads as it always did.
 */
export class EditionsFailed extends AppBuildFailed {
  override readonly name = 'EditionsFailed';
  constructor(readonly failed: Readonly<Partial<Record<Edition, string>>>) {
    super(Object.values(failed).join('; '));
  }
}

/** Whether an error is an app's build failing (AppBuildFailed, by name: the suite's modules may be another copy of this one). */
export const isAppBuildFailure = (error: unknown): error is AppBuildFailed => error instanceof Error && (error.name === 'AppBuildFailed' || error.name === 'EditionsFailed');

/** The editions an error says failed to build, each with its line; undefined when it is no EditionsFailed. */
export function failedEditions(error: unknown): Readonly<Partial<Record<Edition, string>>> | undefined {
  return error instanceof Error && error.name === 'EditionsFailed' ? (error as EditionsFailed).failed : undefined;
}

/** Folders of an app that are not its source: its installed packages, its repository, and what Next.js, OpenNext and wrangler write when the app is built in place. */
const NOT_SOURCE = new Set(['node_modules', '.git', '.next', '.open-next', '.wrangler']);

/**
 * The app's source files by path, links followed: a link to a file is the
 * file it points to (the build reads that), and a link to a folder holds
 * that folder's files (each folder once, so a link back up ends there).
 * Anything else that is not a file (a FIFO, a socket, a device) is not
 * read.
 */
function sourceFiles(dir: string, under = '', seen: Set<string> = new Set([realpathSync(dir)])): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = relative(dir, join(e.parentPath, e.name));
    if (path.split(/[\\/]/).some((part) => NOT_SOURCE.has(part))) continue;
    if (e.isFile()) out.push(join(under, path));
    if (!e.isSymbolicLink()) continue;
    const target = linkTarget(join(dir, path));
    if (target?.file) out.push(join(under, path));
    else if (target && !seen.has(target.real)) {
      seen.add(target.real);
      out.push(...sourceFiles(target.real, join(under, path), seen));
    }
  }
  return out.sort();
}

/** Where a link leads: a file, or a folder by its real path; undefined when it leads nowhere or elsewhere (a FIFO, a device). */
function linkTarget(link: string): { file: boolean; real: string } | undefined {
  try {
    const s = statSync(link);
    return s.isFile() || s.isDirectory() ? { file: s.isFile(), real: realpathSync(link) } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The app's packages installed as links to a folder of their own (`npm install ../lib`, `npm link`, a
 * workspace's package, pnpm's `link:`), by name and real path: the build reads their files as it
 * reads the app's, and no package manager's record of node_modules changes when they do. A link
 * into a node_modules folder (pnpm's store, inside the app's or shared) is an installed version,
 * which that record names.
 */
function linkedPackages(appDir: string): { name: string; real: string }[] {
  const modules = join(appDir, 'node_modules');
  const names = (dir: string): string[] => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  };
  const packages = names(modules).flatMap((name) => (name.startsWith('@') ? names(join(modules, name)).map((inner) => `${name}/${inner}`) : [name]));
  return packages.flatMap((name) => {
    const path = join(modules, name);
    if (!lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) return [];
    const target = linkTarget(path);
    return target && !target.file && !target.real.split(sep).includes('node_modules') ? [{ name, real: target.real }] : [];
  });
}

/**
 * What each package manager writes into node_modules of what it installed (every package's version):
 * npm's hidden lockfile, pnpm's and yarn's state. The build key reads these, never the packages' files.
 */
const INSTALLED_RECORDS = ['.package-lock.json', '.modules.yaml', '.pnpm/lock.yaml', '.yarn-state.yml', '.yarn-integrity'];

/** sha256 (hex) over the path and bytes of each file under `dir` whose path in it matches `name`, in path order: rtbench's own modules, as a build's key names them. */
export function modulesDigest(dir: string, name: RegExp): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => name.test(f)).sort()) hash.update(`${file}\u0000`).update(readFileSync(join(dir, file)));
  return hash.digest('hex');
}

let buildModulesDigest: string | undefined;
/** rtbench's own module that makes every build (this one; each framework's build is in its plan's versions), hashed when a key is first asked (not on every start): a change is a new key. */
function buildModulesHash(): string {
  buildModulesDigest ??= modulesDigest(import.meta.dirname, /^app-build\.ts$/);
  return buildModulesDigest;
}

/**
 * The cache key, by content alone (nothing of the app's path or the time): every source file of
 * the app (path and bytes), those of its packages linked from a folder of their own, the package
 * manager's record of the installed dependencies, the
 * toolchain's versions, and rtbench's own build modules. NODE_ENV is none of it: every build step
 * runs with NODE_ENV production (QUIET_BUILD), whatever the run's.
 */
export function appBuildKey(appDir: string, versions: Readonly<Record<string, string>>): string {
  const hash = createHash('sha256');
  for (const file of sourceFiles(appDir)) hash.update(`${file}\u0000`).update(readFileSync(join(appDir, file))).update('\u0000');
  for (const { name, real } of linkedPackages(appDir)) {
    for (const file of sourceFiles(real)) hash.update(`linked ${name}/${file}\u0000`).update(readFileSync(join(real, file))).update('\u0000');
  }
  for (const record of INSTALLED_RECORDS) {
    const path = join(appDir, 'node_modules', record);
    if (existsSync(path)) hash.update(`installed ${record}\u0000`).update(readFileSync(path)).update('\u0000');
  }
  for (const [name, version] of Object.entries(versions)) hash.update(`${name}@${version}\n`);
  hash.update(`rtbench ${buildModulesHash()}\n`);
  return hash.digest('hex').slice(0, 16);
}

/**
 * A line that only counts errors, heads the lines that say it (ends in a
 * colon), is a package manager's wrapper of the failure, is a link alone
 * (to the error's documentation), or is a property of an error object
 * Node.js printed after its stack (`errors: [Getter/Setter]`): never the one
 * to quote.
 */
const NOT_THE_ERROR = /failed with \d+ errors?:?$|:$|^(npm (ERR!|error)|ELIFECYCLE)|^error Command failed|^[\w$]+: \[Getter(\/Setter)?\]$|^https?:\/\/\S+$/i;

/** What a failed step printed, for its one line: its last line naming an error (not a count or a heading of them), else its last line. */
export function lastError(output: string): string {
  const lines = output.split('\n').map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trim()).filter((l) => l && !/^at /.test(l));
  const error = lines.findLast((l) => /error/i.test(l) && !NOT_THE_ERROR.test(l));
  return (error ?? lines.at(-1) ?? 'no output').slice(0, 300);
}

/** The environment every build step runs in: each framework's and wrangler's telemetry off, no question asked, no progress drawn. */
const QUIET_BUILD = { NEXT_TELEMETRY_DISABLED: '1', ASTRO_TELEMETRY_DISABLED: '1', NUXT_TELEMETRY_DISABLED: '1', WRANGLER_SEND_METRICS: 'false', DO_NOT_TRACK: '1', CI: '1', NODE_ENV: 'production' };

/**
 * The bound on each build step by default: a real app's build takes well under it here
 * (docs/containment.md); RTBENCH_BUILD_TIMEOUT (seconds) sets another.
 */
const BUILD_STEP_TIMEOUT_S = 15 * 60;

/** Each build step's time bound in ms: RTBENCH_BUILD_TIMEOUT's seconds, else the default; a value that is not a positive number is refused in one line. */
function buildStepTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const given = env.RTBENCH_BUILD_TIMEOUT;
  if (given === undefined || given === '') return BUILD_STEP_TIMEOUT_S * 1000;
  const seconds = Number(given);
  if (!(seconds > 0) || !Number.isFinite(seconds)) throw new AppBuildFailed(`RTBENCH_BUILD_TIMEOUT=${given} is not a number of seconds above 0`);
  return seconds * 1000;
}

/**
 * What a build step may write by default: what it adds to its build folder, and the size of the
 * tmpfs its /tmp and node_modules writes land in; a real app's build writes well under it
 * (docs/containment.md). RTBENCH_BUILD_WRITES (a size) sets another.
 */
const BUILD_STEP_WRITES = 4 * 2 ** 30;

/** The bound on what each build step writes, in bytes: RTBENCH_BUILD_WRITES's size, else the default; one that is not a size is refused in one line. */
function buildStepWriteBytes(env: NodeJS.ProcessEnv = process.env): number {
  const given = env.RTBENCH_BUILD_WRITES;
  if (given === undefined || given === '') return BUILD_STEP_WRITES;
  const bytes = parseByteSize(given);
  if (!bytes) throw new AppBuildFailed(`RTBENCH_BUILD_WRITES=${given} is not a size above 0: ${BYTE_SIZE_HINT}`);
  return bytes;
}

/** How much of a step's output its one line is looked for in: the end of it, whatever it printed. */
const TAIL_BYTES = 256 * 1024;

/** The output a step added to `log` after `from`: its last TAIL_BYTES. */
function stepOutput(log: string, from: number): string {
  const fd = openSync(log, 'r');
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(from, size - TAIL_BYTES);
    const buffer = Buffer.alloc(size - start);
    readSync(fd, buffer, 0, buffer.length, start);
    return buffer.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** "90 s", "15 min": a bound as its line says it. */
const boundText = (ms: number): string => (ms >= 120_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${+(ms / 1000).toFixed(1)} s`);

/**
 * One step of a build: `node bin ...args` in `cwd` (with `env` beside the quiet build's), contained
 * (`runContainedStep`: no network but its own loopback, writing only `cwd` (its build folder; what
 * it writes to /tmp or the app's node_modules dropped), every process it starts ended with it,
 * ended at its time bound); its output goes to `log` as it comes (no buffer to fill, however much it
 * prints), and a failure throws AppBuildFailed with one line.
 */
export function runBuildStep(
  step: string,
  node: string,
  bin: string,
  args: readonly string[],
  cwd: string,
  log: string,
  env: Readonly<Record<string, string>> = {},
  timeoutMs = buildStepTimeoutMs(),
  writeBytes = buildStepWriteBytes(),
): void {
  const held = isolation();
  // Said where it does not hold: the step then has the host's network.
  writeFileSync(log, `$ ${step}\n${held.writesHeld ? '' : `(rtbench: ${held.detail})\n`}`, { flag: 'a' });
  const from = statSync(log).size;
  const fd = openSync(log, 'a');
  let r;
  try {
    r = runContainedStep(node, [bin, ...args], { cwd, env: { ...process.env, ...QUIET_BUILD, ...env }, outputFd: fd, timeoutMs, network: false, writable: [cwd], scratch: scratchOf(cwd), writeBytes });
  } finally {
    closeSync(fd);
  }
  if (r.status === 0) return;
  const output = stepOutput(log, from);
  const where = `its output: ${log}${r.droppedBytes ? `, ${byteSizeText(r.droppedBytes)} of its middle left out (its first ${byteSizeText(STEP_OUTPUT_KEPT.headBytes)} and last ${byteSizeText(STEP_OUTPUT_KEPT.tailBytes)} kept)` : ''}`;
  if (r.timedOut) throw new AppBuildFailed(`${step} did not finish within ${boundText(timeoutMs)} and was ended with every process it started (the bound on a build step; RTBENCH_BUILD_TIMEOUT=<seconds> sets another); its last line: ${lastError(output)} (${where})`);
  if (r.overWrites !== undefined) {
    throw new AppBuildFailed(`${step} wrote ${byteSizeText(r.overWrites)} into its build folder, over the bound of ${byteSizeText(writeBytes)} on what a build step writes, and was stopped (RTBENCH_BUILD_WRITES=<size> sets another); its last line: ${lastError(output)} (${where})`);
  }
  const how = r.error ? r.error.message : r.signal ? `killed by ${r.signal}` : `exit ${r.status}`;
  throw new AppBuildFailed(`${step} failed (${how}): ${lastError(output)} (${where})`);
}

/**
 * Where a build may seem to write, its writes dropped: the app's installed
 * packages its build folder links to (vite bundles its config into
 * node_modules/.vite-temp, which would otherwise land in the user's app).
 */
function scratchOf(buildDir: string): string[] {
  try {
    const linked = lstatSync(join(buildDir, 'node_modules')).isSymbolicLink();
    return linked ? [realpathSync(join(buildDir, 'node_modules'))] : [];
  } catch {
    return [];
  }
}

const BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith('_')));

/**
 * A module's static imports of Node.js built-ins by bare name (`from "fs"`,
 * which the Workers runtime's nodejs_compat resolves) written as `node:fs`:
 * rtbench's bundler leaves only imports with a scheme to the runtime, and
 * would try to resolve a bare name as a package. Nothing else in the text
 * changes.
 */
export function nodePrefixed(source: string): string {
  return source.replace(/\b(from|import)\s*(["'])([a-z_][a-z0-9_/]*)\2/g, (whole, keyword: string, quote: string, name: string) =>
    BUILTINS.has(name) ? `${keyword} ${quote}node:${name}${quote}` : whole,
  );
}

/** What proves a whole build, written beside its folder once it is built: the folder's digest (folderDigest). */
const buildProofOf = (dir: string): string => `${dir}.proof.json`;

/**
 * Why the build folder `dir` must not be reused, or undefined when it may:
 * as every other folder of rtbench's cache, a real folder of this user's
 * that no one else can write to, whose files are still those it was built
 * with (its proof beside it). A folder another user owns is refused
 * (`owner: true`): it is not removed, nor built over; any other is built
 * again.
 */
export function cachedBuildProblem(dir: string): { problem: string; owner?: true } | undefined {
  let stat;
  try {
    stat = lstatSync(dir);
  } catch {
    return { problem: 'is missing' };
  }
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) return { problem: `belongs to another user (uid ${stat.uid})`, owner: true };
  if (!stat.isDirectory()) return { problem: 'is not a folder (a link or a file)' };
  if ((stat.mode & 0o022) !== 0) return { problem: 'is writable by others' };
  let proof: unknown;
  try {
    proof = JSON.parse(readFileSync(buildProofOf(dir), 'utf8'));
  } catch {
    return { problem: 'has no proof of the build rtbench made' };
  }
  const { sha256, bytes } = folderDigest(dir);
  const want = proof as { sha256?: unknown; bytes?: unknown };
  if (want.sha256 !== sha256 || want.bytes !== bytes) return { problem: `is not the build rtbench made (${bytes} bytes, sha256 ${sha256.slice(0, 12)}…; ${String(want.bytes)} bytes, ${String(want.sha256).slice(0, 12)}… when built)` };
  return undefined;
}

/** Writes the proof of a whole build beside its folder. */
export function recordBuild(dir: string): void {
  writeFileSync(buildProofOf(dir), `${JSON.stringify(folderDigest(dir))}\n`, { mode: 0o600 });
}

/**
 * A build made afresh in `dir` by `build`, its proof written once it is
 * whole; a build that throws leaves neither folder nor proof behind, and its
 * error goes on.
 */
export function buildAfresh(dir: string, build: () => void): void {
  const removed = (): void => {
    // Retried: a folder of tens of thousands of files (a build's node_modules tree) may still be emptying.
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    rmSync(buildProofOf(dir), { force: true });
  };
  removed();
  try {
    build();
    recordBuild(dir);
  } catch (error) {
    removed();
    throw error;
  }
}

/** The two platforms' editions of an app: the Node.js side's build and the Cloudflare side's. */
export type Edition = 'node' | 'workers';

/** The app's files copied into a build's folder (less `notCopied` at its top), owner-only whatever the umask. */
export function copyAppFiles(appDir: string, dir: string, notCopied: ReadonlySet<string>): void {
  cpSync(appDir, dir, { recursive: true, filter: (source) => !notCopied.has(relative(appDir, source).split(/[\\/]/)[0]!) });
  chmodSync(dir, 0o700);
}

/** The app's files copied into an edition's folder (copyAppFiles), its node_modules linked to the app's. */
export function copyAppInto(appDir: string, dir: string, notCopied: ReadonlySet<string>): void {
  copyAppFiles(appDir, dir, notCopied);
  symlinkSync(join(appDir, 'node_modules'), join(dir, 'node_modules'), 'dir');
}

/** What every framework's build is given: the app, the Node.js that runs its tools, the cache and the key's versions. */
export interface AppBuildInput {
  /** The app's folder (its node_modules installed). */
  readonly appDir: string;
  /** The Node.js that runs the build's tools. */
  readonly node: string;
  /** Where the builds are kept (a folder of rtbench's cache). */
  readonly root: string;
  /** Every version the build depends on beside the app's files. */
  readonly versions: Readonly<Record<string, string>>;
  readonly say?: (line: string) => void;
}

/** An app's editions as built: each one's folder, named by the build's key. */
export interface EditionsBuild {
  /** The build's cache key (the app's files and versions): its folders are named by it. */
  readonly key: string;
  readonly dirs: Readonly<Partial<Record<Edition, string>>>;
  /** Whether this call built it (false: the cache had it). */
  readonly built: boolean;
}

interface EditionsInput {
  readonly appDir: string;
  readonly root: string;
  /** Every version the build depends on beside the app's files, and each edition's adapter: the key. */
  readonly versions: Readonly<Record<string, string>>;
  readonly editions: readonly Edition[];
  /** What the build is, for the line said when it starts. */
  readonly what: string;
  readonly say?: (line: string) => void;
  /** One edition built into its (new, empty) folder, its output added to the log. */
  readonly buildOne: (edition: Edition, dir: string, log: string) => void;
}

/** The longest one run waits for another's build of the same app: longer than any framework's build of a real app takes here. */
const BUILD_LOCK_WAIT_MS = 20 * 60_000;

/** Sleeps `ms` (a build waiting on another process's is synchronous, as the build is). */
const sleep = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * `work` run holding the lock file `lock` (made whole with this process's
 * id in it, by a link, which fails when it is there): several rtbench
 * processes sharing one build folder build each key once, the others
 * waiting for it. A lock whose process is gone (killed mid-build) is
 * taken over. `waiting` is said once when another holds it. The wait is
 * synchronous, so no signal is heard while it lasts: it ends after
 * `maxWaitMs` with a line naming the holder, rather than never.
 */
export function withBuildLock<T>(lock: string, work: () => T, waiting: (pid: number) => void = () => {}, maxWaitMs = BUILD_LOCK_WAIT_MS): T {
  const mine = `${lock}.${process.pid}`;
  writeFileSync(mine, `${process.pid}\n`, { mode: 0o600 });
  const started = performance.now();
  let said = false;
  try {
    for (;;) {
      try {
        linkSync(mine, lock);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      let holder: number;
      try {
        holder = Number.parseInt(readFileSync(lock, 'utf8'), 10);
      } catch {
        continue; // released meanwhile
      }
      // This process holds no lock while it waits for one: one naming it is left from an earlier use of its id.
      if (holder === process.pid || !pidAlive(holder)) {
        // Moved aside, then read: a lock another process took over meanwhile is put back, not removed.
        const aside = `${lock}.gone-${process.pid}`;
        try {
          renameSync(lock, aside);
          if (Number.parseInt(readFileSync(aside, 'utf8'), 10) !== holder) linkSync(aside, lock);
        } catch {
          // Taken over by another meanwhile.
        }
        rmSync(aside, { force: true });
        continue;
      }
      if (performance.now() - started >= maxWaitMs) {
        throw new Error(`another rtbench (pid ${holder}) has been building this app for ${Math.round(maxWaitMs / 60_000)} min or more (${lock}); end it, or remove that file if it builds nothing, and run again`);
      }
      if (!said) waiting(holder);
      said = true;
      sleep(200);
    }
  } finally {
    unlinkSync(mine);
  }
  try {
    return work();
  } finally {
    unlinkSync(lock);
  }
}

/**
 * An app's editions built into rtbench's cache, one folder each named by
 * the key, or reused when every folder holds a whole build (proven:
 * cachedBuildProblem); a folder another user owns is refused, and a failed
 * build leaves no folder and is one line. Only an edition without a whole
 * build is built (one another run serves is never removed under it), under
 * the key's lock, so runs sharing the folder (RTBENCH_APP_BUILD_CACHE) build
 * each once.
 */
export function buildEditions(input: EditionsInput): EditionsBuild {
  const key = appBuildKey(input.appDir, input.versions);
  ownerOnlyDir(input.root);
  const dirs = Object.fromEntries(input.editions.map((edition) => [edition, join(input.root, `${key}-${edition}`)])) as Partial<Record<Edition, string>>;
  const missing = (): Edition[] => {
    const problems = input.editions.map((edition) => [edition, cachedBuildProblem(dirs[edition]!)] as const);
    const owned = problems.find(([, why]) => why?.owner);
    if (owned) throw new AppBuildFailed(`the cached build ${dirs[owned[0]]} ${owned[1]!.problem}: rtbench will not run a build someone else could change; remove it (as its owner or root)`);
    return problems.filter(([, why]) => why).map(([edition]) => edition);
  };
  if (!missing().length) return { key, dirs, built: false };
  const say = input.say ?? (() => {});
  return withBuildLock(join(input.root, `${key}.lock`), () => {
    // Built by another run while this one waited.
    const editions = missing();
    if (!editions.length) return { key, dirs, built: false };
    const log = join(input.root, `${key}.log`);
    say(`building the app with ${input.what}, into ${shownPath(input.root)} (once; cached after)`);
    const started = performance.now();
    writeFileSync(log, '');
    // An edition that fails leaves the others to build: the arms of their runtimes still run.
    const failed: Partial<Record<Edition, string>> = {};
    for (const edition of editions) {
      const dir = dirs[edition]!;
      try {
        buildAfresh(dir, () => input.buildOne(edition, dir, log));
      } catch (error) {
        if (!(error instanceof AppBuildFailed)) throw error;
        failed[edition] = error.message;
      }
    }
    if (Object.keys(failed).length) throw new EditionsFailed(failed);
    say(`built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    return { key, dirs, built: true };
  }, (pid) => say(`waiting for another rtbench (pid ${pid}) building the app into ${input.root}`));
}

/** Node.js built-ins imported by bare name (`stream`, `fs/promises` by its package) written `node:`, as deno loads them: left to the runtime. */
const NODE_PREFIXED = Object.fromEntries(builtinModules.filter((m) => !m.startsWith('_') && !m.includes('/')).map((m) => [m, `node:${m}`]));

/**
 * A Node.js side's server (`entry`: the module's text, resolved from `dir`)
 * bundled into one module at `outfile` with esbuild, as a deployment bundles
 * a server: node, bun and deno run the same code, and deno, which rtbench
 * runs with no package resolution, needs no node_modules. NODE_ENV
 * production (as the framework's own server sets it) and each of `define`
 * written in; CommonJS packages' require() of built-ins served by
 * createRequire. A failure is one line.
 */
export function bundleNodeServer(dir: string, entry: string, outfile: string, define: Readonly<Record<string, string>>, log: string): void {
  try {
    buildSync({
      stdin: { contents: entry, resolveDir: dir, sourcefile: 'rtbench-server-entry.mjs', loader: 'js' },
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'esnext',
      outfile,
      define: { 'process.env.NODE_ENV': '"production"', ...define },
      banner: { js: "import { createRequire as rtbenchCreateRequire } from 'node:module'; const require = rtbenchCreateRequire(import.meta.url);" },
      alias: NODE_PREFIXED,
      logLevel: 'silent',
      legalComments: 'none',
    });
  } catch (error) {
    throw new AppBuildFailed(`bundling the Node.js side's server failed: ${lastError((error as Error).message)} (its output: ${log})`);
  }
}

/** Settings of the plugin's generated wrangler.json that the served Worker takes. */
const SERVED_SETTINGS = new Set(['name', 'main', 'compatibility_date', 'compatibility_flags', 'vars', 'define', 'assets']);
/** What the plugin writes of its own (paths, environments, preview settings) and of wrangler's bundling and deployment, which the served Worker does not take. */
const NOT_SERVED = new Set(['configPath', 'userConfigPath', 'topLevelName', 'definedEnvironments', 'legacy_env', 'python_modules', 'jsx_factory', 'jsx_fragment', 'rules', 'no_bundle', 'dev', 'upload_source_maps', 'triggers', 'migrations', 'send_metrics', 'previews']);
/** A binding list the plugin writes when the app declares none: empty arrays and tables of them. */
const isEmpty = (value: unknown): boolean => (Array.isArray(value) ? value.length === 0 : typeof value === 'object' && value !== null && Object.values(value).every(isEmpty));

/**
 * The Cloudflare Vite plugin's wrangler.json in `server` (every setting
 * wrangler knows, its bindings as empty lists, and the plugin's own paths)
 * rewritten as the wrangler.jsonc the Worker is served with, beside it: the
 * settings that shape a request, and any other that is not empty (a
 * binding, which rtbench then refuses, naming it), less `leftOut` (what the
 * framework's adapter adds that rtbench does not serve; its caller says so).
 * Returns the settings of `leftOut` the config had.
 */
export function servedPluginConfig(server: string, leftOut: ReadonlySet<string> = new Set()): string[] {
  const config = JSON.parse(readFileSync(join(server, 'wrangler.json'), 'utf8')) as Record<string, unknown>;
  const kept = (key: string, value: unknown): boolean => !leftOut.has(key) && (SERVED_SETTINGS.has(key) || (!NOT_SERVED.has(key) && !isEmpty(value)));
  const served = Object.fromEntries(Object.entries(config).filter(([key, value]) => kept(key, value)));
  writeFileSync(join(server, 'wrangler.jsonc'), `// What rtbench serves of the Cloudflare Vite plugin's wrangler.json (beside it).\n${JSON.stringify(served, null, 2)}\n`);
  return Object.entries(config).filter(([key, value]) => leftOut.has(key) && !isEmpty(value)).map(([key]) => key);
}
