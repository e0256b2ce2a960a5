/**
 * The packages only this suite needs, pinned exactly: Next.js and the React
 * it renders with, OpenNext's Cloudflare adapter and wrangler (the adapter's
 * peer, whose deploy bundles the Worker), and the React types next build's
 * type check reads. They are not the checkout's dependencies (its install
 * does not grow by a framework): a run that needs them installs them once,
 * as one set, into rtbench's library cache, proven on every later use
 * (packages/host library-store.ts), with one line saying what and where;
 * RTBENCH_NO_INSTALL refuses in one line with the command that installs them.
 * npm runs none of their install scripts and none is needed: Next.js's
 * compiler (@next/swc-*), sharp, esbuild and workerd come as prebuilt
 * platform packages that their JavaScript finds without one.
 */
import { join } from 'node:path';
import { LibraryStore } from '@rtbench/host';
import { storePolicy } from '@rtbench/suite-loader';

export const TOOLCHAIN = {
  next: '16.4.6',
  react: '19.3.1',
  'react-dom': '19.3.1',
  '@opennextjs/cloudflare': '1.20.17',
  wrangler: '4.164.0',
  '@types/react': '19.3.0',
  '@types/react-dom': '19.3.0',
} as const satisfies Readonly<Record<string, string>>;

export type ToolchainPackage = keyof typeof TOOLCHAIN;

/** The installed set: where its packages are, their versions and the registry's integrity of each. */
export interface Toolchain {
  /** The folder whose node_modules holds every package of the set. */
  modules: string;
  versions: Readonly<Record<ToolchainPackage, string>>;
  integrity: Readonly<Record<string, string>>;
}

let installing: Promise<Toolchain> | undefined;

/** The toolchain from rtbench's library cache, installed there first when it is not (once per process). */
export function installToolchain(): Promise<Toolchain> {
  installing ??= new LibraryStore(storePolicy('libraries'))
    .getSet('next-page', TOOLCHAIN)
    .then((set) => ({ modules: join(set.root, 'node_modules'), versions: TOOLCHAIN, integrity: set.integrity }));
  return installing;
}
