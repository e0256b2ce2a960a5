/**
 * A profile as a compact call tree, for the HTML report's flame graphs:
 * frames merged by function along the stack (a function called from the same
 * caller by two lines of it, or reached through two profile nodes of one
 * function, is one frame), and frames with less than a small share of the
 * time folded into their parent, so the tree stays a few hundred nodes
 * however large the profile is.
 */
import type { CallTree, CallTreeNode } from '@rtbench/core/profile-manifest';
import { indexNodes, type CpuProfile } from './cpuprofile.ts';
import { bundleLocator, type FrameLocator } from './source-map.ts';
import { nodeFrames, sampleWeights, type NodeFrame } from './summary.ts';

/** Frames below this share of the profile's time are folded into their parent. */
export const DEFAULT_TREE_MIN_SHARE = 0.002;
/** At most this many nodes: the cut-off is raised until the tree fits. */
export const DEFAULT_TREE_MAX_NODES = 400;

export interface CallTreeOptions {
  /** As for summarize(): the bundle, for source locations and categories. */
  bundlePath?: string;
  locate?: FrameLocator;
  minShare?: number;
  maxNodes?: number;
}

/** A merged frame while the tree is built: times in µs, children by function key. */
interface Building {
  frame: NodeFrame;
  selfUs: number;
  totalUs: number;
  children: Map<string, Building>;
}

const ROOT_FRAME: NodeFrame = { key: '(root)', name: '(root)', category: 'engine' };

/** Milliseconds to the microsecond: the tree is written to a file and a page. */
const ms = (us: number): number => Math.round(us) / 1000;

export function callTree(profile: CpuProfile, options: CallTreeOptions = {}): CallTree {
  const locate = options.locate ?? bundleLocator(options.bundlePath);
  const minShare = options.minShare ?? DEFAULT_TREE_MIN_SHARE;
  const maxNodes = Math.max(1, options.maxNodes ?? DEFAULT_TREE_MAX_NODES);
  const frames = nodeFrames(profile, locate);
  const { byId, parent } = indexNodes(profile);
  const weights = sampleWeights(profile);

  // Self time of each profile node, in µs.
  const selfOfNode = new Map<number, number>();
  let totalUs = 0;
  profile.samples.forEach((leaf, i) => {
    if (!byId.has(leaf)) return;
    selfOfNode.set(leaf, (selfOfNode.get(leaf) ?? 0) + weights[i]!);
    totalUs += weights[i]!;
  });

  // Merge along the stack: the profile's root is the tree's root; each profile node joins its parent's child of the same function.
  const root: Building = { frame: ROOT_FRAME, selfUs: 0, totalUs: 0, children: new Map() };
  const built = new Map<number, Building>();
  const roots = profile.nodes.filter((n) => !parent.has(n.id));
  const stack: { id: number; into: Building }[] = [];
  for (const r of roots) {
    // A profile has one root ('(root)'); anything else at the top is a child of the tree's root.
    if (frames.get(r.id)?.name === '(root)') {
      built.set(r.id, root);
      root.selfUs += selfOfNode.get(r.id) ?? 0;
      for (const child of byId.get(r.id)?.children ?? []) stack.push({ id: child, into: root });
    } else stack.push({ id: r.id, into: root });
  }
  while (stack.length) {
    const { id, into } = stack.pop()!;
    const frame = frames.get(id);
    if (!frame || built.has(id)) continue;
    let node = into.children.get(frame.key);
    if (!node) {
      node = { frame, selfUs: 0, totalUs: 0, children: new Map() };
      into.children.set(frame.key, node);
    }
    built.set(id, node);
    node.selfUs += selfOfNode.get(id) ?? 0;
    for (const child of byId.get(id)?.children ?? []) stack.push({ id: child, into: node });
  }
  const sumTotals = (node: Building): number => {
    let total = node.selfUs;
    for (const child of node.children.values()) total += sumTotals(child);
    node.totalUs = total;
    return total;
  };
  sumTotals(root);

  // Fold at the share asked for; if the tree is still too large, raise the cut-off until it fits.
  let cutoff = minShare;
  let tree = fold(root, cutoff * totalUs);
  while (tree.count > maxNodes && cutoff < 1) {
    cutoff = Math.min(1, Math.max(cutoff * 1.5, 1e-4));
    tree = fold(root, cutoff * totalUs);
  }
  return { totalMs: ms(totalUs), samples: profile.samples.length, minShare: cutoff, nodes: tree.count, root: tree.node };
}

/** The tree with every frame under `limitUs` folded into its parent (the root is always kept). */
function fold(root: Building, limitUs: number): { node: CallTreeNode; count: number } {
  let count = 0;
  const visit = (b: Building): CallTreeNode => {
    count++;
    let foldedUs = 0;
    const children: CallTreeNode[] = [];
    // Largest first: the flame graph's left-to-right order.
    const sorted = [...b.children.values()].sort((x, y) => y.totalUs - x.totalUs || x.frame.key.localeCompare(y.frame.key));
    for (const child of sorted) {
      if (child.totalUs <= 0) continue;
      if (child.totalUs < limitUs) foldedUs += child.totalUs;
      else children.push(visit(child));
    }
    return {
      name: b.frame.name,
      ...(b.frame.location ? { location: b.frame.location } : {}),
      category: b.frame.category,
      selfMs: ms(b.selfUs),
      totalMs: ms(b.totalUs),
      ...(foldedUs > 0 ? { foldedMs: ms(foldedUs) } : {}),
      children,
    };
  };
  const node = visit(root);
  return { node, count };
}
