/**
 * A request server's profile kept between its marks (restrictBetweenMarks)
 * on small hand-made profiles (no runtime started): the steady requests'
 * samples alone, even when a sample inside a mark fell to another frame or
 * a loaded machine stretched a mark over hundreds of milliseconds; without
 * two marks apart, the whole profile with method 'none'.
 */
import { describe, expect, it } from 'vitest';
import { restrictBetweenMarks, type CallFrame, type CpuProfile } from '../src/cpuprofile.ts';

const cf = (functionName: string): CallFrame => ({ functionName, url: 'file:///srv.mjs', lineNumber: 0, columnNumber: 0, scriptId: '1' });

/** root ─ fetch 2 ─ page 3 · root ─ mark 4 ─ inner 5 · root ─ (idle) 6 */
const NODES = [
  { id: 1, callFrame: cf('(root)'), children: [2, 4, 6] },
  { id: 2, callFrame: cf('fetch'), children: [3] },
  { id: 3, callFrame: cf('page') },
  { id: 4, callFrame: cf('mark'), children: [5] },
  { id: 5, callFrame: cf('inner') },
  { id: 6, callFrame: cf('(idle)') },
];
const isMark = (frame: CallFrame): boolean => frame.functionName === 'mark';

/** Samples 1 ms apart. */
const profile = (samples: number[]): CpuProfile => ({ nodes: NODES, startTime: 0, endTime: samples.length * 1000, samples, timeDeltas: samples.map(() => 1000) });

describe('restrictBetweenMarks', () => {
  it('keeps the samples between the first mark and the last, a stray sample inside a mark left with it', () => {
    // Start-up, the first mark (a sample inside it fell to idle), 300 samples of steady requests, the last mark, exit.
    const steady = Array.from({ length: 300 }, (_, i) => (i % 3 === 2 ? 6 : 3));
    const samples = [2, 3, 6, 4, 5, 6, 4, 4, ...steady, 4, 5, 6, 4, 2];
    const { profile: kept, window } = restrictBetweenMarks(profile(samples), isMark);
    expect(window).toMatchObject({ method: 'markers', kept: 300, total: samples.length });
    expect(kept.samples).toEqual(steady);
    // No node of the marks is left in the kept profile.
    expect(kept.nodes.map((n) => n.callFrame.functionName).sort()).toEqual(['(idle)', '(root)', 'fetch', 'page']);
  });

  it('keeps a mark stretched by a loaded machine out of the window, however long it ran', () => {
    // Each mark ran 400 ms (a sample 1 ms apart), strays to idle and to the page's frame inside it; the steady requests between.
    const longMark = Array.from({ length: 400 }, (_, i) => (i % 50 === 25 ? 6 : i % 97 === 96 ? 3 : 4));
    const steady = Array.from({ length: 120 }, (_, i) => (i % 4 === 3 ? 6 : 3));
    const samples = [2, 3, 6, ...longMark, ...steady, ...longMark, 2];
    const { profile: kept, window } = restrictBetweenMarks(profile(samples), isMark);
    expect(window).toMatchObject({ method: 'markers', kept: steady.length });
    expect(kept.samples).toEqual(steady);
  });

  it('marks not seen twice apart: the whole profile, said as none', () => {
    const one = [2, 3, 4, 4, 3, 3];
    expect(restrictBetweenMarks(profile(one), isMark).window).toMatchObject({ method: 'none', kept: one.length });
    // One mark, however long, with strays inside it: still one.
    const stretched = [2, 4, 4, 6, 6, 6, 4, 5, 3, 4, 2, 3];
    expect(restrictBetweenMarks(profile(stretched), isMark).window).toMatchObject({ method: 'none' });
    const none = [2, 3, 3];
    expect(restrictBetweenMarks(profile(none), isMark).profile.samples).toEqual(none);
  });
});
