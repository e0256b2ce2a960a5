/**
 * --profile: the passes of the loop's profile phase (loop.ts Profiler). After
 * the measured rounds, one extra process per case × variant (never a measured
 * one: a profiler changes the timing) runs the case under a profiler
 * (@rtbench/profile): `cpu` the runtime's sampling CPU profiler (.cpuprofile),
 * `alloc` V8's sampling heap profiler (.heapprofile, bytes per call), `native`
 * perf (the engine's own frames), each with its top functions per case ×
 * variant and, for a comparison, what moved from the baseline. They are saved
 * in `<run>.profiles/` with `profiles.json` (@rtbench/core/profile-manifest),
 * written after every profile, which an HTML report draws as flame graphs.
 */
import { join } from 'node:path';
import { profilesDir } from './profile-manifest.ts';
import { PROFILE_MANIFEST_FILE, type AllocationEntry, type ProfileDiffEntry, type ProfileEntry } from '@rtbench/core/profile-manifest';
import {
  allocationEntry,
  diffProfiles,
  manifestDiff,
  manifestEntry,
  profileAllocations,
  profileCase,
  profileManifest,
  profileNative,
  profileServer,
  profileWindow,
  allocTopTable,
  diffTable,
  topTable,
  type ProfileCaseResult,
  type Shares,
} from '@rtbench/profile';
import { writeFileAtomically } from '@rtbench/host/files';
import { findPerf } from '@rtbench/host/tools';
import type { Profiler, ProfilePass } from './loop.ts';
import type { Arm, Measurer, Unit } from '@rtbench/measurers';
import type { ProfileBlock, ProfileHeading, ProfileSection } from '@rtbench/core/profile-view';
import type { RunRecord } from '@rtbench/core/schema';

/** What --profile takes: CPU time, allocations, native stacks (perf). */
export const PROFILE_KINDS = ['cpu', 'alloc', 'native'] as const;
export type ProfileKind = (typeof PROFILE_KINDS)[number];

/** Functions shown per case × variant. */
const TOP = 8;

