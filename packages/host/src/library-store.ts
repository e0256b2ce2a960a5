/**
 * Libraries a suite imports, installed from npm at the versions an arm pins
 * (`react@18.3.1`), into a checked cache as runtimes are
 * (runtime-store.ts): one entry per package and version
 * (<dir>/<package>@<version>/node_modules/<package>), installed by npm with
 * no install scripts into a temporary folder renamed into place, proven before
 * every use by its install record (the registry's integrity of every package
 * npm installed, and the sha256 of the package's whole folder), and refused
 * when another user controls a folder on the way (trusted-path.ts). An entry
 * whose folder no longer matches its record (altered, or put there by hand)
 * is reinstalled, or refused with the command that reinstalls it when
 * installing is not allowed. A set of packages installed together (a
 * suite's own toolchain: a framework, its adapter, their peers) is one entry
 * the same way (getSet), named by the set and proven by every named
 * package's folder.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { readInstallRecord, recordMismatch, writeInstallRecord, type Proof } from './install-record.ts';
import { npmInstaller, npmSetInstaller, type RuntimeInstaller, type SetInstaller } from './npm-client.ts';
import { untrustedPath, type Who } from './trusted-path.ts';
import { installTemp, renameIntoPlace, sayingWhatItWaitsFor } from './install-temp.ts';

/** A pinned library as installed: its folder, the folder whose node_modules holds it, and what proves it. */
export interface InstalledLibrary {
  name: string;
  version: string;
  /** The package's own folder (its package.json). */
  dir: string;
  /** A folder whose node_modules/<name> is the package: where a bundler resolves the name from. */
  root: string;
  /** The registry's integrity of the tarball ("sha512-…"), as npm checked it while installing. */
  integrity?: string;
  /** sha256 over the package's files (library-store.ts folderProof). */
  sha256: string;
}

/** A set installed together: the folder whose node_modules holds every package, and what proves it. */
export interface InstalledSet {
  /** The folder whose node_modules/<name> is each package of the set. */
  root: string;
  /** Each named package's version, as installed. */
  versions: Record<string, string>;
  /** The registry's integrity of each named package's tarball, as npm checked it. */
  integrity: Record<string, string>;
  /** sha256 over the named packages' folders (setProof). */
  sha256: string;
}

/** A pinned library that cannot be had, in one line with the way out. */
export class LibraryUnavailableError extends Error {}

/** Folders a package's proof leaves out: another checkout's state, its own installs. */
const NOT_THE_PACKAGE = new Set(['.git', 'node_modules']);

