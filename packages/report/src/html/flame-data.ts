/**
 * The flame graphs' page data, from the CPU profiles a view carries
 * (`--profile`, read by the CLI from `<run>.profiles/profiles.json`): per
 * case × variant its call tree, and for a comparison each other arm's tree
 * with every frame matched to the baseline's frame at the same call path, so
 * the page can colour it by how its share of the time moved. The texts of the
 * top-movers table are formatted here, like every other text of the page.
 */
import { PROFILE_CATEGORIES, type CallTree, type CallTreeNode, type ProfileCategory, type ProfileManifest } from '@rtbench/core/profile-manifest';
import { formatPercent } from '../format.ts';
import type { RunView } from '../views/types.ts';

/** A frame of the differential view: the other arm's frame, with the baseline's share at the same call path. */
export interface DiffFrame extends Omit<CallTreeNode, 'children'> {
  /** Share (0..1) of the arm's time with this frame on the stack, and on top of it. */
  share: number;
  selfShare: number;
  /**
   * The baseline's shares at the same call path: 0 where the baseline has no
   * such frame; absent where its tree folded that path away (it was below the
   * baseline tree's cut-off, `PageFlameDiff.baseMinShare`).
   */
  baseShare?: number;
  baseSelfShare?: number;
  children: DiffFrame[];
}

export interface PageFlame {
  caseKey: string;
  variantKey: string;
  status: 'ok' | 'unavailable' | 'unsupported' | 'failed';
  reason?: string;
  /** How the profile was taken; the profile's file. */
  method?: string;
  file?: string;
  tree?: CallTree;
  /** "benchmark 78% · engine 12% · gc 3%" */
  categoriesText?: string;
}

export interface PageMover {
  name: string;
  location?: string;
  category: ProfileCategory;
  /** "12.3%", "+4.5 pt" */
  baseText: string;
  otherText: string;
  deltaText: string;
  delta: number;
}

export interface PageFlameDiff {
  caseKey: string;
  baselineKey: string;
  candidateKey: string;
  /** The candidate's tree, matched to the baseline's. */
  root: DiffFrame;
  totalMs: number;
  baseMinShare: number;
  /** The functions whose share of self time moved most (diffProfiles). */
  movers: PageMover[];
}

export interface PageProfiles {
  /** Profile files are in this folder (beside the run). */
  folder?: string;
  flames: PageFlame[];
  diffs: PageFlameDiff[];
}

/** How the page addresses cases and variants (page-data.ts's keys), by id. */
export interface PageKeys {
  caseKey: (caseId: string) => string | undefined;
  variantKey: (variantId: string) => string | undefined;
}

/** "benchmark 78% · engine 12%": categories with time, largest first. */
export function categoriesText(byCategory: Partial<Record<ProfileCategory, { share: number }>>): string {
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
export const MIN_MOVE = 0.001;

const frameKey = (n: Pick<CallTreeNode, 'name' | 'location' | 'category'>): string => `${n.name}\u0000${n.location ?? ''}\u0000${n.category}`;

/**
 * The candidate's tree with the baseline's share of every frame at the same
 * call path (the same functions from the root down). A path the baseline's
 * tree folded (its last frame there has `foldedMs`) has no known share.
 */
export function diffTree(base: CallTree, other: CallTree): DiffFrame {
  const baseTotal = base.totalMs || 1;
  const otherTotal = other.totalMs || 1;
  // match: the baseline's node at this path; 'folded' below a baseline frame that folded callees; 'absent' where it had none.
  const visit = (node: CallTreeNode, match: CallTreeNode | 'folded' | 'absent'): DiffFrame => {
    const known = typeof match === 'object';
    const children = node.children.map((child) => {
      if (!known) return visit(child, match);
      const found = match.children.find((c) => frameKey(c) === frameKey(child));
      return visit(child, found ?? ((match.foldedMs ?? 0) > 0 ? 'folded' : 'absent'));
    });
    return {
      name: node.name,
      ...(node.location ? { location: node.location } : {}),
      category: node.category,
      selfMs: node.selfMs,
      totalMs: node.totalMs,
      ...(node.foldedMs ? { foldedMs: node.foldedMs } : {}),
      share: node.totalMs / otherTotal,
      selfShare: node.selfMs / otherTotal,
      ...(match === 'folded' ? {} : { baseShare: known ? match.totalMs / baseTotal : 0, baseSelfShare: known ? match.selfMs / baseTotal : 0 }),
      children,
    };
  };
  return visit(other.root, base.root);
}

/** The page's profiles: undefined when the view has none. */
export function pageProfiles(manifest: ProfileManifest | undefined, keys: PageKeys, folder?: string): PageProfiles | undefined {
  if (!manifest) return undefined;
  const flames: PageFlame[] = [];
  for (const p of manifest.profiles) {
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
    });
  }
  const diffs: PageFlameDiff[] = [];
  for (const d of manifest.diffs) {
    const caseKey = keys.caseKey(d.caseId);
    const baselineKey = keys.variantKey(d.baseline);
    const candidateKey = keys.variantKey(d.candidate);
    const treeOf = (key: string | undefined): CallTree | undefined => flames.find((f) => f.caseKey === caseKey && f.variantKey === key)?.tree;
    const [base, other] = [treeOf(baselineKey), treeOf(candidateKey)];
    if (caseKey === undefined || baselineKey === undefined || candidateKey === undefined || !base || !other) continue;
    diffs.push({
      caseKey,
      baselineKey,
      candidateKey,
      root: diffTree(base, other),
      totalMs: other.totalMs,
      baseMinShare: base.minShare,
      movers: d.movers.filter((m) => Math.abs(m.delta) >= MIN_MOVE).map((m) => ({
        name: m.name,
        ...(m.location !== undefined ? { location: m.location } : {}),
        category: m.category,
        baseText: formatPercent(m.aShare),
        otherText: formatPercent(m.bShare),
        deltaText: formatPoints(m.delta),
        delta: m.delta,
      })),
    });
  }
  return { ...(folder !== undefined ? { folder } : {}), flames, diffs };
}

/** The view's profiles keyed as page-data.ts keys its cases (by id) and variants (v0, v1, … in the view's order). */
export function profilesOfView(view: RunView, cases: readonly { key: string; id: string }[]): PageProfiles | undefined {
  if (!view.profiles) return undefined;
  const ids = view.kind === 'bench' ? view.variants.map((v) => v.id) : view.arms.map((a) => a.id);
  const file = view.kind === 'bench' ? view.file : view.runs[0]?.file;
  return pageProfiles(
    view.profiles,
    {
      caseKey: (id) => cases.find((c) => c.id === id)?.key,
      variantKey: (id) => (ids.includes(id) ? `v${ids.indexOf(id)}` : undefined),
    },
    file !== undefined ? `${file.replace(/\.json$/, '')}.profiles` : undefined,
  );
}
