/**
 * summarize, diffProfiles, restrictToSampling and the renderers on small
 * hand-made profiles (no runtime started).
 */
import { describe, expect, it } from 'vitest';
import { categorize, diffProfiles, diffTable, topTable, restrictToSampling, summarize, type CallFrame, type CpuProfile, type FrameLocator } from '../src/index.ts';
import { markdownProfileBlock, terminalProfileBlock } from '../../report/src/reporters/profiles.ts';

/** url → where it came from: 'h:' harness source, 'b:' benchmark source, anything else the runtime's own. */
const locate: FrameLocator = (frame) => {
  if (frame.url.startsWith('h:')) return { source: `packages/core/src/${frame.url.slice(2)}`, line: frame.lineNumber + 1, column: 1, inBundle: true };
  if (frame.url.startsWith('b:')) return { source: `bench/x/${frame.url.slice(2)}`, line: frame.lineNumber + 1, column: 1, inBundle: true };
  return frame.url ? { source: frame.url, line: frame.lineNumber + 1, column: 1, inBundle: false } : undefined;
};

const cf = (functionName: string, url = '', lineNumber = 0): CallFrame => ({ functionName, url, lineNumber, columnNumber: 0, scriptId: '1' });

/**
 * root ─ (program) 2
 *      ─ (garbage collector) 3
 *      ─ measure 4 ─ warmUp 5 ─ runSync 6 ─ timed 7 ─ slowHelper 8
 *                  ─ sample 9 ─ runSync 10 ─ timed 11 ─ slowHelper 12
 *                                                     ─ fastHelper 13 ─ parse (native) 14
 *                                                     ─ nextTick (node:internal) 15
 *                                         ─ now (native, called by the harness) 16
 *      ─ threeBatches 17
 *      ─ harnessFloor 18
 */
function handMade(samples: number[], deltas?: number[]): CpuProfile {
  const nodes = [
    { id: 1, callFrame: cf('(root)'), children: [2, 3, 4, 17, 18] },
    { id: 2, callFrame: cf('(program)') },
    { id: 3, callFrame: cf('(garbage collector)') },
    { id: 4, callFrame: cf('measure', 'h:measure.ts', 270), children: [5, 9] },
    { id: 5, callFrame: cf('warmUp', 'h:measure.ts', 200), children: [6] },
    { id: 6, callFrame: cf('runSync', 'h:measure.ts', 70), children: [7] },
    { id: 7, callFrame: cf('', 'b:index.ts', 30), children: [8] },
    { id: 8, callFrame: cf('slowHelper', 'b:index.ts', 9) },
    { id: 9, callFrame: cf('sample', 'h:measure.ts', 255), children: [10, 16] },
    { id: 10, callFrame: cf('runSync', 'h:measure.ts', 70), children: [11] },
    { id: 11, callFrame: cf('', 'b:index.ts', 30), children: [12, 13, 15] },
    { id: 12, callFrame: cf('slowHelper', 'b:index.ts', 9) },
    { id: 13, callFrame: cf('fastHelper', 'b:index.ts', 20), children: [14] },
    { id: 14, callFrame: cf('parse') },
    { id: 15, callFrame: cf('nextTick', 'node:internal/process/task_queues', 100) },
    { id: 16, callFrame: cf('now') },
    // A warmup batch resumed after an await (its stack has no warmUp), and the floor, taken after the last sample.
    { id: 17, callFrame: cf('threeBatches', 'h:measure.ts', 340) },
    { id: 18, callFrame: cf('harnessFloor', 'h:measure.ts', 600) },
  ];
  return { nodes, startTime: 0, endTime: samples.length * 100, samples, timeDeltas: deltas ?? samples.map(() => 100) };
}

