/**
 * callTree and the manifest's entries on small hand-made profiles (no
 * runtime started): frames merged by function along the stack, times in ms,
 * small frames folded into their parent, the node limit, and the manifest
 * passing its own schema.
 */
import { describe, expect, it } from 'vitest';
import { parseProfileManifest, type CallTreeNode } from '@rtbench/core/profile-manifest';
import { callTree, diffProfiles, manifestDiff, manifestEntry, profileManifest, summarize, type CallFrame, type CpuProfile, type FrameLocator, type ProfileCaseResult } from '../src/index.ts';

const locate: FrameLocator = (frame) => {
  if (frame.url.startsWith('h:')) return { source: `packages/core/src/${frame.url.slice(2)}`, line: frame.lineNumber + 1, column: 1, inBundle: true };
  if (frame.url.startsWith('b:')) return { source: `bench/x/${frame.url.slice(2)}`, line: frame.lineNumber + 1, column: 1, inBundle: true };
  return frame.url ? { source: frame.url, line: frame.lineNumber + 1, column: 1, inBundle: false } : undefined;
};

const cf = (functionName: string, url = '', lineNumber = 0): CallFrame => ({ functionName, url, lineNumber, columnNumber: 0, scriptId: '1' });

/**
 * root ─ (program) 2
 *      ─ sample 3 ─ timed 4 ─ helper 5 (line 10)
 *                          ─ helper 6 (the same function: another profile node, e.g. another call site)
 *                          ─ parse 7 (native)
 *                          ─ tiny 8
 *                 ─ timed 9 (the same function again under sample: merged with 4)
 */
function profile(samples: number[]): CpuProfile {
  const nodes = [
    { id: 1, callFrame: cf('(root)'), children: [2, 3] },
    { id: 2, callFrame: cf('(program)') },
    { id: 3, callFrame: cf('sample', 'h:measure.ts', 255), children: [4, 9] },
    { id: 4, callFrame: cf('timed', 'b:index.ts', 30), children: [5, 6, 7, 8] },
    { id: 5, callFrame: cf('helper', 'b:index.ts', 9) },
    { id: 6, callFrame: cf('helper', 'b:index.ts', 9) },
    { id: 7, callFrame: cf('parse') },
    { id: 8, callFrame: cf('tiny', 'b:index.ts', 50) },
    { id: 9, callFrame: cf('timed', 'b:index.ts', 30) },
  ];
  return { nodes, startTime: 0, endTime: samples.length * 100, samples, timeDeltas: samples.map(() => 100) };
}

const find = (node: CallTreeNode, name: string): CallTreeNode | undefined => (node.name === name ? node : node.children.map((c) => find(c, name)).find(Boolean));

/** Every node's total = self + folded + its children's totals. */
function consistent(node: CallTreeNode): boolean {
  const sum = node.selfMs + (node.foldedMs ?? 0) + node.children.reduce((n, c) => n + c.totalMs, 0);
  return Math.abs(sum - node.totalMs) < 1e-6 && node.children.every(consistent);
}

const count = (node: CallTreeNode): number => 1 + node.children.reduce((n, c) => n + count(c), 0);

describe('callTree', () => {
  // 100 samples of 100 µs: helper 40 (split over nodes 5 and 6), parse 20, timed itself 10 (node 4) + 10 (node 9), program 19, tiny 1.
  const samples = [...Array(25).fill(5), ...Array(15).fill(6), ...Array(20).fill(7), ...Array(10).fill(4), ...Array(10).fill(9), ...Array(19).fill(2), 8];

  it('merges frames of one function along the stack and gives self and total times in ms', () => {
    const tree = callTree(profile(samples), { locate, minShare: 0 });
    expect(tree.samples).toBe(100);
    expect(tree.totalMs).toBeCloseTo(10, 6);
    expect(tree.root.name).toBe('(root)');
    expect(tree.root.totalMs).toBeCloseTo(10, 6);
    const sample = find(tree.root, 'sample')!;
    expect(sample.category).toBe('harness');
    expect(sample.location).toBe('packages/core/src/measure.ts:256');
    // Nodes 4 and 9 are one frame; nodes 5 and 6 are one frame under it.
    expect(sample.children.map((c) => c.name)).toEqual(['timed']);
    const timed = sample.children[0]!;
    expect(timed.selfMs).toBeCloseTo(2, 6);
    expect(timed.totalMs).toBeCloseTo(8.1, 6);
    // Children largest first.
    expect(timed.children.map((c) => c.name)).toEqual(['helper', 'parse', 'tiny']);
    const helper = timed.children[0]!;
    expect(helper).toMatchObject({ category: 'benchmark', location: 'bench/x/index.ts:10', children: [] });
    expect(helper.selfMs).toBeCloseTo(4, 6);
    expect(helper.totalMs).toBeCloseTo(4, 6);
    expect(timed.children[1]).toMatchObject({ name: 'parse', category: 'engine' });
    expect(timed.children[1]!.location).toBeUndefined();
    expect(consistent(tree.root)).toBe(true);
    expect(tree.nodes).toBe(count(tree.root));
  });

  it('folds frames below the share into their parent, keeping their time in the parent', () => {
    const tree = callTree(profile(samples), { locate, minShare: 0.02 });
    const timed = find(tree.root, 'timed')!;
    // tiny holds 1% of the time: folded into timed, its time kept as foldedMs, not as self.
    expect(find(tree.root, 'tiny')).toBeUndefined();
    expect(timed.foldedMs).toBeCloseTo(0.1, 6);
    expect(timed.selfMs).toBeCloseTo(2, 6);
    expect(timed.totalMs).toBeCloseTo(8.1, 6);
    expect(tree.minShare).toBe(0.02);
    expect(consistent(tree.root)).toBe(true);
  });

  it('raises the cut-off until the tree has no more nodes than asked', () => {
    // A wide profile: 300 functions of one sample each and one hot function.
    const wide: CpuProfile = {
      nodes: [
        { id: 1, callFrame: cf('(root)'), children: Array.from({ length: 301 }, (_, i) => i + 2) },
        ...Array.from({ length: 300 }, (_, i) => ({ id: i + 2, callFrame: cf(`f${i}`, 'b:index.ts', i) })),
        { id: 302, callFrame: cf('hot', 'b:index.ts', 999) },
      ],
      startTime: 0,
      endTime: 0,
      samples: [...Array.from({ length: 300 }, (_, i) => i + 2), ...Array(700).fill(302)],
      timeDeltas: Array(1000).fill(100),
    };
    expect(callTree(wide, { locate, minShare: 0 }).nodes).toBe(302);
    const small = callTree(wide, { locate, minShare: 0, maxNodes: 50 });
    expect(small.nodes).toBeLessThanOrEqual(50);
    expect(small.nodes).toBe(count(small.root));
    expect(small.root.children.map((c) => c.name)).toEqual(['hot']);
    expect(small.root.foldedMs).toBeCloseTo(30, 6);
    expect(consistent(small.root)).toBe(true);
    // The default: 0.2%, at most 400 nodes.
    const byDefault = callTree(wide, { locate });
    expect(byDefault.minShare).toBe(0.002);
    expect(byDefault.nodes).toBe(2);
  });
});