/** A file-name-safe slug of a case or variant id: readable, not unique (`a/b` and `a_b` give one slug). */
const slug = (text: string): string => text.replace(/[^\w.@=-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 80) || 'case';

/**
 * The file of one case × variant's profile: unique by construction, as the
 * case's and the variant's positions in the run lead it (`3-a_b--1-node@26`);
 * the slugs after them are for reading. The manifest maps ids to files.
 */
export function profileFileName(caseIndex: number, caseId: string, variantIndex: number, variantId: string, extension: string): string {
  return `${caseIndex + 1}-${slug(caseId)}--${variantIndex + 1}-${slug(variantId)}${extension}`;
}

interface ProfileOptions {
  /** The saved run's file: the profiles go beside it (profilesDir). */
  runPath: string;
  kinds: readonly ProfileKind[];
  /** A comparison: each arm's profile against the baseline's (the first arm). */
  compare: boolean;
  /** A smoke run (--fixed-warmup): each profile of a timed loop is a short one (profile profileWindow). */
  smoke?: boolean;
}

/** What the profile phase gathers as it goes: the manifest's lists, the run they follow, and the section's blocks. */
interface ProfilerState {
  dir: string;
  compare: boolean;
  /** The run the manifest names (the loop starts the phase with it). */
  runId: string;
  entries: ProfileEntry[];
  diffs: ProfileDiffEntry[];
  allocations: AllocationEntry[];
  allocationDiffs: ProfileDiffEntry[];
  native: ProfileEntry[];
  nativeDiffs: ProfileDiffEntry[];
  out: ProfileBlock[];
}

/** Written after every case × variant: a profiling run cut short keeps what it took. */
function saveManifest(state: ProfilerState): void {
  const { dir, runId, entries, diffs, allocations, allocationDiffs, native, nativeDiffs } = state;
  writeFileAtomically(join(dir, PROFILE_MANIFEST_FILE), `${JSON.stringify(profileManifest(runId, entries, diffs, allocations, allocationDiffs, native, nativeDiffs))}\n`);
}

/** The profile phase's passes, and the section they leave (top functions, what moved) for the CLI's reporter to print. */
export function profiler(options: ProfileOptions): Profiler & { dir: string; start(run: RunRecord): boolean; section(): ProfileSection } {
  const dir = profilesDir(options.runPath);
  const state: ProfilerState = { dir, compare: options.compare, runId: '', entries: [], diffs: [], allocations: [], allocationDiffs: [], native: [], nativeDiffs: [], out: [] };
  const window = profileWindow(options.smoke === true);
  const passes: ProfilePass[] = [];
  if (options.kinds.includes('cpu')) passes.push(profilePass(state, cpuSteps(state, window)));
  if (options.kinds.includes('alloc')) passes.push(profilePass(state, allocationSteps(state, window)));
  // findPerf: found when the kinds were parsed (the CLI refuses --profile native without perf before anything runs).
  if (options.kinds.includes('native')) passes.push(profilePass(state, nativeSteps(state, window, findPerf())));
  return {
    passes,
    dir,
    start(run) {
      state.runId = run.id;
      return true;
    },
    section: () => ({ blocks: state.out }),
  };
}

const heading = (state: ProfilerState, what: string, opens: string): ProfileHeading => ({ kind: 'heading', what, dir: state.dir, opens });

/** One kind of profile as a pass: each take lists its top functions; a comparison's unit ends with each arm against the baseline. */
function profilePass(state: ProfilerState, steps: ProfileSteps): ProfilePass {
  const taken = new Map<string, { variantId: string; summary?: Shares }[]>();
  let started = false;
  return {
    label: steps.progress,
    async take(unit: Unit, arm: Arm, at, signal) {
      if (!started) {
        started = true;
        state.out.push(steps.heading);
      }
      const caseId = unit.cases[0]!.id;
      const file = profileFileName(at.unitIndex, caseId, at.armIndex, arm.id, steps.extension);
      const { block, summary } = await steps.take(arm, caseId, arm.id, join(state.dir, file), file, signal, () => at.measurer.profileServing?.(unit, arm));
      const list = taken.get(unit.key) ?? [];
      list.push({ variantId: arm.id, ...(summary ? { summary } : {}) });
      taken.set(unit.key, list);
      saveManifest(state);
      state.out.push(block);
    },
    unitDone(unit: Unit) {
      if (!state.compare) return;
      const [base, ...others] = taken.get(unit.key) ?? [];
      for (const other of others) {
        if (!base?.summary || !other.summary) continue;
        const diff = diffProfiles(base.summary, other.summary);
        steps.diffs.push(manifestDiff(unit.cases[0]!.id, base.variantId, other.variantId, diff));
        saveManifest(state);
        const title = `${unit.cases[0]!.id}: where ${steps.moved} moved, ${base.variantId} → ${other.variantId}`;
        state.out.push(diffTable(diff, { top: TOP, ...(steps.of ? { of: steps.of } : {}), a: base.variantId, b: other.variantId, title }));
      }
    },
  };
}

type ProfileWindow = ReturnType<typeof profileWindow>;

function cpuSteps(state: ProfilerState, window: ProfileWindow): ProfileSteps {
  return {
    heading: heading(state, 'CPU profiles', 'open a .cpuprofile in Chrome DevTools or speedscope'),
    extension: '.cpuprofile',
    progress: 'profiling',
    moved: 'the time',
    diffs: state.diffs,
    async take(arm, caseId, variantId, outPath, file, signal, serving) {
      const result = await cpuProfile(arm, caseId, outPath, window, signal, serving);
      state.entries.push(manifestEntry(caseId, variantId, result, file));
      const title = `${caseId} · ${variantId}`;
      if (result.status !== 'ok') return { block: { kind: 'missing', text: `${title}: no profile (${result.status}: ${'reason' in result ? result.reason : ''})` } };
      return { block: topTable(result.summary, { top: TOP, title, note: result.method }), summary: result.summary };
    },
  };
}

function allocationSteps(state: ProfilerState, window: ProfileWindow): ProfileSteps {
  return {
    heading: heading(state, 'Allocation profiles', "open a .heapprofile in Chrome DevTools' Memory panel or speedscope"),
    extension: '.heapprofile',
    progress: 'allocation profile',
    moved: 'the allocated bytes',
    of: 'allocated bytes',
    diffs: state.allocationDiffs,
    async take(arm, caseId, variantId, outPath, file, signal) {
      const result = await profileAllocations({ arm, caseId, outPath, ...window, ...(signal ? { signal } : {}) });
      state.allocations.push(allocationEntry(caseId, variantId, result, file));
      const title = `${caseId} · ${variantId} · allocations`;
      if (result.status !== 'ok') return { block: { kind: 'missing', text: `${title}: no allocation profile (${result.status}: ${result.reason})` } };
      return { block: allocTopTable(result.summary, { top: TOP, title, note: result.method }), summary: result.summary };
    },
  };
}

function nativeSteps(state: ProfilerState, window: ProfileWindow, perf: ReturnType<typeof findPerf>): ProfileSteps {
  return {
    heading: heading(state, 'Native profiles', "perf; the engine's own C++ frames beside the JIT's; open a .native.cpuprofile in speedscope or Chrome DevTools"),
    extension: '.native.cpuprofile',
    progress: 'native profile',
    moved: 'the time',
    diffs: state.nativeDiffs,
    async take(arm, caseId, variantId, outPath, file, signal) {
      const result = await profileNative({ arm, caseId, perf, outPath, ...window, ...(signal ? { signal } : {}) });
      state.native.push(manifestEntry(caseId, variantId, result, file));
      const title = `${caseId} · ${variantId} · native`;
      if (result.status !== 'ok') return { block: { kind: 'missing', text: `${title}: no native profile (${result.status}: ${result.reason})` } };
      const r = result.resolution;
      const note = `${r.samples} samples every ${r.periodUs} µs of CPU (${r.otherThreadSamples} more on other threads, not shown)${r.unresolvedShare > 0 ? `; ${(r.unresolvedShare * 100).toFixed(1)}% without a symbol, grouped by library` : ''}. ${r.note}`;
      return { block: topTable(result.summary, { top: TOP, title, note }), summary: result.summary };
    },
  };
}

/** How a pass takes one kind of profile (CPU, allocations, native). */
interface ProfileSteps {
  /** The section's first line, listed before its first profile. */
  heading: ProfileHeading;
  /** The profile file's extension. */
  extension: string;
  /** The progress line's verb, before "<variant> · <case>". */
  progress: string;
  /** What a comparison's diff is of, in its title ("where the time moved"). */
  moved: string;
  /** What the shares are of, when not self time (diffTable's `of`). */
  of?: string;
  /** Where the comparison diffs go in the manifest. */
  diffs: ProfileDiffEntry[];
  /** Profiles one case × arm into `outPath` and records its manifest entry (as `file`); its block, and its summary when there is a profile. `serving`: the server the case is served by, when the measurer starts one. */
  take(arm: Arm, caseId: string, variantId: string, outPath: string, file: string, signal: AbortSignal | undefined, serving: () => ReturnType<NonNullable<Measurer['profileServing']>> | undefined): Promise<{ block: ProfileBlock; summary?: Shares }>;
}

/** A case's CPU profile: its server's, when the measurer serves it from one (request cases), else its timed loop's. */
async function cpuProfile(arm: Arm, caseId: string, outPath: string, window: ReturnType<typeof profileWindow>, signal: AbortSignal | undefined, serving: () => ReturnType<NonNullable<Measurer['profileServing']>> | undefined): Promise<ProfileCaseResult> {
  const served = serving();
  if (!served) return profileCase({ arm, caseId, outPath, ...window, ...(signal ? { signal } : {}) });
  const server = await served;
  if ('unsupported' in server) return { status: 'unsupported', reason: server.unsupported };
  if ('error' in server) return { status: 'failed', reason: server.error };
  return profileServer({ arm, serving: server, outPath, ...(signal ? { signal } : {}) });
}