describe('summarize', () => {
  it('ranks functions by self time and tells the categories apart', () => {
    // 6 slowHelper, 2 parse (under fastHelper), 1 fastHelper, 1 GC, 1 program, 1 nextTick, 1 now, 1 timed itself = 14 samples
    const s = summarize(handMade([12, 12, 12, 12, 12, 12, 14, 14, 13, 3, 2, 15, 16, 11]), { locate });
    expect(s.samples).toBe(14);
    const top = s.functions[0]!;
    expect(top.name).toBe('slowHelper');
    expect(top.category).toBe('benchmark');
    expect(top.location).toBe('bench/x/index.ts:10');
    expect(top.selfShare).toBeCloseTo(6 / 14, 5);
    const by = (name: string) => s.functions.find((f) => f.name === name)!;
    expect(by('parse').category).toBe('engine');
    expect(by('(garbage collector)').category).toBe('gc');
    expect(by('nextTick').category).toBe('runtime');
    // A builtin the harness calls (the clock) is the harness's cost.
    expect(by('now').category).toBe('harness');
    expect(by('sample').category).toBe('harness');
    // Total includes callees, once per sample.
    expect(by('fastHelper').totalShare).toBeCloseTo(3 / 14, 5);
    expect(by('(anonymous)').totalShare).toBeCloseTo(11 / 14, 5);
    expect(s.byCategory.benchmark.share).toBeCloseTo(8 / 14, 5);
    expect(s.byCategory.engine.share).toBeCloseTo(3 / 14, 5);
    expect(s.byCategory.gc.share).toBeCloseTo(1 / 14, 5);
    // A function reached through warmup and sampling paths is one line.
    expect(s.functions.filter((f) => f.name === 'slowHelper')).toHaveLength(1);
  });

  it('weights samples by the time to the next sample', () => {
    // slowHelper's one sample is followed by a 900 µs gap, parse's by 100 µs.
    const s = summarize(handMade([12, 14, 14], [100, 900, 100]), { locate });
    expect(s.functions[0]!.name).toBe('slowHelper');
    expect(s.functions[0]!.selfMs).toBeCloseTo(0.9, 5);
  });
});

describe('restrictToSampling', () => {
  it('drops start-up and warmup, keeps everything from the end of warmup to the last sampling sample', () => {
    // start-up (program), warmup x3, GC in the window, sampling x3, teardown (program)
    const p = handMade([2, 8, 8, 8, 3, 12, 13, 12, 2]);
    const { profile, window } = restrictToSampling(p, locate);
    expect(window.method).toBe('markers');
    expect(window.kept).toBe(4);
    expect(window.total).toBe(9);
    expect(profile.samples).toEqual([3, 12, 13, 12]);
    expect(profile.startTime).toBe(400);
    // Nodes only warmup reached are gone; hit counts recounted.
    const ids = new Set(profile.nodes.map((n) => n.id));
    expect(ids.has(5) || ids.has(8)).toBe(false);
    expect(profile.nodes.find((n) => n.id === 12)!.hitCount).toBe(2);
    const s = summarize(profile, { locate });
    expect(s.functions.some((f) => f.name === 'warmUp')).toBe(false);
  });

  it('counts a warmup batch resumed after an await as warmup: the window starts after it', () => {
    const { profile, window } = restrictToSampling(handMade([2, 8, 17, 17, 12, 13, 2]), locate);
    expect(window.method).toBe('markers');
    expect(profile.samples).toEqual([12, 13]);
  });

  it('leaves the marks standing when the floor runs after the last sample (a case under 100 ns a call)', () => {
    const { profile, window } = restrictToSampling(handMade([2, 8, 12, 13, 12, 18, 18, 17, 2]), locate);
    expect(window.method).toBe('markers');
    expect(profile.samples).toEqual([12, 13, 12]);
  });

  it('says sampling-only when a warmup sample falls inside the sampling phase (the marks are wrong), the window from the first sampling sample', () => {
    const { profile, window } = restrictToSampling(handMade([2, 8, 3, 12, 8, 12, 2]), locate);
    expect(window.method).toBe('sampling-only');
    expect(profile.samples).toEqual([12, 8, 12]);
  });

  it('says sampling-only when no warmup sample comes before sampling', () => {
    const { profile, window } = restrictToSampling(handMade([2, 3, 12, 13, 18]), locate);
    expect(window.method).toBe('sampling-only');
    expect(profile.samples).toEqual([12, 13]);
  });

  it('keeps the whole profile and says so when no harness frame is recognised', () => {
    const p = handMade([2, 8, 12]);
    const { profile, window } = restrictToSampling(p, () => undefined);
    expect(window.method).toBe('none');
    expect(profile.samples).toEqual([2, 8, 12]);
  });
});

