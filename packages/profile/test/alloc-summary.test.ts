/**
 * summarizeAllocations, the diff of allocation shares and allocTopTable on
 * a small hand-made heap profile (no runtime started).
 */
import { describe, expect, it } from 'vitest';
import { formatBytes } from '@rtbench/core/call-tree';
import { diffProfiles, parseHeapProfile, allocTopTable, diffTable, summarizeAllocations } from '../src/index.ts';
import { terminalProfileBlock } from '../../report/src/reporters/profiles.ts';
import { cf, locate, node } from './heap-fixtures.ts';
import { windowOps } from '../src/alloc-capture.ts';

/**
 * (root) ─ sample ─ runSync 1000 (the case inlined) ─ helper 6000 ─ helper (recursion) 2000
 *                                                  ─ nextTick (node:internal) 500
 *        ─ (V8 API) 500
 */
function handMade(helperBytes = 6000) {
  return {
    head: node(1, cf('(root)'), 0, [
      node(2, cf('sample', 'h:measure.ts', 277), 0, [
        node(3, cf('runSync', 'h:measure.ts', 71), 1000, [node(4, cf('helper', 'b:index.ts', 9), helperBytes, [node(5, cf('helper', 'b:index.ts', 9), 2000)]), node(6, cf('nextTick', 'node:internal/process', 40), 500)]),
      ]),
      node(7, cf('(V8 API)'), 500),
    ]),
    samples: [{ size: 1000, nodeId: 4, ordinal: 1 }],
  };
}

describe('summarizeAllocations', () => {
  it('counts self and total bytes per function, once per stack, with bytes per call and categories', () => {
    const s = summarizeAllocations(handMade(), { locate, ops: 100 });
    expect(s.totalBytes).toBe(10_000);
    expect(s.bytesPerOp).toBe(100);
    const helper = s.functions[0]!;
    expect([helper.name, helper.category, helper.location, helper.selfBytes, helper.totalBytes, helper.selfShare, helper.selfBytesPerOp]).toEqual(['helper', 'benchmark', 'bench/x/index.ts:10', 8000, 8000, 0.8, 80]);
    // The harness's timed loop allocates only what the JIT inlined into it: the case's bytes.
    const loop = s.functions.find((f) => f.name.startsWith('runSync'))!;
    expect([loop.name, loop.category, loop.selfBytes, loop.totalBytes]).toEqual(['runSync (case code inlined into it)', 'benchmark', 1000, 9500]);
    expect(s.byCategory.benchmark.bytes).toBe(9000);
    expect(s.byCategory.runtime.bytes).toBe(500);
    expect(s.byCategory.engine.bytes).toBe(500);
    expect(s.byCategory.harness.bytes).toBe(0);
    // What the inlined case code calls is called by the benchmark: the runtime's own, not the harness's.
    expect(s.functions.find((f) => f.name === 'nextTick')).toMatchObject({ category: 'runtime', selfBytes: 500 });
    expect(s.functions.find((f) => f.name === 'sample')).toMatchObject({ category: 'harness', selfBytes: 0, totalBytes: 9500 });
  });

  it('reads a .heapprofile back, and refuses what is not one', () => {
    expect(summarizeAllocations(parseHeapProfile(JSON.stringify(handMade())), { locate }).totalBytes).toBe(10_000);
    expect(() => parseHeapProfile(JSON.stringify({ nodes: [], samples: [], timeDeltas: [], startTime: 0 }))).toThrow(/not a sampling heap profile/);
  });

  it('diffs shares of bytes, and renders both', () => {
    const a = summarizeAllocations(handMade(), { locate, ops: 100 });
    const b = summarizeAllocations(handMade(26_000), { locate, ops: 100 });
    const diff = diffProfiles(a, b);
    expect(diff.functions[0]).toMatchObject({ name: 'helper', aShare: 0.8, bShare: 28_000 / 30_000 });
    expect(terminalProfileBlock(diffTable(diff, { a: 'a', b: 'b', of: 'allocated bytes' }))).toMatch(/^share of allocated bytes, a → b: benchmark 90% → 97%/);
    const text = terminalProfileBlock(allocTopTable(b, { top: 2 }));
    expect(text.split('\n')).toEqual([
      '29.3 KB allocated over 100 calls (300 B/op), 1 samples: benchmark 97% · runtime 1.7% · engine 1.7%',
      'self  total  self/op  category   function                             where',
      ' 93%    93%    280 B  benchmark  helper                               bench/x/index.ts:10',
      '3.3%    98%     10 B  benchmark  runSync (case code inlined into it)  packages/core/src/measure.ts:72',
    ]);
  });

  it('writes bytes as the GC metrics do, in powers of 1024', () => {
    expect([formatBytes(0), formatBytes(1023), formatBytes(1024), formatBytes(15_870), formatBytes(152_400), formatBytes(4.15e9)]).toEqual(['0 B', '1023 B', '1.00 KB', '15.5 KB', '149 KB', '3.86 GB']);
  });
});

describe('windowOps', () => {
  it("counts each sample's calls with the run-up the case's span recorded, which the bytes per call are divided by", () => {
    expect(windowOps(5, { iterationsPerSample: 1000, batchNs: 0, span: { quietCallNs: 50, grownBy: 1, runUpCalls: 1400 } })).toBe(5 * 2400);
    expect(windowOps(5, { iterationsPerSample: 1000, batchNs: 0, span: { quietCallNs: 50, grownBy: 1, runUpCalls: 0 } })).toBe(5 * 1000);
  });
});
