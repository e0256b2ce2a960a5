/**
 * The call trees of `--profile` (CPU time or allocated bytes), as plain
 * declarations and one accessor, without zod: the HTML page's script imports
 * this module, and everything it imports is bundled into every page. The
 * manifest's schemas for these shapes are in profile-manifest.ts.
 */

/** Where a frame's time is put (packages/profile/README.md, "Categories"). */
export const PROFILE_CATEGORIES = ['benchmark', 'harness', 'runtime', 'engine', 'gc', 'idle'] as const;
export type ProfileCategory = (typeof PROFILE_CATEGORIES)[number];

/**
 * What a call tree's frames weigh: time (CPU profiles, `…Ms` fields, ms of
 * the sampling phase) or allocated bytes (allocation profiles, `…Bytes`
 * fields, V8's estimate from its samples). One shape, its amounts named by
 * the unit, so a CPU tree of an older manifest reads as before.
 */
export const CALL_TREE_UNITS = ['Ms', 'Bytes'] as const;
export type CallTreeUnit = (typeof CALL_TREE_UNITS)[number];

/** A frame's amounts in unit U: `selfMs`/`totalMs`/`foldedMs?` or `selfBytes`/`totalBytes`/`foldedBytes?`. */
export type CallTreeAmounts<U extends CallTreeUnit> = {
  /** With this frame on top of the stack. */
  [K in `self${U}`]: number;
} & {
  /** With this frame on the stack (self + every callee). */
  [K in `total${U}`]: number;
} & {
  /** In callees too small to keep (below the tree's `minShare`), not drawn as frames of their own. */
  [K in `folded${U}`]?: number;
};

/**
 * One frame of a call tree: one function at one place in the stack. Frames
 * of the same function under the same parent are one node (merged by name,
 * mapped source location and category), so a node's children are distinct
 * functions.
 */
export type CallTreeNode<U extends CallTreeUnit = 'Ms'> = {
  name: string;
  /** `source:line` (mapped through the bundle's source map); absent for native code. */
  location?: string;
  category: ProfileCategory;
  children: CallTreeNode<U>[];
} & CallTreeAmounts<U>;

export type CallTree<U extends CallTreeUnit = 'Ms'> = {
  /** Samples the tree was built from (CPU samples, or the heap profile's allocation samples). */
  samples: number;
  /** Frames whose total share was below this (0..1) were folded into their parent. */
  minShare: number;
  /** Nodes in the tree (root included). */
  nodes: number;
  root: CallTreeNode<U>;
} & {
  /** What the samples cover (the root's total): ms, or bytes. */
  [K in `total${U}`]: number;
};

/** A frame's (or a tree's) self, total or folded amount in its tree's unit (0 for nothing folded). */
export function treeAmount<U extends CallTreeUnit, W extends 'self' | 'total' | 'folded'>(node: { [K in `${W}${U}`]?: number }, which: W, unit: U): number {
  return (node as unknown as Record<string, number | undefined>)[`${which}${unit}`] ?? 0;
}


/** Bytes in powers of 1024, as every report writes them (GC metrics, allocation profiles, the page): "51.1 KB". */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${units[unit]}`;
}
