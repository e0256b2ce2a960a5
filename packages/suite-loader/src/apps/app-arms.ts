/**
 * An app's library versions as arms (`--compare "node next@15.4.6" "node
 * next@15.5.0"`): what an arm may pin (a package the app declares from the
 * registry), what moves with a pin (a package the app declares at the
 * pinned one's version that names it a peer: react-dom with react, as
 * package pins elsewhere move), and why an arm's versions cannot be built,
 * before anything is installed: a package the app keeps whose peer range
 * (semver's) the pinned version is outside of. Read from the app's
 * package.json and its installed packages' manifests; no registry.
 */
import { join } from 'node:path';
import { validRange } from 'semver';
import type { ArmPackages } from '@rtbench/core';
import { inPeerRange } from './framework.ts';
import { manifestAt, type PackageManifest } from './framework-app.ts';

/** The packages the app declares at a registry range (not a workspace, file, link, git or alias spec): what an arm may pin. */
export function appInstalls(appDir: string): string[] {
  const manifest = manifestAt(appDir) ?? {};
  const declared = { ...manifest.optionalDependencies, ...manifest.devDependencies, ...manifest.dependencies };
  return Object.entries(declared)
    .filter(([, spec]) => typeof spec === 'string' && validRange(spec, { loose: true }) !== null)
    .map(([name]) => name)
    .sort();
}

const installedManifest = (appDir: string, name: string): PackageManifest | undefined => manifestAt(join(appDir, 'node_modules', name));
const versionOf = (m: PackageManifest | undefined): string | undefined => (typeof m?.version === 'string' ? m.version : undefined);

/**
 * The versions an arm builds the app with: those it pins of the app's
 * packages, and each declared package installed at a pinned package's
 * installed version that names it a peer, unless the arm pins it too (it
 * moves with it). Empty: the app as it is.
 */
export function armPins(appDir: string, installs: readonly string[], packages: ArmPackages): Record<string, string> {
  const pins: Record<string, string> = {};
  for (const name of installs) if (packages[name] !== undefined) pins[name] = packages[name];
  for (const [pinned, version] of Object.entries({ ...pins })) {
    const was = versionOf(installedManifest(appDir, pinned));
    if (was === undefined) continue;
    for (const follower of installs) {
      if (follower in pins) continue;
      const m = installedManifest(appDir, follower);
      if (versionOf(m) === was && m?.peerDependencies?.[pinned] !== undefined) pins[follower] = version;
    }
  }
  return pins;
}

/** The pins in words: `svelte 5.57.2, @sveltejs/kit 2.70.0`. */
export const pinWords = (pins: Readonly<Record<string, string>>): string =>
  Object.entries(pins)
    .map(([name, version]) => `${name} ${version}`)
    .join(', ');

/**
 * Why the app cannot be built with an arm's versions, in one line, or
 * undefined: a package the app declares and the arm does not pin, as
 * installed, names a pinned package a peer at a range its version is
 * outside of (an adapter built for another major of its framework).
 */
export function armPinsRefusal(appDir: string, installs: readonly string[], pins: Readonly<Record<string, string>>): string | undefined {
  for (const kept of installs) {
    if (kept in pins) continue;
    const m = installedManifest(appDir, kept);
    for (const [pinned, version] of Object.entries(pins)) {
      const range = m?.peerDependencies?.[pinned];
      if (typeof range === 'string' && !inPeerRange(version, range)) {
        return `the app's ${kept} ${versionOf(m) ?? ''} supports ${pinned} ${range}, not ${version}: pin a release of ${kept} that does beside it (${kept}@<version>)`;
      }
    }
  }
  return undefined;
}