describe('the profiles manifest', () => {
  const samplesA = [...Array(60).fill(5), ...Array(40).fill(7)];
  const samplesB = [...Array(80).fill(5), ...Array(20).fill(7)];
  const ok = (samples: number[]): ProfileCaseResult => {
    const p = profile(samples);
    return {
      status: 'ok',
      path: '/x/a.cpuprofile',
      method: 'node --cpu-prof (V8 CpuProfiler)',
      window: { method: 'markers', kept: samples.length, total: samples.length + 50, windowMs: 10, profileMs: 15 },
      summary: summarize(p, { locate }),
      tree: callTree(p, { locate }),
    };
  };

  it('lists each case × variant with its tree or why there is none, and a comparison\'s movers, in a shape its schema accepts', () => {
    const [a, b] = [ok(samplesA), ok(samplesB)];
    const failed: ProfileCaseResult = { status: 'failed', reason: 'the profiled process timed out' };
    const diff = diffProfiles(a.status === 'ok' ? a.summary : (undefined as never), b.status === 'ok' ? b.summary : (undefined as never));
    const manifest = profileManifest(
      'run-1',
      [manifestEntry('c', 'node@24', a, 'c--node@24.cpuprofile'), manifestEntry('c', 'node@26', b, 'c--node@26.cpuprofile'), manifestEntry('d', 'node@24', failed, 'd--node@24.cpuprofile')],
      [manifestDiff('c', 'node@24', 'node@26', diff, 1)],
    );
    // Through JSON and back, as the CLI writes and reads it.
    const read = parseProfileManifest(JSON.parse(JSON.stringify(manifest)), 'profiles.json');
    expect(read.runId).toBe('run-1');
    expect(read.profiles[0]).toMatchObject({ caseId: 'c', variantId: 'node@24', status: 'ok', file: 'c--node@24.cpuprofile', method: 'node --cpu-prof (V8 CpuProfiler); sampling phase found by markers' });
    expect(find(read.profiles[0]!.tree!.root, 'helper')!.totalMs).toBeCloseTo(6, 6);
    expect(read.profiles[0]!.byCategory!.benchmark.share).toBeCloseTo(0.6, 6);
    // A failed profile: no file, the reason.
    expect(read.profiles[2]).toEqual({ caseId: 'd', variantId: 'node@24', status: 'failed', reason: 'the profiled process timed out' });
    expect(read.diffs[0]!.movers).toHaveLength(1);
    expect(read.diffs[0]!.movers[0]).toMatchObject({ name: 'helper', location: 'bench/x/index.ts:10', category: 'benchmark' });
    expect(read.diffs[0]!.movers[0]!.delta).toBeCloseTo(0.2, 6);
  });

  it('refuses a file that is not a manifest, in one line naming the file and the field', () => {
    expect(() => parseProfileManifest({ version: 1, runId: 'r', profiles: [{ caseId: 'c', variantId: 'v', status: 'maybe' }], diffs: [] }, 'x/profiles.json')).toThrow(/^x\/profiles\.json is not an rtbench profiles manifest: profiles\.0\.status: /);
    expect(() => parseProfileManifest([], 'y.json')).toThrow(/^y\.json is not an rtbench profiles manifest/);
  });
});
