/**
 * --profile: after the run, one extra process per case × variant (never a
 * measured one: a profiler changes the timing) runs the case's timed loop
 * under the runtime's sampling profiler (@rtbench/profile). The profiles are
 * saved beside the run, in `<run>.profiles/`, as `.cpuprofile` files that
 * Chrome DevTools and speedscope open; the top functions by self time are
 * printed per case × variant, and for a comparison the functions whose share
 * of time moved most between the baseline and each other arm.
 *
 * `--profile alloc` (or `cpu,alloc`) takes allocation profiles the same way
 * (another extra process per case × variant, V8's sampling heap profiler over
 * the inspector): `.heapprofile` files, the top functions by allocated bytes
 * with bytes per call, and for a comparison where the bytes moved.
 *
 * Beside the profiles, `profiles.json` (@rtbench/core/profile-manifest) lists
 * them with their call trees; an HTML report made for the run reads it and
 * draws the trees as flame graphs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  allocationEntry,
  diffProfiles,
  manifestDiff,
  manifestEntry,
  profileAllocations,
  profileCase,
  profileManifest,
  profileNative,
  renderAllocTop,
  renderDiff,
  renderTop,
  type ProfileArm,
  type Shares,
} from '@rtbench/profile';
import { parseProfileManifest, PROFILE_MANIFEST_FILE, type AllocationEntry, type ProfileDiffEntry, type ProfileEntry, type ProfileManifest } from '@rtbench/core/profile-manifest';
import { UsageError } from './errors.ts';
import { findPerf } from '@rtbench/runtime-kit';
import { printable } from '@rtbench/report';
import type { CaseListing } from '@rtbench/core/protocol';
import { bundleSuite } from './bundle.ts';
import { writeFileAtomically } from '@rtbench/runtime-kit';
import type { SuiteLocation } from './suites.ts';
import { isResolved, type ResolvedVariant, type UnavailableVariant } from './variants.ts';

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

/** What --profile takes: CPU time, allocations, native stacks (perf). */
export const PROFILE_KINDS = ['cpu', 'alloc', 'native'] as const;
export type ProfileKind = (typeof PROFILE_KINDS)[number];

/**
 * `--profile` alone is CPU (as before allocation profiles); `--profile alloc`, `--profile cpu,alloc`,
 * `--profile native`. Native profiles need perf: without it, one line (exit 2) before anything runs.
 */
