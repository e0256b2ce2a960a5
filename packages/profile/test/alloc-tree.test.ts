/**
 * allocationTree on a small hand-made heap profile (no runtime started): the
 * heap profile's own tree by selfSize, frames of one function under one
 * caller merged, small frames folded into their caller, the node cap,
 * locations mapped and categories as summarizeAllocations gives them; and the
 * tree in the manifest's allocation entries (an older entry without one still
 * reads).
 */
import { describe, expect, it } from 'vitest';
import { parseProfileManifest, type CallTreeNode } from '@rtbench/core/profile-manifest';
import { allocationEntry, allocationTree, profileManifest, summarizeAllocations, type AllocationCaseResult, type HeapProfile } from '../src/index.ts';
import { cf, locate, node } from './heap-fixtures.ts';

/**
 * (root) ─ sample ─ runSync 1000 (the case inlined) ─ helper 5000 (line 10)
 *                                                  ─ helper 1000 (line 10 again: another node of the same function)
 *                                                  ─ tiny 10
 *                                                  ─ nextTick (node:internal) 490
 *        ─ (V8 API) 2500
 */
function handMade(helperBytes = 5000): HeapProfile {
  return {
    head: node(1, cf('(root)'), 0, [
      node(2, cf('sample', 'h:measure.ts', 277), 0, [
        node(3, cf('runSync', 'h:measure.ts', 71), 1000, [
          node(4, cf('helper', 'b:index.ts', 9), helperBytes),
          node(5, cf('helper', 'b:index.ts', 9), 1000),
          node(6, cf('tiny', 'b:index.ts', 50), 10),
          node(7, cf('nextTick', 'node:internal/process', 40), 490),
        ]),
      ]),
      node(8, cf('(V8 API)'), 2500),
    ]),
    samples: [1, 2, 3].map((ordinal) => ({ size: 1000, nodeId: 4, ordinal })),
  };
}

const find = (n: CallTreeNode<'Bytes'>, name: string): CallTreeNode<'Bytes'> | undefined => (n.name === name ? n : n.children.map((c) => find(c, name)).find(Boolean));

/** Every node's total = self + folded + its children's totals. */
function consistent(n: CallTreeNode<'Bytes'>): boolean {
  return n.selfBytes + (n.foldedBytes ?? 0) + n.children.reduce((s, c) => s + c.totalBytes, 0) === n.totalBytes && n.children.every(consistent);
}

