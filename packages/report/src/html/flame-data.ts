/**
 * The flame graphs' page data, from the profiles a view carries
 * (`--profile`, read by the CLI from `<run>.profiles/profiles.json`): per
 * case × variant its call tree — of time for CPU profiles, of allocated
 * bytes for allocation profiles (`--profile alloc`) — and for a comparison
 * each other arm's tree with every frame matched to the baseline's frame at
 * the same call path, so the page can colour it by how its share of the time
 * (or of the bytes) moved. The texts of the top-movers table are formatted
 * here, like every other text of the page.
 */
import { PROFILE_CATEGORIES, treeAmount, type CallTree, type CallTreeNode, type CallTreeUnit, type ProfileCategory } from '@rtbench/core/call-tree';
import type { ProfileDiffEntry, ProfileManifest } from '@rtbench/core/profile-manifest';
import { formatPercent } from '../format.ts';
import type { RunView } from '../views/types.ts';

/** A frame of the differential view: the other arm's frame, with the baseline's share at the same call path. */
export type DiffFrame<U extends CallTreeUnit = 'Ms'> = Omit<CallTreeNode<U>, 'children'> & DiffShares<U>;

interface DiffShares<U extends CallTreeUnit> {
  /** Share (0..1) of the arm's time (or bytes) with this frame on the stack, and on top of it. */
  share: number;
  selfShare: number;
  /**
   * The baseline's shares at the same call path: 0 where the baseline has no
   * such frame; absent where its tree folded that path away (it was below the
   * baseline tree's cut-off, `PageFlameDiff.baseMinShare`).
   */
  baseShare?: number;
  baseSelfShare?: number;
  children: DiffFrame<U>[];
}

export interface PageFlame<U extends CallTreeUnit = 'Ms'> {
  caseKey: string;
  variantKey: string;
  status: 'ok' | 'unavailable' | 'unsupported' | 'failed';
  reason?: string;
  /** How the profile was taken; the profile's file. */
  method?: string;
  file?: string;
  tree?: CallTree<U>;
  /** "benchmark 78% · engine 12% · gc 3%" */
  categoriesText?: string;
  /** Allocation profiles: calls of the case while the profiler ran, for bytes per call. */
  ops?: number;
  /** Native profiles: what perf resolved and the samples behind the shares, one line. */
  resolutionText?: string;
}

interface PageMover {
  name: string;
  location?: string;
  category: ProfileCategory;
  /** "12.3%", "+4.5 pt" */
  baseText: string;
  otherText: string;
  deltaText: string;
  delta: number;
}

export type PageFlameDiff<U extends CallTreeUnit = 'Ms'> = {
  caseKey: string;
  baselineKey: string;
  candidateKey: string;
  /** The candidate's tree, matched to the baseline's. */
  root: DiffFrame<U>;
  baseMinShare: number;
  /** The functions whose share of self time (or self bytes) moved most (diffProfiles). */
  movers: PageMover[];
  /** Allocation profiles: the candidate's calls of the case while the profiler ran. */
  ops?: number;
} & {
  /** The candidate's tree's total (totalMs, totalBytes). */
  [K in `total${U}`]: number;
};

/** Allocation profiles (`--profile alloc`): the same as CPU ones, in bytes. */
interface PageAllocations {
  flames: PageFlame<'Bytes'>[];
  diffs: PageFlameDiff<'Bytes'>[];
}

export interface PageProfiles {
  /** Profile files are in this folder (beside the run). */
  folder?: string;
  flames: PageFlame[];
  diffs: PageFlameDiff[];
  /** Absent when the run took no allocation profiles. */
  allocations?: PageAllocations;
  /** Native profiles (`--profile native`, perf): trees of time like the CPU ones; absent when the run took none. */
  native?: { flames: PageFlame[]; diffs: PageFlameDiff[] };
}

/** How the page addresses cases and variants (page-data.ts's keys), by id. */
interface PageKeys {
  caseKey: (caseId: string) => string | undefined;
  variantKey: (variantId: string) => string | undefined;
}

/** "benchmark 78% · engine 12%": categories with time, largest first. */
function categoriesText(byCategory: Partial<Record<ProfileCategory, { share: number }>>): string {
  return PROFILE_CATEGORIES.filter((c) => (byCategory[c]?.share ?? 0) > 0)
    .sort((a, b) => byCategory[b]!.share - byCategory[a]!.share)
    .map((c) => `${c} ${formatPercent(byCategory[c]!.share)}`)
    .join(' · ');
}

