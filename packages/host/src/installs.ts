/**
 * @rtbench/host/installs: installs and the stores they fill: the runtime store
 * (node_modules, the cache, installs on demand), the library store (a pinned
 * package's versions, or a set a suite installs together, installed and
 * proven), npm's client, an install's record and a file's hash (remembered per
 * file).
 */
export { folderDigest, folderProof, LibraryStore, LibraryUnavailableError, type InstalledLibrary, type InstalledSet } from './library-store.ts';
export { isCacheEntryName, NpmRuntimeStore, RuntimeDamagedError, RuntimeNotInstalledError, RuntimeUntrustedError } from './runtime-store.ts';
export { npmInstaller } from './npm-client.ts';
export { writeInstallRecord } from './install-record.ts';
export { sha256File } from './file-hash.ts';
