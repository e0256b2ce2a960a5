/** Variants as a report names and describes them. */
import type { PinnedPackage, Variant } from '@rtbench/core/schema';
import type { ArmInfo } from './types.ts';

/** "react 18.3.1 (sha512-AbCd…)", "react 19.3.0 at /src/react (git 1a2b3c4d5e6f)": a pinned package as an arm bundled it. */
function pinnedText(p: PinnedPackage): string {
  const proof = p.path !== undefined ? `at ${p.path} (${p.git ? `git ${p.git.commit.slice(0, 12)}${p.git.dirty ? '-dirty' : ''}` : `sha256 ${p.sha256.slice(0, 12)}`})` : `(${p.integrity ? `${p.integrity.slice(0, 19)}…` : `sha256 ${p.sha256.slice(0, 12)}`})`;
  return `${p.name} ${p.version} ${proof}`;
}

/** "react 18.3.1 (sha512-AbCd…), react-dom 18.3.1 (sha512-EfGh…)": the packages an arm pinned. */
export function packagesText(packages: readonly PinnedPackage[]): string {
  return packages.map(pinnedText).join(', ');
}

/** "Node.js 26.0.0, JSC 1a2b…": the names the run recorded (Variant.displayNames), else the recorded ids; then the packages it pinned. */
export function versionText(v: Pick<Variant, 'runtime' | 'version' | 'engine' | 'engineVersion' | 'displayNames' | 'packages'>): string {
  const parts = [`${v.displayNames?.runtime ?? v.runtime}${v.version ? ` ${v.version}` : ''}`];
  if (v.engine) parts.push(`${v.displayNames?.engineShort ?? v.engine}${v.engineVersion ? ` ${v.engineVersion}` : ''}`);
  const runtime = parts.join(', ');
  return v.packages?.length ? `${runtime}; ${packagesText(v.packages)}` : runtime;
}

export function armInfo(v: Variant, label = v.id, file?: string): ArmInfo {
  return {
    id: v.id,
    label,
    runtime: v.runtime,
    versionText: versionText(v),
    ...(v.version ? { version: v.version } : {}),
    ...(v.engine ? { engine: v.engine } : {}),
    ...(v.engineVersion ? { engineVersion: v.engineVersion } : {}),
    flags: v.flags,
    env: v.translatedFlags?.env ?? {},
    ...(v.binary ? { binary: v.binary } : {}),
    ...(v.binarySha256 ? { binarySha256: v.binarySha256 } : {}),
    ...(v.binaryGit ? { binaryCommit: `${v.binaryGit.commit.slice(0, 12)}${v.binaryGit.dirty ? '-dirty' : ''}` } : {}),
    ...(v.unavailable ? { unavailable: v.unavailable } : {}),
    ...(file ? { file } : {}),
  };
}

/** Flags and environment as the user wrote them ("—" for none). */
export function armFlags(arm: ArmInfo): string {
  const env = Object.entries(arm.env).map(([k, v]) => `${k}=${v}`);
  const all = [...arm.flags, ...env.filter((e) => !arm.flags.includes(e))];
  return all.length ? all.join(' ') : '—';
}

export function shortHash(hash: string | undefined): string {
  return hash ? hash.slice(0, 12) : '—';
}
