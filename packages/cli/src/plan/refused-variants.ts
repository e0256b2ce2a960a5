/**
 * Which unavailable variants refuse a whole command before anything runs. A
 * table goes on without a variant that cannot run here (it says why in its
 * row), but not when the command could not be the one asked for: a
 * comparison without one of its arms, a table with no variant at all, or a
 * runtime that is missing only because installing is forbidden
 * (RTBENCH_NO_INSTALL) — the user's to install, as when it is the only one.
 */
import { isResolved, type ResolvedVariant, type UnavailableVariant } from '@rtbench/runtime-registry';

export function refusingVariants(
  variants: readonly (ResolvedVariant | UnavailableVariant)[],
  how: { compare: boolean; installs: boolean },
): UnavailableVariant[] {
  const unavailable = variants.filter((v): v is UnavailableVariant => !isResolved(v));
  if (how.compare || unavailable.length === variants.length) return unavailable;
  return how.installs ? [] : unavailable.filter((v) => v.kind === 'runtime-unavailable');
}
