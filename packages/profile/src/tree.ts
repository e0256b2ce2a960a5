/**
 * A profile as a compact call tree, for the HTML report's flame graphs:
 * frames merged by function along the stack (a function called from the same
 * caller by two lines of it, or reached through two profile nodes of one
 * function, is one frame), and frames with less than a small share of the
 * weight folded into their parent, so the tree stays a few hundred nodes
 * however large the profile is. The weight is the samples' time for a CPU
 * profile (callTree) and the bytes allocated for a heap profile
 * (allocationTree): one builder, one shape (CallTree<'Ms' | 'Bytes'>).
 */
import { type CallTree, type CallTreeNode, type CallTreeUnit } from '@rtbench/core/profile-manifest';
import { allocationFrames } from './alloc-summary.ts';
import { indexNodes, type CpuProfile } from './cpuprofile.ts';
import { flattenHeapProfile, type HeapProfile } from './heapprofile.ts';
import { bundleLocator, type FrameLocator } from './source-map.ts';
import { nodeFrames, sampleWeights, type NodeFrame, type NodeFramesOptions } from './summary.ts';

/** Frames below this share of the profile's weight are folded into their parent. */
const DEFAULT_TREE_MIN_SHARE = 0.002;
/** At most this many nodes: the cut-off is raised until the tree fits. */
const DEFAULT_TREE_MAX_NODES = 400;

export interface CallTreeOptions {
  /** As for summarize(): the bundle, for source locations and categories. */
  bundlePath?: string;
  locate?: FrameLocator;
  /** How frames are named and categorised (native profiles: their own categories). */
  frames?: NodeFramesOptions;
  minShare?: number;
  maxNodes?: number;
}

/** A merged frame while the tree is built: weights in the profile's own unit (µs, bytes), children by function key. */
interface Building {
  frame: NodeFrame;
  self: number;
  total: number;
  children: Map<string, Building>;
}

const ROOT_FRAME: NodeFrame = { key: '(root)', name: '(root)', category: 'engine' };

/** Milliseconds to the microsecond: the tree is written to a file and a page. */
const ms = (us: number): number => Math.round(us) / 1000;
/** Bytes to the byte (V8's estimates are whole already; sums of them stay so). */
const bytes = (b: number): number => Math.round(b);

/** The CPU profile's sampling phase as a tree of time, in ms. */
export function callTree(profile: CpuProfile, options: CallTreeOptions = {}): CallTree<'Ms'> {
  const locate = options.locate ?? bundleLocator(options.bundlePath);
  const { byId } = indexNodes(profile);
  const weights = sampleWeights(profile);
  // Self time of each profile node, in µs.
  const selfOfNode = new Map<number, number>();
  profile.samples.forEach((leaf, i) => {
    if (byId.has(leaf)) selfOfNode.set(leaf, (selfOfNode.get(leaf) ?? 0) + weights[i]!);
  });
  return buildTree(profile, nodeFrames(profile, locate, options.frames), selfOfNode, profile.samples.length, 'Ms', ms, options);
}

/**
 * The heap profile as a tree of allocated bytes: the profile's own tree
 * (each node's `selfSize`), its frames named and categorised as
 * summarizeAllocations names them (the harness's timed loop that the case's
 * code was inlined into is the case's, alloc-summary.ts).
 */
export function allocationTree(profile: HeapProfile, options: CallTreeOptions = {}): CallTree<'Bytes'> {
  const locate = options.locate ?? bundleLocator(options.bundlePath);
  const { nodes, selfBytes } = flattenHeapProfile(profile);
  return buildTree({ nodes }, allocationFrames({ nodes }, locate), selfBytes, profile.samples.length, 'Bytes', bytes, options);
}

function buildTree<U extends CallTreeUnit>(
  profile: Pick<CpuProfile, 'nodes'>,
  frames: ReadonlyMap<number, NodeFrame>,
  selfOfNode: ReadonlyMap<number, number>,
  samples: number,
  unit: U,
  round: (weight: number) => number,
  options: CallTreeOptions,
): CallTree<U> {
  const minShare = options.minShare ?? DEFAULT_TREE_MIN_SHARE;
  const maxNodes = Math.max(1, options.maxNodes ?? DEFAULT_TREE_MAX_NODES);
  const { byId, parent } = indexNodes(profile);

  // Merge along the stack: the profile's root is the tree's root; each profile node joins its parent's child of the same function.
  const root: Building = { frame: ROOT_FRAME, self: 0, total: 0, children: new Map() };
  const built = new Map<number, Building>();
  const roots = profile.nodes.filter((n) => !parent.has(n.id));
  const stack: { id: number; into: Building }[] = [];
  for (const r of roots) {
    // A profile has one root ('(root)'); anything else at the top is a child of the tree's root.
    if (frames.get(r.id)?.name === '(root)') {
      built.set(r.id, root);
      root.self += selfOfNode.get(r.id) ?? 0;
      for (const child of byId.get(r.id)?.children ?? []) stack.push({ id: child, into: root });
    } else stack.push({ id: r.id, into: root });
  }
  while (stack.length) {
    const { id, into } = stack.pop()!;
    const frame = frames.get(id);
    if (!frame || built.has(id)) continue;
    let node = into.children.get(frame.key);
    if (!node) {
      node = { frame, self: 0, total: 0, children: new Map() };
      into.children.set(frame.key, node);
    }
    built.set(id, node);
    node.self += selfOfNode.get(id) ?? 0;
    for (const child of byId.get(id)?.children ?? []) stack.push({ id: child, into: node });
  }
  const sumTotals = (node: Building): number => {
    let total = node.self;
    for (const child of node.children.values()) total += sumTotals(child);
    node.total = total;
    return total;
  };
  const total = sumTotals(root);

  // Fold at the share asked for; if the tree is still too large, raise the cut-off until it fits.
  let cutoff = minShare;
  let tree = fold(root, cutoff * total, unit, round);
  while (tree.count > maxNodes && cutoff < 1) {
    cutoff = Math.min(1, Math.max(cutoff * 1.5, 1e-4));
    tree = fold(root, cutoff * total, unit, round);
  }
  return { [`total${unit}`]: round(total), samples, minShare: cutoff, nodes: tree.count, root: tree.node } as CallTree<U>;
}

/** The tree with every frame under `limit` folded into its parent (the root is always kept). */
function fold<U extends CallTreeUnit>(root: Building, limit: number, unit: U, round: (weight: number) => number): { node: CallTreeNode<U>; count: number } {
  let count = 0;
  const visit = (b: Building): CallTreeNode<U> => {
    count++;
    let folded = 0;
    const children: CallTreeNode<U>[] = [];
    // Largest first: the flame graph's left-to-right order.
    const sorted = [...b.children.values()].sort((x, y) => y.total - x.total || x.frame.key.localeCompare(y.frame.key));
    for (const child of sorted) {
      if (child.total <= 0) continue;
      if (child.total < limit) folded += child.total;
      else children.push(visit(child));
    }
    return {
      name: b.frame.name,
      ...(b.frame.location ? { location: b.frame.location } : {}),
      category: b.frame.category,
      [`self${unit}`]: round(b.self),
      [`total${unit}`]: round(b.total),
      ...(folded > 0 ? { [`folded${unit}`]: round(folded) } : {}),
      children,
    } as CallTreeNode<U>;
  };
  const node = visit(root);
  return { node, count };
}
