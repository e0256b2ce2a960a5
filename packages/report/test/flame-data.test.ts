/**
 * The flame graphs' page data: a comparison's tree matched to the baseline's
 * frame by frame, and a view's profiles keyed as the page keys its cases and
 * variants (profiles of cases or variants the view does not have are left out).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { PROFILE_CATEGORIES, type CallTree, type CallTreeNode, type ProfileManifest } from '@rtbench/core/profile-manifest';
import { diffTree, formatPoints, type DiffFrame } from '../src/html/flame-data.ts';
import { pageData } from '../src/html/page-data.ts';
import { viewOfRun } from '../src/views/index.ts';

const BENCH_RUN = join(import.meta.dirname, '../../../results/20261121-124315Z-json-reviver.json');

const node = (name: string, totalMs: number, children: CallTreeNode[] = [], extra: Partial<CallTreeNode> = {}): CallTreeNode => ({
  name,
  location: `bench/x/index.ts:${name.length}`,
  category: 'benchmark',
  selfMs: totalMs - children.reduce((n, c) => n + c.totalMs, 0) - (extra.foldedMs ?? 0),
  totalMs,
  children,
  ...extra,
});

const tree = (root: CallTreeNode): CallTree => ({ totalMs: root.totalMs, samples: 100, minShare: 0.02, nodes: 1, root });

const find = <F extends { name: string; children: F[] }>(f: F, name: string): F | undefined => (f.name === name ? f : f.children.map((c) => find(c, name)).find(Boolean));

describe('diffTree', () => {
  // Baseline: root 100 ─ run 100 ─ parse 40, walk 10 (+ 5 folded under run).
  const base = tree(node('root', 100, [node('run', 100, [node('parse', 40), node('walk', 10)], { foldedMs: 5 })]));
  // Other arm (200 ms): root ─ run 150 ─ parse 40, reviver 60 (the baseline folded run's small callees: unknown) ─ gc 50 (not in the baseline at all).
  const other = tree(node('root', 200, [node('run', 150, [node('reviver', 60), node('parse', 40)]), node('gc', 50)]));
  const d = diffTree(base, other);

  it('gives each frame its share in both arms, matched by call path', () => {
    expect(d.share).toBe(1);
    expect(d.baseShare).toBe(1);
    const parse = find(d, 'parse')!;
    expect(parse.share).toBeCloseTo(0.2, 9);
    expect(parse.baseShare).toBeCloseTo(0.4, 9);
    expect(find(d, 'run')!.baseShare).toBeCloseTo(1, 9);
    expect(find(d, 'run')!.share).toBeCloseTo(0.75, 9);
  });

  it('tells a frame the baseline did not have (share 0) from one its tree folded (unknown)', () => {
    expect(find(d, 'gc')!.baseShare).toBe(0);
    expect(find(d, 'reviver')!.baseShare).toBeUndefined();
    expect(find(d, 'reviver')!.share).toBeCloseTo(0.3, 9);
  });

  it('formats changes of share in percentage points', () => {
    expect(formatPoints(0.267)).toBe('+27 pt');
    expect(formatPoints(-0.0123)).toBe('−1.2 pt');
    expect(formatPoints(0.0004)).toBe('+0.04 pt');
  });
});

describe('page data with profiles', () => {
  const run = parseRun(JSON.parse(readFileSync(BENCH_RUN, 'utf8')), BENCH_RUN);
  const [firstCase, secondCase] = run.cases;
  const [v0, v1] = run.variants;
  const t = tree(node('root', 10, [node('hot', 8)]));
  const manifest: ProfileManifest = {
    version: 1,
    runId: run.id,
    profiles: [
      { caseId: firstCase!.id, variantId: v0!.id, status: 'ok', file: 'a.cpuprofile', tree: t, byCategory: { benchmark: { ms: 8, share: 0.8 }, engine: { ms: 2, share: 0.2 }, harness: { ms: 0, share: 0 }, runtime: { ms: 0, share: 0 }, gc: { ms: 0, share: 0 }, idle: { ms: 0, share: 0 } } },
      { caseId: firstCase!.id, variantId: v1!.id, status: 'ok', file: 'b.cpuprofile', tree: t },
      { caseId: secondCase!.id, variantId: v1!.id, status: 'unavailable', reason: 'no profiler' },
      { caseId: 'not in the run', variantId: v0!.id, status: 'ok', tree: t },
    ],
    diffs: [
      {
        caseId: firstCase!.id,
        baseline: v0!.id,
        candidate: v1!.id,
        movers: [
          { name: 'hot', category: 'benchmark', aShare: 0.5, bShare: 0.8, delta: 0.3 },
          { name: 'noise', category: 'engine', aShare: 0.0004, bShare: 0.0001, delta: -0.0003 },
        ],
        byCategory: Object.fromEntries(PROFILE_CATEGORIES.map((c) => [c, { aShare: 0, bShare: 0, delta: 0 }])) as ProfileManifest['diffs'][number]['byCategory'],
      },
    ],
  };

  it('keys profiles by the page\'s case and variant keys and formats their texts', () => {
    const page = pageData({ ...viewOfRun(run, { file: 'results/x.json' }), profiles: manifest });
    const profiles = page.profiles!;
    expect(profiles.folder).toBe('results/x.profiles');
    expect(profiles.flames.map((f) => [f.caseKey, f.variantKey, f.status])).toEqual([
      ['c0', 'v0', 'ok'],
      ['c0', 'v1', 'ok'],
      ['c1', 'v1', 'unavailable'],
    ]);
    expect(profiles.flames[0]!.categoriesText).toBe('benchmark 80.0% · engine 20.0%');
    expect(profiles.flames[2]!.reason).toBe('no profiler');
    expect(profiles.diffs).toHaveLength(1);
    expect(profiles.diffs[0]).toMatchObject({ caseKey: 'c0', baselineKey: 'v0', candidateKey: 'v1', totalMs: 10 });
    // Moves under 0.1 pt are left out of the table.
    expect(profiles.diffs[0]!.movers.map((m) => [m.name, m.baseText, m.otherText, m.deltaText])).toEqual([['hot', '50.0%', '80.0%', '+30 pt']]);
  });

  it('has no allocation flames when the manifest has no allocation trees', () => {
    const view = viewOfRun(run, { file: 'results/x.json' });
    expect(pageData({ ...view, profiles: manifest }).profiles!.allocations).toBeUndefined();
    // A manifest written before allocation trees existed.
    const old: ProfileManifest = { ...manifest, allocations: [{ caseId: firstCase!.id, variantId: v0!.id, status: 'ok', file: 'a.heapprofile', totalBytes: 10 }] };
    expect(pageData({ ...view, profiles: old }).profiles!.allocations).toBeUndefined();
  });

  it('keys allocation trees as CPU ones, with the calls for bytes per call, and matches a comparison\'s trees in bytes', () => {
    const bytesNode = (name: string, totalBytes: number, children: CallTreeNode<'Bytes'>[] = [], foldedBytes = 0): CallTreeNode<'Bytes'> => ({
      name,
      location: `bench/x/index.ts:${name.length}`,
      category: 'benchmark',
      selfBytes: totalBytes - children.reduce((n, c) => n + c.totalBytes, 0) - foldedBytes,
      totalBytes,
      ...(foldedBytes ? { foldedBytes } : {}),
      children,
    });
    const bytesTree = (root: CallTreeNode<'Bytes'>): CallTree<'Bytes'> => ({ totalBytes: root.totalBytes, samples: 40, minShare: 0.002, nodes: 3, root });
    // Baseline: 10 KB, allocHelper 6 KB of it; the other arm: 30 KB, allocHelper 26 KB.
    const a = bytesTree(bytesNode('(root)', 10_000, [bytesNode('timed', 10_000, [bytesNode('allocHelper', 6000), bytesNode('steady', 3000)])]));
    const b = bytesTree(bytesNode('(root)', 30_000, [bytesNode('timed', 30_000, [bytesNode('allocHelper', 26_000), bytesNode('steady', 3000)])]));
    const window = (ops: number) => ({ method: 'lockstep' as const, samples: 5, ops, warmupBytes: 0 });
    const withAlloc: ProfileManifest = {
      ...manifest,
      profiles: [],
      diffs: [],
      allocations: [
        { caseId: firstCase!.id, variantId: v0!.id, status: 'ok', file: 'a.heapprofile', window: window(100), totalBytes: 10_000, tree: a },
        { caseId: firstCase!.id, variantId: v1!.id, status: 'ok', file: 'b.heapprofile', window: window(50), totalBytes: 30_000, tree: b },
        // Written before allocation trees existed: nothing to draw, left out.
        { caseId: secondCase!.id, variantId: v0!.id, status: 'ok', file: 'c.heapprofile', totalBytes: 10 },
        { caseId: secondCase!.id, variantId: v1!.id, status: 'unavailable', reason: 'bun' },
      ],
      allocationDiffs: [
        { ...manifest.diffs[0]!, movers: [{ name: 'allocHelper', category: 'benchmark', aShare: 0.6, bShare: 26 / 30, delta: 26 / 30 - 0.6 }] },
      ],
    };
    const profiles = pageData({ ...viewOfRun(run, { file: 'results/x.json' }), profiles: withAlloc }).profiles!;
    expect(profiles.flames).toEqual([]);
    const alloc = profiles.allocations!;
    expect(alloc.flames.map((f) => [f.caseKey, f.variantKey, f.status, f.ops, f.tree?.totalBytes])).toEqual([
      ['c0', 'v0', 'ok', 100, 10_000],
      ['c0', 'v1', 'ok', 50, 30_000],
      ['c1', 'v1', 'unavailable', undefined, undefined],
    ]);
    expect(alloc.diffs).toHaveLength(1);
    const diff = alloc.diffs[0]!;
    expect(diff).toMatchObject({ caseKey: 'c0', baselineKey: 'v0', candidateKey: 'v1', totalBytes: 30_000, ops: 50 });
    const helper: DiffFrame<'Bytes'> = find(diff.root, 'allocHelper')!;
    expect(helper.totalBytes).toBe(26_000);
    expect(helper.share).toBeCloseTo(26 / 30, 9);
    expect(helper.baseShare).toBeCloseTo(0.6, 9);
    expect(diff.movers.map((m) => [m.name, m.baseText, m.otherText, m.deltaText])).toEqual([['allocHelper', '60.0%', '86.7%', '+27 pt']]);
  });

  it('has no profiles when the view has none', () => {
    expect('profiles' in pageData(viewOfRun(run))).toBe(false);
  });
});
