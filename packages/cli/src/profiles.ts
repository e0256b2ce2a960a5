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
  renderAllocTop,
  renderDiff,
  renderTop,
  type AllocationCaseResult,
  type ProfileCaseResult,
} from '@rtbench/profile';
import { parseProfileManifest, PROFILE_MANIFEST_FILE, type AllocationEntry, type ProfileDiffEntry, type ProfileEntry, type ProfileManifest } from '@rtbench/core/profile-manifest';
import { UsageError } from './errors.ts';
import { printable } from '@rtbench/report';
import type { CaseListing } from '@rtbench/core/protocol';
import { bundleSuite } from './bundle.ts';
import { writeFileAtomically } from './results-file.ts';
import type { SuiteLocation } from './suites.ts';
import { isResolved, type ResolvedVariant, type UnavailableVariant } from './variants.ts';

/** Functions shown per case × variant. */
const TOP = 8;

/** A file-name-safe slug of a case or variant id. */
const slug = (text: string): string => text.replace(/[^\w.@=-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 80) || 'case';

/** What --profile takes: CPU time, allocations. */
export const PROFILE_KINDS = ['cpu', 'alloc'] as const;
export type ProfileKind = (typeof PROFILE_KINDS)[number];

/** `--profile` alone is CPU (as before allocation profiles); `--profile alloc`, `--profile cpu,alloc`. */
export function parseProfileKinds(value: string | true): ProfileKind[] {
  if (value === true) return ['cpu'];
  const kinds: ProfileKind[] = [];
  for (const part of value.split(',').map((p) => p.trim().toLowerCase())) {
    const kind = part === 'cpu' ? 'cpu' : part === 'alloc' || part === 'allocations' || part === 'heap' ? 'alloc' : undefined;
    if (!kind) throw new UsageError(`--profile takes ${PROFILE_KINDS.join(', ')} or both comma-separated (got ${JSON.stringify(part)}); --profile alone is cpu`);
    if (!kinds.includes(kind)) kinds.push(kind);
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
  // Written after every case × variant: a profiling run cut short keeps what it took.
  const saveManifest = (): void => writeFileAtomically(join(dir, PROFILE_MANIFEST_FILE), `${JSON.stringify(profileManifest(options.runId, entries, diffs, allocations, allocationDiffs))}\n`);
  const arms = variants.filter(isResolved);
  const bundles = new Map<string, string>();
  for (const v of arms) if (!bundles.has(v.runner.runtime)) bundles.set(v.runner.runtime, (await bundleSuite(suite.entry, suite.name, v.runner.runtime, v.runner.bundle)).path);
  const out: string[] = [];
  if (kinds.includes('cpu')) {
    out.push(options.format === 'markdown' ? `## CPU profiles (${dir})` : `CPU profiles: ${dir} (open a .cpuprofile in Chrome DevTools or speedscope)`);
    const stopped = await cpuProfiles();
    if (stopped) return printable(out.join('\n\n')) + '\n';
  }
  if (kinds.includes('alloc')) {
    out.push(options.format === 'markdown' ? `## Allocation profiles (${dir})` : `Allocation profiles: ${dir} (open a .heapprofile in Chrome DevTools' Memory panel or speedscope)`);
    await allocationProfiles();
  }
  return printable(out.join('\n\n')) + '\n';

  /** The CPU profiles; true when stopped (Ctrl-C). */
  async function cpuProfiles(): Promise<boolean> {
    for (const c of suite.cases) {
      const results: { variant: ResolvedVariant; result: ProfileCaseResult }[] = [];
      for (const v of arms) {
        if (options.signal?.aborted) return true;
        options.onProgress?.(`profiling ${v.spec.id} · ${c.id}`);
        const arm = { runner: v.runner, target: v.target, flags: v.flags, bundlePath: bundles.get(v.runner.runtime)! };
        const file = `${slug(c.id)}--${slug(v.spec.id)}.cpuprofile`;
        const result = await profileCase({ arm, caseId: c.id, outPath: join(dir, file), ...(options.signal ? { signal: options.signal } : {}) });
        results.push({ variant: v, result });
        entries.push(manifestEntry(c.id, v.spec.id, result, file));
        saveManifest();
        const title = `${c.id} · ${v.spec.id}`;
        if (result.status === 'ok') out.push(renderTop(result.summary, { top: TOP, title, note: result.method, format: options.format }));
        else out.push(`${title}: no profile (${result.status}: ${'reason' in result ? result.reason : ''})`);
      }
      if (!options.compare) continue;
      const [base, ...others] = results;
      for (const other of others) {
        if (base?.result.status !== 'ok' || other.result.status !== 'ok') continue;
        const diff = diffProfiles(base.result.summary, other.result.summary);
        diffs.push(manifestDiff(c.id, base.variant.spec.id, other.variant.spec.id, diff));
        saveManifest();
        out.push(renderDiff(diff, { top: TOP, a: base.variant.spec.id, b: other.variant.spec.id, title: `${c.id}: where the time moved, ${base.variant.spec.id} → ${other.variant.spec.id}`, format: options.format }));
      }
    }
    return false;
  }

  /** The allocation profiles, after the CPU ones (each in a process of its own). */
  async function allocationProfiles(): Promise<void> {
    for (const c of suite.cases) {
      const results: { variant: ResolvedVariant; result: AllocationCaseResult }[] = [];
      for (const v of arms) {
        if (options.signal?.aborted) return;
        options.onProgress?.(`allocation profile ${v.spec.id} · ${c.id}`);
        const arm = { runner: v.runner, target: v.target, flags: v.flags, bundlePath: bundles.get(v.runner.runtime)! };
        const file = `${slug(c.id)}--${slug(v.spec.id)}.heapprofile`;
        const result = await profileAllocations({ arm, caseId: c.id, outPath: join(dir, file), ...(options.signal ? { signal: options.signal } : {}) });
        results.push({ variant: v, result });
        allocations.push(allocationEntry(c.id, v.spec.id, result, file));
        saveManifest();
        const title = `${c.id} · ${v.spec.id} · allocations`;
        if (result.status === 'ok') out.push(renderAllocTop(result.summary, { top: TOP, title, note: result.method, format: options.format }));
        else out.push(`${title}: no allocation profile (${result.status}: ${result.reason})`);
      }
      if (!options.compare) continue;
      const [base, ...others] = results;
      for (const other of others) {
        if (base?.result.status !== 'ok' || other.result.status !== 'ok') continue;
        const diff = diffProfiles(base.result.summary, other.result.summary);
        allocationDiffs.push(manifestDiff(c.id, base.variant.spec.id, other.variant.spec.id, diff));
        saveManifest();
        out.push(renderDiff(diff, { top: TOP, of: 'allocated bytes', a: base.variant.spec.id, b: other.variant.spec.id, title: `${c.id}: where the allocated bytes moved, ${base.variant.spec.id} → ${other.variant.spec.id}`, format: options.format }));
      }
    }
  }
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