/** "+4.5 pt", "−0.3 pt", "+0.04 pt": a change of share in percentage points. */
export function formatPoints(delta: number): string {
  const pt = Math.abs(delta * 100);
  return `${delta < 0 ? '−' : '+'}${pt !== 0 && pt < 0.1 ? pt.toPrecision(1) : pt >= 9.95 ? pt.toFixed(0) : pt.toFixed(1)} pt`;
}

/** Movers listed: the table shows moves of at least this share (one profile per arm: smaller ones are noise). */
const MIN_MOVE = 0.001;

const frameKey = (n: Pick<CallTreeNode, 'name' | 'location' | 'category'>): string => `${n.name}\u0000${n.location ?? ''}\u0000${n.category}`;

/**
 * The candidate's tree with the baseline's share of every frame at the same
 * call path (the same functions from the root down). A path the baseline's
 * tree folded (its last frame there has `foldedMs`/`foldedBytes`) has no
 * known share. `unit`: the trees' unit ('Ms' for CPU trees, the default).
 */
export function diffTree<U extends CallTreeUnit = 'Ms'>(base: CallTree<U>, other: CallTree<U>, unit: U = 'Ms' as U): DiffFrame<U> {
  const of = (n: CallTreeNode<U>, which: 'self' | 'total' | 'folded'): number => treeAmount(n, which, unit);
  const baseTotal = treeAmount(base, 'total', unit) || 1;
  const otherTotal = treeAmount(other, 'total', unit) || 1;
  // match: the baseline's node at this path; 'folded' below a baseline frame that folded callees; 'absent' where it had none.
  const visit = (node: CallTreeNode<U>, match: CallTreeNode<U> | 'folded' | 'absent'): DiffFrame<U> => {
    const known = typeof match === 'object';
    const children = node.children.map((child) => {
      if (!known) return visit(child, match);
      const found = match.children.find((c) => frameKey(c) === frameKey(child));
      return visit(child, found ?? (of(match, 'folded') > 0 ? 'folded' : 'absent'));
    });
    return {
      name: node.name,
      ...(node.location ? { location: node.location } : {}),
      category: node.category,
      [`self${unit}`]: of(node, 'self'),
      [`total${unit}`]: of(node, 'total'),
      ...(of(node, 'folded') ? { [`folded${unit}`]: of(node, 'folded') } : {}),
      share: of(node, 'total') / otherTotal,
      selfShare: of(node, 'self') / otherTotal,
      ...(match === 'folded' ? {} : { baseShare: known ? of(match, 'total') / baseTotal : 0, baseSelfShare: known ? of(match, 'self') / baseTotal : 0 }),
      children,
    } as DiffFrame<U>;
  };
  return visit(other.root, base.root);
}

/** What a flame needs of a manifest entry (CPU and allocation entries both fit). */
interface FlameEntry<U extends CallTreeUnit> {
  caseId: string;
  variantId: string;
  status: PageFlame['status'];
  reason?: string | undefined;
  method?: string | undefined;
  file?: string | undefined;
  tree?: CallTree<U> | undefined;
  byCategory?: Partial<Record<ProfileCategory, { share: number }>> | undefined;
  /** An allocation entry's window has the case's calls (`ops`); a CPU entry's has none. */
  window?: object | undefined;
  /** A native entry's: what perf resolved. */
  resolution?: { periodUs: number; samples: number; otherThreadSamples: number; unresolvedShare: number; note: string } | undefined;
}

/** "1379 samples every 250 µs of CPU · 26 more on other threads, not drawn · 0.2% without a symbol, grouped by library · <what the runtime's binary resolves>" */
function resolutionText(r: NonNullable<FlameEntry<'Ms'>['resolution']>): string {
  return [
    `${r.samples} samples every ${r.periodUs} µs of CPU`,
    r.otherThreadSamples ? `${r.otherThreadSamples} more on other threads, not drawn` : '',
    r.unresolvedShare > 0 ? `${formatPercent(r.unresolvedShare)} of samples in code without a symbol, grouped by library` : 'every sample has a symbol',
    r.note,
  ]
    .filter(Boolean)
    .join(' · ');
}