describe('allocationTree', () => {
  it('builds the heap profile\'s tree in bytes: one frame per function under a caller, largest first, located and categorised as the summary does', () => {
    const tree = allocationTree(handMade(), { locate, minShare: 0 });
    expect(tree.totalBytes).toBe(10_000);
    expect(tree.samples).toBe(3);
    expect(tree.nodes).toBe(7);
    expect(tree.root).toMatchObject({ name: '(root)', selfBytes: 0, totalBytes: 10_000 });
    expect(tree.root.children.map((c) => [c.name, c.totalBytes])).toEqual([
      ['sample', 7500],
      ['(V8 API)', 2500],
    ]);
    const loop = find(tree.root, 'runSync (case code inlined into it)')!;
    expect([loop.category, loop.location, loop.selfBytes, loop.totalBytes]).toEqual(['benchmark', 'packages/core/src/measure.ts:72', 1000, 7500]);
    // Nodes 4 and 5 are one frame; children largest first.
    expect(loop.children.map((c) => c.name)).toEqual(['helper', 'nextTick', 'tiny']);
    expect(loop.children[0]).toMatchObject({ name: 'helper', location: 'bench/x/index.ts:10', category: 'benchmark', selfBytes: 6000, totalBytes: 6000 });
    expect(find(tree.root, 'nextTick')!.category).toBe('runtime');
    expect(find(tree.root, 'sample')!.category).toBe('harness');
    expect(consistent(tree.root)).toBe(true);
    // The same functions, categories and self bytes as the allocation summary.
    const summary = summarizeAllocations(handMade(), { locate });
    expect(summary.functions.find((f) => f.name === 'helper')).toMatchObject({ category: 'benchmark', location: 'bench/x/index.ts:10', selfBytes: 6000 });
  });

  it('folds frames under the share into their caller, as folded bytes, not self', () => {
    const tree = allocationTree(handMade(), { locate, minShare: 0.01 });
    const loop = find(tree.root, 'runSync (case code inlined into it)')!;
    expect(loop.children.map((c) => c.name)).toEqual(['helper', 'nextTick']);
    expect(loop.foldedBytes).toBe(10);
    expect(loop.selfBytes).toBe(1000);
    expect(loop.totalBytes).toBe(7500);
    expect(tree.nodes).toBe(6);
    expect(consistent(tree.root)).toBe(true);
  });

  it('caps the node count by raising the cut-off', () => {
    // 10 functions of 20 KB and 290 of 100 B under the root.
    const wide: HeapProfile = { head: node(1, cf('(root)'), 0, Array.from({ length: 300 }, (_, i) => node(i + 2, cf(`f${i}`, 'b:index.ts', i), i < 10 ? 20_000 : 100))), samples: [] };
    expect(allocationTree(wide, { locate, minShare: 0 }).nodes).toBe(301);
    const small = allocationTree(wide, { locate, minShare: 0, maxNodes: 50 });
    expect(small.nodes).toBe(11);
    expect(small.minShare).toBeGreaterThan(0);
    // The largest frames are the ones kept; the rest is the root's folded bytes.
    expect(small.root.children.map((c) => c.name).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `f${i}`).sort());
    expect(small.root.totalBytes).toBe(229_000);
    expect(small.root.foldedBytes).toBe(29_000);
    expect(consistent(small.root)).toBe(true);
  });
});

describe('allocation trees in the manifest', () => {
  const ok = (helperBytes: number): AllocationCaseResult => {
    const p = handMade(helperBytes);
    return {
      status: 'ok',
      path: '/x/c.heapprofile',
      method: 'V8 sampling heap profiler (inspector)',
      window: { method: 'lockstep', samples: 5, ops: 100, warmupBytes: 0 },
      summary: summarizeAllocations(p, { locate, ops: 100 }),
      tree: allocationTree(p, { locate }),
    };
  };

  it('stores the tree in each allocation entry, through JSON and its schema', () => {
    const manifest = profileManifest('run-1', [], [], [allocationEntry('c', 'node', ok(5000), 'c--node.heapprofile'), allocationEntry('c', 'node BIG', ok(25_000), 'c--node-big.heapprofile')]);
    const read = parseProfileManifest(JSON.parse(JSON.stringify(manifest)), 'profiles.json');
    const trees = read.allocations!.map((a) => a.tree!);
    expect(trees.map((t) => t.totalBytes)).toEqual([10_000, 30_000]);
    expect(trees.map((t) => find(t.root, 'helper')!.totalBytes)).toEqual([6000, 26_000]);
  });

  it('reads an allocation entry written before trees existed, and refuses a tree in the wrong unit', () => {
    const old = { version: 1, runId: 'r', profiles: [], diffs: [], allocations: [{ caseId: 'c', variantId: 'node', status: 'ok', file: 'c.heapprofile', totalBytes: 10, top: [] }] };
    expect(parseProfileManifest(old, 'profiles.json').allocations![0]!.tree).toBeUndefined();
    const msTree = { totalMs: 1, samples: 1, minShare: 0, nodes: 1, root: { name: '(root)', category: 'engine', selfMs: 1, totalMs: 1, children: [] } };
    expect(() => parseProfileManifest({ ...old, allocations: [{ ...old.allocations[0], tree: msTree }] }, 'x.json')).toThrow(/allocations\.0\.tree\.totalBytes/);
  });
});
