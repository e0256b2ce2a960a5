/**
 * The runtime store the planners find pinned npm runtimes through: node_modules
 * (rtbench's checkout), then <cache>/runtimes, then an install on demand
 * (packages/host/src/runtime-store.ts), announced on stderr in one
 * line. RTBENCH_NO_INSTALL=1 forbids installing: a missing runtime is then
 * reported with the command that installs it.
 */
import { NpmRuntimeStore } from '@rtbench/host/installs';

/** How the cache names an install: what a bisect's --clean checks an entry's name against. */
export { isCacheEntryName } from '@rtbench/host/installs';
import { storePolicy } from '@rtbench/suite-loader';

let store: NpmRuntimeStore | undefined;

const RUNTIMES = 'runtimes';

export function runtimeStore(): NpmRuntimeStore {
  // Offline, a package's versions (a bisect's or a matrix's range over them) are also those its pins installed.
  store ??= new NpmRuntimeStore({ ...storePolicy(RUNTIMES), alsoHeldIn: [storePolicy('libraries').dir] });
  return store;
}

/** The folder of the runtime cache: what a bisect's --clean may remove entries of, and nothing outside. */
export function runtimeCacheDir(): string {
  return storePolicy(RUNTIMES).dir;
}
