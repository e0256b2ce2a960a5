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
 * installing is not allowed.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { readInstallRecord, recordMismatch, writeInstallRecord, type Proof } from './install-record.ts';
import { npmInstaller, type RuntimeInstaller } from './npm-client.ts';
import { untrustedPath, type Who } from './trusted-path.ts';

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

/** A folder proven whole: sha256 over each file's path and contents, and their total size. */
export const folderProof: Proof = async (dir) => {
  const hash = createHash('sha256');
  let bytes = 0;
  for (const file of filesUnder(dir)) {
    const data = readFileSync(join(dir, file));
    bytes += data.byteLength;
    hash.update(`${file}\0${data.byteLength}\0`).update(data);
  }
  return { sha256: hash.digest('hex'), bytes };
};

export interface LibraryStoreOptions {
  /** The cache's folder. */
  dir: string;
  install: boolean;
  /** Why installing is not allowed, for the message. */
  forbiddenBy?: string;
  installer?: RuntimeInstaller;
  log?: (line: string) => void;
  who?: Who;
}

const entryName = (name: string, version: string): string => `${name.replace('/', '+')}@${version}`;

export class LibraryStore {
  private readonly installer: RuntimeInstaller;
  private readonly inFlight = new Map<string, Promise<InstalledLibrary>>();

  constructor(private readonly options: LibraryStoreOptions) {
    this.installer = options.installer ?? npmInstaller;
  }

  /** Whether the cache holds an entry for `name@version` (proven only when it is taken: `get`). */
  holds(name: string, version: string): boolean {
    return existsSync(join(this.options.dir, entryName(name, version)));
  }

  /** `name@version` from the cache, proven, or installed now when allowed. */
  get(name: string, version: string): Promise<InstalledLibrary> {
    const key = entryName(name, version);
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.provenOrInstalled(name, version).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async provenOrInstalled(name: string, version: string): Promise<InstalledLibrary> {
    const entry = join(this.options.dir, entryName(name, version));
    if (existsSync(entry)) {
      this.assertTrusted(name, version, entry);
      const problem = await this.disproof(entry, name);
      if (!problem) return this.installed(entry, name, version);
      if (!this.options.install) {
        throw new LibraryUnavailableError(`the cached ${name}@${version} ${problem}; reinstall it with: rm -rf ${entry} && ${this.installer.command(name, version, entry)}`);
      }
      this.options.log?.(`rtbench: the cached ${name}@${version} ${problem}: reinstalling it`);
      rmSync(entry, { recursive: true, force: true });
    }
    if (!this.options.install) {
      throw new LibraryUnavailableError(`${name}@${version} is not installed${this.options.forbiddenBy ? `, and ${this.options.forbiddenBy}` : ''}; install it with: ${this.installer.command(name, version, entry)}`);
    }
    await this.install(entry, name, version);
    return this.installed(entry, name, version);
  }

  /** Why the entry is not what was installed, or undefined when its record proves it. */
  private async disproof(entry: string, name: string): Promise<string | undefined> {
    const record = readInstallRecord(entry);
    if (!record) return 'has no install record rtbench wrote';
    const mismatch = await recordMismatch(record, entry, join(entry, 'node_modules', name), folderProof);
    return mismatch === undefined ? undefined : `folder ${mismatch}`;
  }

  private assertTrusted(name: string, version: string, path: string): void {
    const found = untrustedPath(dirname(this.options.dir), path, this.options.who);
    if (found) throw new LibraryUnavailableError(`rtbench will not bundle ${name}@${version} from its cache: ${found.path} ${found.why}, so another user could decide what runs; remove it (as its owner or root)`);
  }

  private async install(entry: string, name: string, version: string): Promise<void> {
    mkdirSync(this.options.dir, { recursive: true });
    this.assertTrusted(name, version, this.options.dir);
    const temp = mkdtempSync(join(this.options.dir, `.installing-${process.pid}-`));
    try {
      this.options.log?.(`rtbench: installing ${name}@${version} into ${this.options.dir} …`);
      await this.installer.install(name, version, temp);
      const dir = join(temp, 'node_modules', name);
      const installed = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: unknown };
      if (installed.version !== version) throw new Error(`npm installed ${name}@${String(installed.version)}, not ${version}`);
      await writeInstallRecord(temp, name, version, dir, folderProof);
      try {
        renameSync(temp, entry);
      } catch (error) {
        // Another run renamed its install into place first: use that one.
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
      }
    } catch (error) {
      if (error instanceof LibraryUnavailableError) throw error;
      throw new LibraryUnavailableError(`could not install ${name}@${version}: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
    } finally {
      rmSync(temp, { recursive: true, force: true });
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