/** The files under `dir`, relative and sorted, for a proof that does not depend on the order a folder lists them in. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true })
    .filter((e) => !NOT_THE_PACKAGE.has(e.name))
    .flatMap((e) => (e.isDirectory() ? filesUnder(dir, join(prefix, e.name)) : e.isFile() ? [join(prefix, e.name)] : []))
    .sort();
}

/** A folder proven whole: sha256 over each file's path and contents, and their total size (a `node_modules` or `.git` in it left out). */
export function folderDigest(dir: string): { sha256: string; bytes: number } {
  const hash = createHash('sha256');
  let bytes = 0;
  for (const file of filesUnder(dir)) {
    const data = readFileSync(join(dir, file));
    bytes += data.byteLength;
    hash.update(`${file}\0${data.byteLength}\0`).update(data);
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** folderDigest as an install's proof. */
export const folderProof: Proof = async (dir) => folderDigest(dir);

/** A set's proof: its named packages' folders under node_modules, each proven whole (folderProof), in name order. */
function setProof(names: readonly string[]): Proof {
  return async (modules) => {
    const hash = createHash('sha256');
    let bytes = 0;
    for (const name of [...names].sort()) {
      const one = await folderProof(join(modules, name));
      bytes += one.bytes;
      hash.update(`${name}\0${one.sha256}\0`);
    }
    return { sha256: hash.digest('hex'), bytes };
  };
}

/** What one entry is: its folder, the thing proven in it and how, how it is installed, and the words for both. */
interface EntryKind {
  entry: string;
  /** "react@18.3.1", or a set's label and hash. */
  what: string;
  /** The proven path, relative to the entry. */
  proven: string;
  prove: Proof;
  install(temp: string): Promise<void>;
  command: string;
  /** Checks the fresh install in `temp` (throws why it is not what was asked) and writes its record. */
  record(temp: string): Promise<void>;
}

export interface LibraryStoreOptions {
  /** The cache's folder. */
  dir: string;
  install: boolean;
  /** Why installing is not allowed, for the message. */
  forbiddenBy?: string;
  installer?: RuntimeInstaller;
  setInstaller?: SetInstaller;
  log?: (line: string) => void;
  who?: Who;
}

const entryName = (name: string, version: string): string => `${name.replace('/', '+')}@${version}`;

export class LibraryStore {
  private readonly installer: RuntimeInstaller;
  private readonly setInstaller: SetInstaller;
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(private readonly options: LibraryStoreOptions) {
    this.installer = options.installer ?? npmInstaller;
    this.setInstaller = options.setInstaller ?? npmSetInstaller;
  }

  /**
   * Whether the cache holds `name@version` as npm installed it: its own
   * entry, or a set installed with it at the top of the set's node_modules
   * and the registry's integrity of it in the set's record. What the
   * registry would say of that version (it is published) is known then.
   * Proven only when an entry is taken (`get`, `getSet`).
   */
  holds(name: string, version: string): boolean {
    if (existsSync(join(this.options.dir, entryName(name, version)))) return true;
    let entries: string[];
    try {
      entries = readdirSync(this.options.dir);
    } catch {
      return false;
    }
    return entries.some((e) => !e.startsWith('.') && setHolds(join(this.options.dir, e), name, version));
  }

  /** `name@version` from the cache, proven, or installed now when allowed. */
  get(name: string, version: string): Promise<InstalledLibrary> {
    const entry = join(this.options.dir, entryName(name, version));
    const proven = join('node_modules', name);
    return this.once(entry, async () => {
      await this.provenOrInstalled({
        entry,
        what: `${name}@${version}`,
        proven,
        prove: folderProof,
        install: (temp) => this.installer.install(name, version, temp),
        command: this.installer.command(name, version, entry),
        record: async (temp) => {
          assertInstalledVersion(temp, name, version);
          await writeInstallRecord(temp, name, version, join(temp, proven), folderProof);
        },
      });
      return this.installed(entry, name, version);
    });
  }

  /**
   * `packages` (name → exact version) installed together into one entry,
   * `<label>@<hash of the set>`, with their dependencies and peers as npm
   * resolves them: from the cache, proven by every named package's folder,
   * or installed now when allowed.
   */
  getSet(label: string, packages: Readonly<Record<string, string>>): Promise<InstalledSet> {
    const specs = Object.entries(packages).map(([name, version]) => `${name}@${version}`).sort();
    const setId = createHash('sha256').update(specs.join('\n')).digest('hex').slice(0, 12);
    const entry = join(this.options.dir, entryName(label, setId));
    const prove = setProof(Object.keys(packages));
    return this.once(entry, async () => {
      await this.provenOrInstalled({
        entry,
        what: `${label} (${specs.join(', ')})`,
        proven: 'node_modules',
        prove,
        install: (temp) => this.setInstaller.install(specs, temp),
        command: this.setInstaller.command(specs, entry),
        record: async (temp) => {
          for (const [name, version] of Object.entries(packages)) assertInstalledVersion(temp, name, version);
          await writeInstallRecord(temp, label, setId, join(temp, 'node_modules'), prove);
        },
      });
      const record = readInstallRecord(entry)!;
      const integrity: Record<string, string> = {};
      for (const [name, version] of Object.entries(packages)) {
        const known = record.integrity[`${name}@${version}`];
        if (known) integrity[name] = known;
      }
      return { root: entry, versions: { ...packages }, integrity, sha256: record.sha256 };
    });
  }

  /** One install or proof of an entry at a time, shared by every caller. */
  private once<T>(entry: string, work: () => Promise<T>): Promise<T> {
    let pending = this.inFlight.get(entry) as Promise<T> | undefined;
    if (!pending) {
      pending = work().finally(() => this.inFlight.delete(entry));
      this.inFlight.set(entry, pending);
    }
    return pending;
  }

  private async provenOrInstalled(kind: EntryKind): Promise<void> {
    const { entry, what } = kind;
    if (existsSync(entry)) {
      this.assertTrusted(what, entry);
      const problem = await this.disproof(kind);
      if (!problem) return;
      if (!this.options.install) {
        throw new LibraryUnavailableError(`the cached ${what} ${problem}; reinstall it with: rm -rf ${entry} && ${kind.command}`);
      }
      this.options.log?.(`rtbench: the cached ${what} ${problem}: reinstalling it`);
      rmSync(entry, { recursive: true, force: true });
    }
    if (!this.options.install) {
      throw new LibraryUnavailableError(`${what} is not installed${this.options.forbiddenBy ? `, and ${this.options.forbiddenBy}` : ''}; install it with: ${kind.command}`);
    }
    await this.install(kind);
  }

  /** Why the entry is not what was installed, or undefined when its record proves it. */
  private async disproof(kind: EntryKind): Promise<string | undefined> {
    const record = readInstallRecord(kind.entry);
    if (!record) return 'has no install record rtbench wrote';
    const mismatch = await recordMismatch(record, kind.entry, join(kind.entry, kind.proven), kind.prove);
    return mismatch === undefined ? undefined : `folder ${mismatch}`;
  }

  private assertTrusted(what: string, path: string): void {
    const found = untrustedPath(dirname(this.options.dir), path, this.options.who);
    if (found) throw new LibraryUnavailableError(`rtbench will not bundle ${what} from its cache: ${found.path} ${found.why}, so another user could decide what runs; remove it (as its owner or root)`);
  }

  private async install(kind: EntryKind): Promise<void> {
    mkdirSync(this.options.dir, { recursive: true });
    this.assertTrusted(kind.what, this.options.dir);
    const fresh = installTemp(this.options.dir);
    const temp = fresh.path;
    try {
      await sayingWhatItWaitsFor(this.options.log, kind.what, this.options.dir, () => kind.install(temp));
      await kind.record(temp);
      renameIntoPlace(temp, kind.entry);
    } catch (error) {
      if (error instanceof LibraryUnavailableError) throw error;
      throw new LibraryUnavailableError(`could not install ${kind.what}: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
    } finally {
      fresh.release();
    }
  }

  private installed(entry: string, name: string, version: string): InstalledLibrary {
    const record = readInstallRecord(entry)!;
    const dir = join(entry, 'node_modules', name);
    const integrity = record.integrity[`${name}@${version}`];
    if (!statSync(dir).isDirectory() || relative(entry, dir) !== record.binary) throw new LibraryUnavailableError(`${entry} does not hold ${name}`);
    return { name, version, dir, root: entry, sha256: record.sha256, ...(integrity ? { integrity } : {}) };
  }
}

/** The version of `name` at the top of the install under `root` (its package.json's field; throws when unreadable). */
function topVersion(root: string, name: string): unknown {
  return (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version?: unknown }).version;
}

/** Whether a cache entry's record names the registry's integrity of `name@version` and its node_modules holds that version at the top. */
function setHolds(entry: string, name: string, version: string): boolean {
  if (!readInstallRecord(entry)?.integrity[`${name}@${version}`]) return false;
  try {
    return topVersion(entry, name) === version;
  } catch {
    return false;
  }
}

/** npm resolved `name` in the install under `temp` to `version`, or the install is refused. */
function assertInstalledVersion(temp: string, name: string, version: string): void {
  const installed = topVersion(temp, name);
  if (installed !== version) throw new Error(`npm installed ${name}@${String(installed)}, not ${version}`);
}
