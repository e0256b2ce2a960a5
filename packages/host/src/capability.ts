/**
 * What the host makes of a capability a plug-in declares it lacks
 * (`{ unavailable: '<why>' }` in place of a hook): the test for it and the
 * one sentence a user reads. The shape is the plug-in contract's; the
 * wording is the host's, so a plug-in never words its own refusal.
 */
import type { RuntimePlugin } from '@rtbench/runtime-kit';

/** A capability the runtime does not have, and why, as the contract declares it. */
export type Unavailable = Extract<RuntimePlugin['inspector'], { readonly unavailable: string }>;

export function isUnavailable<T extends object>(c: T | Unavailable | undefined): c is Unavailable {
  return c !== undefined && 'unavailable' in c;
}

/** What each capability lets rtbench do, as the end of "<runtime> cannot …". */
const CAPABILITY_TEXT = {
  cpuProfile: 'give a CPU profile',
  allocationProfile: 'give an allocation profile',
  nativeProfile: 'give a native profile',
  codeCache: 'keep a code cache between starts',
  isolateStart: 'start a new isolate in a running process',
} as const;
export type CapabilityName = keyof typeof CAPABILITY_TEXT;

/** The one sentence that says a runtime cannot do something: "Bun cannot give an allocation profile: <why>". */
export function cannotMessage(plugin: Pick<RuntimePlugin, 'displayName'>, capability: CapabilityName, why: Unavailable): string {
  return `${plugin.displayName} cannot ${CAPABILITY_TEXT[capability]}: ${why.unavailable}`;
}
