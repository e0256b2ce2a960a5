/**
 * The entries of `<run>.profiles/profiles.json` (shape declared in
 * @rtbench/core/profile-manifest): one per case × variant profiled, and for a
 * comparison where the time moved from the baseline to each other arm.
 */
import { PROFILE_MANIFEST_VERSION, type AllocationEntry, type ProfileDiffEntry, type ProfileEntry, type ProfileManifest } from '@rtbench/core/profile-manifest';
import type { AllocationCaseResult } from './alloc-capture.ts';
import type { ProfileCaseResult } from './capture.ts';
import type { NativeCaseResult } from './native-capture.ts';
import type { ProfileDiff } from './summary.ts';

/** Functions kept per diff: the table of top movers. */
const MANIFEST_MOVERS = 12;

/** One case × variant: the summary's categories and the call tree, or why there is no profile. */
export function manifestEntry(caseId: string, variantId: string, result: ProfileCaseResult | NativeCaseResult, file: string): ProfileEntry {
  if (result.status !== 'ok') return { caseId, variantId, status: result.status, reason: result.reason };
  return {
    ...('resolution' in result ? { resolution: result.resolution } : {}),
    caseId,
    variantId,
    status: 'ok',
    file,
    method: `${result.method}; sampling phase found by ${result.window.method}`,
    window: result.window,
    byCategory: result.summary.byCategory,
    tree: result.tree,
  };
}

/** diffProfiles(baseline, candidate), its top movers without the matching keys. */
export function manifestDiff(caseId: string, baseline: string, candidate: string, diff: ProfileDiff, top = MANIFEST_MOVERS): ProfileDiffEntry {
  return {
    caseId,
    baseline,
    candidate,
    movers: diff.functions.slice(0, top).map(({ key: _key, ...mover }) => mover),
    byCategory: diff.byCategory,
  };
}

/** One case × variant's allocation profile: totals, categories, the top functions and the call tree by bytes, or why there is none. */
export function allocationEntry(caseId: string, variantId: string, result: AllocationCaseResult, file: string, top = MANIFEST_MOVERS): AllocationEntry {
  if (result.status !== 'ok') return { caseId, variantId, status: result.status, reason: result.reason };
  const s = result.summary;
  return {
    caseId,
    variantId,
    status: 'ok',
    file,
    method: result.method,
    window: result.window,
    totalBytes: s.totalBytes,
    ...(s.bytesPerOp !== undefined ? { bytesPerOp: s.bytesPerOp } : {}),
    byCategory: s.byCategory,
    top: s.functions.slice(0, top).map((f) => ({
      name: f.name,
      ...(f.location ? { location: f.location } : {}),
      category: f.category,
      selfBytes: f.selfBytes,
      selfShare: f.selfShare,
      ...(f.selfBytesPerOp !== undefined ? { selfBytesPerOp: f.selfBytesPerOp } : {}),
    })),
    tree: result.tree,
  };
}

export function profileManifest(runId: string, profiles: ProfileEntry[], diffs: ProfileDiffEntry[], allocations: AllocationEntry[] = [], allocationDiffs: ProfileDiffEntry[] = [], native: ProfileEntry[] = [], nativeDiffs: ProfileDiffEntry[] = []): ProfileManifest {
  return {
    version: PROFILE_MANIFEST_VERSION,
    runId,
    profiles,
    diffs,
    ...(allocations.length ? { allocations } : {}),
    ...(allocationDiffs.length ? { allocationDiffs } : {}),
    ...(native.length ? { native } : {}),
    ...(nativeDiffs.length ? { nativeDiffs } : {}),
  };
}
