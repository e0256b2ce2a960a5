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
import type { InstalledPackage } from '@rtbench/core';
import { LibraryStore } from '@rtbench/host/installs';
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

/**
 * Packages an arm may add to its set beside the toolchain's own, each then
 * installed at the version the arm pins: sharp, which Next.js takes as an
 * optional dependency (15.5.x: `^0.34.3 || ^0.35.5`). Left to npm, next
 * 15.5.29 gets sharp 0.35.5, whose native-module requires the Cloudflare
 * adapter's bundler cannot resolve; `sharp@0.34.5` in the arm builds it.
 */
export const ADDABLE = ['sharp'] as const;

type AddablePackage = (typeof ADDABLE)[number];

/** A set's versions: every package of the toolchain, and those an arm added. */
export type ToolchainVersions = Readonly<Record<ToolchainPackage, string>> & Readonly<Partial<Record<AddablePackage, string>>>;

/** The set's label in the library cache and in a run's record. */
export const TOOLCHAIN_SET = 'next-page';

/** The installed set: where its packages are, their versions and the registry's integrity of each. */
export interface Toolchain {
  /** The folder whose node_modules holds every package of the set. */
  modules: string;
  versions: ToolchainVersions;
  integrity: Readonly<Record<string, string>>;
  /** sha256 over the named packages' folders, proven on every use. */
  sha256: string;
}

/**
 * The toolchain an arm builds with: the suite's pins, with the versions the
 * arm pins of them (`next@15.5.29`), and the addable packages it pins
 * (`sharp@0.34.5`); the arm's other packages are not the toolchain's and are
 * left out.
 */
export function toolchainFor(packages: Readonly<Record<string, string>>): ToolchainVersions {
  const out: Record<string, string> = { ...TOOLCHAIN };
  for (const name of [...Object.keys(TOOLCHAIN), ...ADDABLE]) if (packages[name] !== undefined) out[name] = packages[name];
  return out as ToolchainVersions;
}

/** The set as a run records it for the arm: every named package's version, folder and integrity, and the set's proof. */
export function installedPackages(toolchain: Toolchain): InstalledPackage[] {
  return Object.entries(toolchain.versions).map(([name, version]) => ({
    name,
    version,
    dir: join(toolchain.modules, name),
    sha256: toolchain.sha256,
    set: TOOLCHAIN_SET,
    ...(toolchain.integrity[name] ? { integrity: toolchain.integrity[name] } : {}),
  }));
}

const installing = new Map<string, Promise<Toolchain>>();

/** A toolchain from rtbench's library cache, installed there first when it is not (once per set and process). */
export function installToolchain(versions: ToolchainVersions = TOOLCHAIN): Promise<Toolchain> {
  const key = JSON.stringify(versions);
  let pending = installing.get(key);
  if (!pending) {
    pending = new LibraryStore(storePolicy('libraries'))
      .getSet(TOOLCHAIN_SET, versions)
      .then((set) => ({ modules: join(set.root, 'node_modules'), versions, integrity: set.integrity, sha256: set.sha256 }));
    installing.set(key, pending);
  }
  return pending;
}
