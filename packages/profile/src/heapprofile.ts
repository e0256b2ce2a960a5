/**
 * The `.heapprofile` format: V8's sampling heap profile as the Chrome
 * DevTools Protocol returns it (`HeapProfiler.SamplingHeapProfile`, what
 * `HeapProfiler.stopSampling` answers and node's `--heap-prof` writes, and
 * what DevTools' Memory panel opens): a tree of call frames, each with the
 * bytes allocated with it on top of the stack (`selfSize`, V8's estimate of
 * the real bytes from its Poisson samples), and the samples themselves
 * (`size`, `nodeId`, `ordinal`: allocation order, no time).
 *
 * For the summaries and trees (summary.ts, tree.ts) the tree is flattened
 * into the `.cpuprofile`'s node list: ids, call frames, children by id.
 */
import type { CallFrame, ProfileNode } from './cpuprofile.ts';

export interface HeapProfileNode {
  callFrame: CallFrame;
  /** Bytes allocated at this frame (callees excluded). */
  selfSize: number;
  id: number;
  children: HeapProfileNode[];
}

interface HeapProfileSample {
  /** Bytes this sample stands for. */
  size: number;
  nodeId: number;
  /** Allocation order (monotonic); no timestamps. */
  ordinal: number;
}

export interface HeapProfile {
  head: HeapProfileNode;
  samples: HeapProfileSample[];
}

/** Checks the shape enough to read it; throws with what is wrong. */
export function parseHeapProfile(text: string, what = 'the heap profile'): HeapProfile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${what} is not JSON: ${(error as Error).message}`);
  }
  return checkHeapProfile(value, what);
}

export function checkHeapProfile(value: unknown, what = 'the heap profile'): HeapProfile {
  const p = value as Partial<HeapProfile> | undefined;
  const head = p?.head as Partial<HeapProfileNode> | undefined;
  if (!p || !head || typeof head.id !== 'number' || !head.callFrame || !Array.isArray(head.children)) {
    throw new Error(`${what} is not a sampling heap profile (head: { callFrame, selfSize, id, children })`);
  }
  return { head: p.head!, samples: Array.isArray(p.samples) ? p.samples : [] };
}

/** The tree as a flat node list (children by id), and each node's self bytes. */
export function flattenHeapProfile(profile: HeapProfile): { nodes: ProfileNode[]; selfBytes: Map<number, number> } {
  const nodes: ProfileNode[] = [];
  const selfBytes = new Map<number, number>();
  const stack: HeapProfileNode[] = [profile.head];
  while (stack.length) {
    const node = stack.pop()!;
    nodes.push({ id: node.id, callFrame: node.callFrame, children: node.children.map((c) => c.id) });
    if (node.selfSize > 0) selfBytes.set(node.id, (selfBytes.get(node.id) ?? 0) + node.selfSize);
    for (const child of node.children) stack.push(child);
  }
  return { nodes, selfBytes };
}