describe('diffProfiles', () => {
  it('puts the function whose share moved most first, with its sign', () => {
    const a = summarize(handMade([12, 12, 13, 13, 14, 14, 3, 11]), { locate });
    const b = summarize(handMade([12, 12, 12, 12, 12, 12, 13, 14, 3, 11]), { locate });
    const d = diffProfiles(a, b);
    const first = d.functions[0]!;
    expect(first.name).toBe('slowHelper');
    expect(first.aShare).toBeCloseTo(2 / 8, 5);
    expect(first.bShare).toBeCloseTo(6 / 10, 5);
    expect(first.delta).toBeGreaterThan(0);
    expect(d.functions.find((e) => e.name === 'parse')!.delta).toBeLessThan(0);
    // Symmetric: the other way round the same function leads, with the opposite sign.
    const back = diffProfiles(b, a).functions[0]!;
    expect(back.name).toBe('slowHelper');
    expect(back.delta).toBeCloseTo(-first.delta, 10);
  });
});

describe('renderers', () => {
  const s = summarize(handMade([12, 12, 12, 14, 3]), { locate });
  it('renders a terminal top-N with the category split', () => {
    const text = terminalProfileBlock(topTable(s, { top: 2, title: 'hot helper · node' }));
    const lines = text.split('\n');
    expect(lines[0]).toBe('hot helper · node');
    expect(lines[1]).toMatch(/5 samples: benchmark 60% · engine 20% · gc 20%/);
    expect(lines[3]).toMatch(/^\s*60%\s+60%\s+benchmark\s+slowHelper\s+bench\/x\/index\.ts:10$/);
    expect(lines).toHaveLength(5);
  });
  it('renders markdown tables for the top-N and the diff', () => {
    expect(markdownProfileBlock(topTable(s, { top: 1 }))).toContain('| 60% | 60% | benchmark | slowHelper | bench/x/index.ts:10 |');
    const d = diffProfiles(summarize(handMade([12, 14]), { locate }), s);
    const md = markdownProfileBlock(diffTable(d, { a: 'node@24', b: 'node@26', top: 3 }));
    expect(md).toContain('| change | node@24 | node@26 | category | function | where |');
    expect(md).toContain('| −30 pt | 50% | 20% | engine | parse |  |');
    expect(md).toContain('| +10 pt | 50% | 60% | benchmark | slowHelper | bench/x/index.ts:10 |');
  });
});

describe('categorize', () => {
  const at = (source: string, inBundle = true) => categorize(cf('f', `file:///repo/${source}`), { source, line: 1, column: 1, inBundle });
  it("calls rtbench's own sources harness, and the user's code in rtbench's cache (apps, library arms, installed packages) benchmark", () => {
    expect(at('packages/core/src/measure.ts')).toBe('harness');
    expect(at('.rtbench-cache/bundles/tiny/entry.ts')).toBe('harness');
    expect(at('.rtbench-cache/brought/site-3b8350863e2e-worker.mjs')).toBe('harness');
    expect(at('.rtbench-cache/apps/my-app-2e88df1f/build/server/index.js')).toBe('benchmark');
    expect(at('.rtbench-cache/libraries/react-18.3.1/node_modules/react-dom/cjs/react-dom-server.node.production.js')).toBe('benchmark');
    expect(at('.rtbench-cache/linked-packages/11bd38ca92ddd423/node_modules/react/index.js')).toBe('benchmark');
    expect(at('.rtbench-cache/programs/x/node_modules/react-dom/server.js')).toBe('benchmark');
    expect(at('bench/x/index.ts')).toBe('benchmark');
  });
});
