/** Variants as a report names and describes them. */
import type { Variant } from '@rtbench/core/schema';
import { displayNameOf } from '@rtbench/runtime-registry';
import type { ArmInfo } from './types.ts';

const ENGINE_DISPLAY: Record<NonNullable<Variant['engine']>, string> = { v8: 'V8', jsc: 'JavaScriptCore' };
const ENGINE_SHORT: Record<NonNullable<Variant['engine']>, string> = { v8: 'V8', jsc: 'JSC' };

/** "V8", "JavaScriptCore" (or "JSC" when short). */
export function engineName(engine: NonNullable<Variant['engine']>, short = false): string {
  return (short ? ENGINE_SHORT : ENGINE_DISPLAY)[engine];
}

/** As its plug-in names it ("Node.js"); a runtime no registered plug-in knows, by the name the run recorded. */
export function runtimeName(runtime: Variant['runtime']): string {
  return displayNameOf(runtime);
}

/** "Node.js 26.0.0, V8 14.6.202.33" */
export function versionText(v: Pick<Variant, 'runtime' | 'version' | 'engine' | 'engineVersion'>): string {
  const parts = [`${runtimeName(v.runtime)}${v.version ? ` ${v.version}` : ''}`];
  if (v.engine) parts.push(`${engineName(v.engine, true)}${v.engineVersion ? ` ${v.engineVersion}` : ''}`);
  return parts.join(', ');
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
