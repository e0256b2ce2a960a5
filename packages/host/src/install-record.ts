/**
 * What rtbench recorded when it installed a runtime into the cache
 * (<entry>/rtbench-install.json): the registry's integrity hash of every
 * package npm installed for it (npm checked each tarball against it while
 * installing) and the sha256 and size of the binary rtbench runs. A cached
 * runtime is proven against this record before it is used, so a binary
 * truncated or altered since is refused (or reinstalled) instead of being
 * measured as if it were the release.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sha256File } from './file-hash.ts';

export const INSTALL_RECORD = 'rtbench-install.json';

export interface InstallRecord {
  package: string;
  version: string;
  /** "<package>@<version>" → the registry's integrity ("sha512-…"), from npm's node_modules/.package-lock.json. */
  integrity: Record<string, string>;
  /** The binary, relative to the cache entry. */
  binary: string;
  sha256: string;
  bytes: number;
}

function isInstallRecord(value: unknown): value is InstallRecord {
  const r = value as Partial<InstallRecord> | null;
  return (
    typeof r === 'object' && r !== null &&
    typeof r.package === 'string' && typeof r.version === 'string' && typeof r.binary === 'string' &&
    typeof r.sha256 === 'string' && /^[0-9a-f]{64}$/.test(r.sha256) &&
    Number.isSafeInteger(r.bytes) && r.bytes! >= 0 &&
    typeof r.integrity === 'object' && r.integrity !== null && Object.values(r.integrity).every((v) => typeof v === 'string')
  );
}

/** What proves an installed thing: its sha256 and size (a runtime's binary; a library's whole folder, library-store.ts). */
export type Proof = (path: string) => Promise<{ sha256: string; bytes: number }>;

const fileProof: Proof = async (path) => ({ sha256: await sha256File(path), bytes: statSync(path).size });

/** Integrity hashes npm recorded for what it installed under `entry` (empty when it wrote no hidden lockfile). */
function npmIntegrity(entry: string): Record<string, string> {
  const integrity: Record<string, string> = Object.create(null) as Record<string, string>;
  try {
    const lock = JSON.parse(readFileSync(join(entry, 'node_modules', '.package-lock.json'), 'utf8')) as { packages?: Record<string, { version?: string; integrity?: string }> };
    for (const [path, meta] of Object.entries(lock.packages ?? {})) {
      const name = path.replace(/^.*node_modules\//, '');
      if (meta.integrity && meta.version) integrity[`${name}@${meta.version}`] = meta.integrity;
    }
  } catch {
    // no hidden lockfile: the record still proves the binary
  }
  return integrity;
}

/** Hashes the binary of a fresh install under `entry` and writes the record beside it. */
export async function writeInstallRecord(entry: string, pkg: string, version: string, binary: string, prove: Proof = fileProof): Promise<InstallRecord> {
  const { sha256, bytes } = await prove(binary);
  const record: InstallRecord = {
    package: pkg,
    version,
    integrity: npmIntegrity(entry),
    binary: relative(entry, binary),
    sha256,
    bytes,
  };
  writeFileSync(join(entry, INSTALL_RECORD), `${JSON.stringify(record, null, 2)}\n`);
  return record;
}

/** The record of a cache entry; undefined when there is none (an entry made by hand with npm) or it does not parse. */
export function readInstallRecord(entry: string): InstallRecord | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(entry, INSTALL_RECORD), 'utf8'));
    return isInstallRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Why `binary` is not the one the record proves (size first: a truncated file needs no hashing), or undefined when it is. */
export async function recordMismatch(record: InstallRecord, entry: string, binary: string, prove?: Proof): Promise<string | undefined> {
  if (relative(entry, binary) !== record.binary) return `is not the binary recorded at install (${record.binary})`;
  let bytes: number;
  let proof: Awaited<ReturnType<Proof>> | undefined;
  try {
    // A folder is proven whole; a file's size is read first (a truncated binary needs no hashing).
    proof = prove ? await prove(binary) : undefined;
    bytes = proof ? proof.bytes : statSync(binary).size;
  } catch {
    return 'is missing';
  }
  if (bytes !== record.bytes) return `has ${bytes} bytes, ${record.bytes} when installed`;
  const sha256 = proof ? proof.sha256 : await sha256File(binary);
  if (sha256 !== record.sha256) return `has sha256 ${sha256.slice(0, 12)}…, ${record.sha256.slice(0, 12)}… when installed`;
  return undefined;
}
