/**
 * The runtime store the planners find pinned npm runtimes through: node_modules
 * (rtbench's checkout), then <cache>/runtimes, then an install on demand
 * (packages/host/src/runtime-store.ts), announced on stderr in one
 * line. RTBENCH_NO_INSTALL=1 forbids installing: a missing runtime is then
 * reported with the command that installs it.
 */
import { join } from 'node:path';
import { NpmRuntimeStore } from '@rtbench/host';
import { cacheDir } from '@rtbench/suite-loader';

/** RTBENCH_NO_INSTALL set to anything but "" or "0". */
function installForbidden(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.RTBENCH_NO_INSTALL;
  return v !== undefined && v !== '' && v !== '0';
}

/** How a store under <cache>/`folder` installs: on demand unless RTBENCH_NO_INSTALL forbids it, each install said on stderr. */
export function storePolicy(folder: string): { dir: string; install: boolean; forbiddenBy: string; log: (line: string) => void } {
  return { dir: join(cacheDir, folder), install: !installForbidden(), forbiddenBy: 'RTBENCH_NO_INSTALL is set', log: (line) => process.stderr.write(`${line}\n`) };
}

let store: NpmRuntimeStore | undefined;

export function runtimeStore(): NpmRuntimeStore {
  store ??= new NpmRuntimeStore(storePolicy('runtimes'));
  return store;
}