export function parseProfileKinds(value: string | true, env: NodeJS.ProcessEnv = process.env): ProfileKind[] {
  if (value === true) return ['cpu'];
  const kinds: ProfileKind[] = [];
  for (const part of value.split(',').map((p) => p.trim().toLowerCase())) {
    const kind = part === 'cpu' ? 'cpu' : part === 'alloc' || part === 'allocations' || part === 'heap' ? 'alloc' : part === 'native' || part === 'perf' ? 'native' : undefined;
    if (!kind) throw new UsageError(`--profile takes ${PROFILE_KINDS.join(', ')} or several comma-separated (got ${JSON.stringify(part)}); --profile alone is cpu`);
    if (!kinds.includes(kind)) kinds.push(kind);
  }
  if (kinds.includes('native')) {
    try {
      findPerf(env);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  return PROFILE_KINDS.filter((k) => kinds.includes(k));
}

/** `results/x.json` -> `results/x.profiles` */
export const profilesDir = (runPath: string): string => runPath.replace(/\.json$/, '') + '.profiles';

export async function profileRun(
  suite: SuiteLocation & { cases: readonly CaseListing[] },
  variants: readonly (ResolvedVariant | UnavailableVariant)[],
  runPath: string,
  options: { runId: string; kinds?: readonly ProfileKind[]; compare: boolean; format: 'terminal' | 'markdown'; signal?: AbortSignal; onProgress?: (text: string) => void },
): Promise<string> {
  const dir = profilesDir(runPath);
  const kinds = options.kinds ?? ['cpu'];
  const entries: ProfileEntry[] = [];
  const diffs: ProfileDiffEntry[] = [];
  const allocations: AllocationEntry[] = [];
  const allocationDiffs: ProfileDiffEntry[] = [];
  const native: ProfileEntry[] = [];
  const nativeDiffs: ProfileDiffEntry[] = [];
  // Written after every case × variant: a profiling run cut short keeps what it took.
  const saveManifest = (): void => writeFileAtomically(join(dir, PROFILE_MANIFEST_FILE), `${JSON.stringify(profileManifest(options.runId, entries, diffs, allocations, allocationDiffs, native, nativeDiffs))}\n`);
  const arms = variants.filter(isResolved);
  const bundles = new Map<string, string>();
  for (const v of arms) if (!bundles.has(v.plugin.name)) bundles.set(v.plugin.name, (await bundleSuite(suite.entry, suite.name, v.plugin.name, v.plugin.bundle)).path);
  const out: string[] = [];
  const signal = options.signal ? { signal: options.signal } : {};

  /** One kind of profile for every case × arm, each in an extra process; for a comparison, each arm against the baseline. True when stopped (Ctrl-C). */
  const takeAll = async (steps: ProfileSteps): Promise<boolean> => {
    for (const [caseIndex, c] of suite.cases.entries()) {
      const taken: { variantId: string; summary?: Shares }[] = [];
      for (const [variantIndex, v] of arms.entries()) {
        if (options.signal?.aborted) return true;
        options.onProgress?.(`${steps.progress} ${v.spec.id} · ${c.id}`);
        const arm = { plugin: v.plugin, target: v.target, flags: v.flags, bundlePath: bundles.get(v.plugin.name)! };
        const file = profileFileName(caseIndex, c.id, variantIndex, v.spec.id, steps.extension);
        const { text, summary } = await steps.take(arm, c.id, v.spec.id, file);
        taken.push({ variantId: v.spec.id, ...(summary ? { summary } : {}) });
        saveManifest();
        out.push(text);
      }
      if (!options.compare) continue;
      const [base, ...others] = taken;
      for (const other of others) {
        if (!base?.summary || !other.summary) continue;
        const diff = diffProfiles(base.summary, other.summary);
        steps.diffs.push(manifestDiff(c.id, base.variantId, other.variantId, diff));
        saveManifest();
        const title = `${c.id}: where ${steps.moved} moved, ${base.variantId} → ${other.variantId}`;
        out.push(renderDiff(diff, { top: TOP, ...(steps.of ? { of: steps.of } : {}), a: base.variantId, b: other.variantId, title, format: options.format }));
      }
    }
    return false;
  };

  if (kinds.includes('cpu')) {
    out.push(options.format === 'markdown' ? `## CPU profiles (${dir})` : `CPU profiles: ${dir} (open a .cpuprofile in Chrome DevTools or speedscope)`);
    const stopped = await takeAll({
      extension: '.cpuprofile',
      progress: 'profiling',
      moved: 'the time',
      diffs,
      async take(arm, caseId, variantId, file) {
        const result = await profileCase({ arm, caseId, outPath: join(dir, file), ...signal });
        entries.push(manifestEntry(caseId, variantId, result, file));
        const title = `${caseId} · ${variantId}`;
        if (result.status !== 'ok') return { text: `${title}: no profile (${result.status}: ${'reason' in result ? result.reason : ''})` };
        return { text: renderTop(result.summary, { top: TOP, title, note: result.method, format: options.format }), summary: result.summary };
      },
    });
    if (stopped) return printable(out.join('\n\n')) + '\n';
  }
  if (kinds.includes('alloc')) {
    // After the CPU ones, each in a process of its own.
    out.push(options.format === 'markdown' ? `## Allocation profiles (${dir})` : `Allocation profiles: ${dir} (open a .heapprofile in Chrome DevTools' Memory panel or speedscope)`);
    await takeAll({
      extension: '.heapprofile',
      progress: 'allocation profile',
      moved: 'the allocated bytes',
      of: 'allocated bytes',
      diffs: allocationDiffs,
      async take(arm, caseId, variantId, file) {
        const result = await profileAllocations({ arm, caseId, outPath: join(dir, file), ...signal });
        allocations.push(allocationEntry(caseId, variantId, result, file));
        const title = `${caseId} · ${variantId} · allocations`;
        if (result.status !== 'ok') return { text: `${title}: no allocation profile (${result.status}: ${result.reason})` };
        return { text: renderAllocTop(result.summary, { top: TOP, title, note: result.method, format: options.format }), summary: result.summary };
      },
    });
  }
  if (kinds.includes('native') && !options.signal?.aborted) {
    const perf = findPerf();
    out.push(options.format === 'markdown' ? `## Native profiles (${dir})` : `Native profiles: ${dir} (perf; the engine's own C++ frames beside the JIT's; open a .native.cpuprofile in speedscope or Chrome DevTools)`);
    await takeAll({
      extension: '.native.cpuprofile',
      progress: 'native profile',
      moved: 'the time',
      diffs: nativeDiffs,
      async take(arm, caseId, variantId, file) {
        const result = await profileNative({ arm, caseId, perf, outPath: join(dir, file), ...signal });
        native.push(manifestEntry(caseId, variantId, result, file));
        const title = `${caseId} · ${variantId} · native`;
        if (result.status !== 'ok') return { text: `${title}: no native profile (${result.status}: ${result.reason})` };
        const r = result.resolution;
        const note = `${r.samples} samples every ${r.periodUs} µs of CPU (${r.otherThreadSamples} more on other threads, not shown)${r.unresolvedShare > 0 ? `; ${(r.unresolvedShare * 100).toFixed(1)}% without a symbol, grouped by library` : ''}. ${r.note}`;
        return { text: renderTop(result.summary, { top: TOP, title, note, format: options.format }), summary: result.summary };
      },
    });
  }
  return printable(out.join('\n\n')) + '\n';
}

/** How profileRun takes one kind of profile (CPU, allocations). */
interface ProfileSteps {
  /** The profile file's extension. */
  extension: string;
  /** The progress line's verb, before "<variant> · <case>". */
  progress: string;
  /** What a comparison's diff is of, in its title ("where the time moved"). */
  moved: string;
  /** What the shares are of, when not self time (renderDiff's `of`). */
  of?: string;
  /** Where the comparison diffs go in the manifest. */
  diffs: ProfileDiffEntry[];
  /** Profiles one case × arm into `file` and records its manifest entry; its text, and its summary when there is a profile. */
  take(arm: ProfileArm, caseId: string, variantId: string, file: string): Promise<{ text: string; summary?: Shares }>;
}

/**
 * The profiles manifest beside a saved run, for its HTML report: undefined
 * when there is none; when it cannot be used (unreadable, not a manifest,
 * taken after another run), undefined and a one-line warning.
 */
export function loadProfileManifest(runPath: string, runId: string, warn: (line: string) => void): ProfileManifest | undefined {
  const file = join(profilesDir(runPath), PROFILE_MANIFEST_FILE);
  if (!existsSync(file)) return undefined;
  let manifest: ProfileManifest;
  try {
    manifest = parseProfileManifest(JSON.parse(readFileSync(file, 'utf8')), file);
  } catch (error) {
    warn(`the HTML report has no flame graphs: ${error instanceof SyntaxError ? `${file} is not JSON` : (error as Error).message}`);
    return undefined;
  }
  if (manifest.runId !== runId) {
    warn(`the HTML report has no flame graphs: ${file} was taken after run ${manifest.runId}, not this one (${runId})`);
    return undefined;
  }
  return manifest;
}