function flamesOf<U extends CallTreeUnit>(entries: readonly FlameEntry<U>[], keys: PageKeys): PageFlame<U>[] {
  const flames: PageFlame<U>[] = [];
  for (const p of entries) {
    const caseKey = keys.caseKey(p.caseId);
    const variantKey = keys.variantKey(p.variantId);
    if (caseKey === undefined || variantKey === undefined) continue;
    flames.push({
      caseKey,
      variantKey,
      status: p.status,
      ...(p.reason !== undefined ? { reason: p.reason } : {}),
      ...(p.method !== undefined ? { method: p.method } : {}),
      ...(p.file !== undefined ? { file: p.file } : {}),
      ...(p.tree ? { tree: p.tree } : {}),
      ...(p.byCategory ? { categoriesText: categoriesText(p.byCategory) } : {}),
      ...(p.resolution ? { resolutionText: resolutionText(p.resolution) } : {}),
      ...(p.window && 'ops' in p.window && typeof p.window.ops === 'number' && p.window.ops > 0 ? { ops: p.window.ops } : {}),
    });
  }
  return flames;
}

function diffsOf<U extends CallTreeUnit>(entries: readonly ProfileDiffEntry[], flames: readonly PageFlame<U>[], keys: PageKeys, unit: U): PageFlameDiff<U>[] {
  const diffs: PageFlameDiff<U>[] = [];
  for (const d of entries) {
    const caseKey = keys.caseKey(d.caseId);
    const baselineKey = keys.variantKey(d.baseline);
    const candidateKey = keys.variantKey(d.candidate);
    const flameOf = (key: string | undefined): PageFlame<U> | undefined => flames.find((f) => f.caseKey === caseKey && f.variantKey === key);
    const candidate = flameOf(candidateKey);
    const [base, other] = [flameOf(baselineKey)?.tree, candidate?.tree];
    if (caseKey === undefined || baselineKey === undefined || candidateKey === undefined || !base || !other) continue;
    diffs.push({
      caseKey,
      baselineKey,
      candidateKey,
      root: diffTree(base, other, unit),
      [`total${unit}`]: treeAmount(other, 'total', unit),
      baseMinShare: base.minShare,
      ...(candidate?.ops ? { ops: candidate.ops } : {}),
      movers: d.movers.filter((m) => Math.abs(m.delta) >= MIN_MOVE).map((m) => ({
        name: m.name,
        ...(m.location !== undefined ? { location: m.location } : {}),
        category: m.category,
        baseText: formatPercent(m.aShare),
        otherText: formatPercent(m.bShare),
        deltaText: formatPoints(m.delta),
        delta: m.delta,
      })),
    } as PageFlameDiff<U>);
  }
  return diffs;
}

/** The page's profiles: undefined when the view has none. */
function pageProfiles(manifest: ProfileManifest | undefined, keys: PageKeys, folder?: string): PageProfiles | undefined {
  if (!manifest) return undefined;
  const flames = flamesOf<'Ms'>(manifest.profiles, keys);
  const diffs = diffsOf(manifest.diffs, flames, keys, 'Ms');
  let allocations: PageAllocations | undefined;
  // A profile of a manifest written before allocation trees existed has nothing to draw: left out (its text summary was printed).
  const allocFlames = flamesOf<'Bytes'>((manifest.allocations ?? []).filter((a) => a.status !== 'ok' || a.tree), keys);
  if (allocFlames.some((f) => f.tree)) allocations = { flames: allocFlames, diffs: diffsOf(manifest.allocationDiffs ?? [], allocFlames, keys, 'Bytes') };
  const nativeFlames = flamesOf<'Ms'>(manifest.native ?? [], keys);
  const native = nativeFlames.length ? { flames: nativeFlames, diffs: diffsOf(manifest.nativeDiffs ?? [], nativeFlames, keys, 'Ms') } : undefined;
  return { ...(folder !== undefined ? { folder } : {}), flames, diffs, ...(allocations ? { allocations } : {}), ...(native ? { native } : {}) };
}

/** The view's profiles keyed as page-data.ts keys its cases (by id) and variants (v0, v1, … in the view's order). */
export function profilesOfView(view: RunView, cases: readonly { key: string; id: string }[]): PageProfiles | undefined {
  if (!view.profiles) return undefined;
  const ids = ('arms' in view ? view.arms : view.variants).map((a) => a.id);
  const file = 'runs' in view ? view.runs[0]?.file : view.file;
  return pageProfiles(
    view.profiles,
    {
      caseKey: (id) => cases.find((c) => c.id === id)?.key,
      variantKey: (id) => (ids.includes(id) ? `v${ids.indexOf(id)}` : undefined),
    },
    file !== undefined ? `${file.replace(/\.json$/, '')}.profiles` : undefined,
  );
}
