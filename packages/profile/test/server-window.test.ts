/**
 * A request server's profile kept between its marks (restrictBetweenMarks)
 * on small hand-made profiles (no runtime started): the steady requests'
 * samples alone, even when a sample inside a mark fell to another frame or
 * a loaded machine stretched a mark over hundreds of milliseconds; without
 * both marks in order, the whole profile with method 'none'.
 */
import { describe, expect, it } from 'vitest';
import { restrictBetweenMarks, type CallFrame, type CpuProfile } from '../src/cpuprofile.ts';

const cf = (functionName: string): CallFrame => ({ functionName, url: 'file:///srv.mjs', lineNumber: 0, columnNumber: 0, scriptId: '1' });

/** root ─ fetch 2 ─ page 3 · root ─ begin 4 ─ inner 5 · root ─ (idle) 6 · root ─ end 7 ─ inner 8 */
const NODES = [
  { id: 1, callFrame: cf('(root)'), children: [2, 4, 6, 7] },
  { id: 2, callFrame: cf('fetch'), children: [3] },
  { id: 3, callFrame: cf('page') },
  { id: 4, callFrame: cf('begin'), children: [5] },
  { id: 5, callFrame: cf('inner') },
  { id: 6, callFrame: cf('(idle)') },
  { id: 7, callFrame: cf('end'), children: [8] },
  { id: 8, callFrame: cf('inner') },
];
const isBegin = (frame: CallFrame): boolean => frame.functionName === 'begin';
const isEnd = (frame: CallFrame): boolean => frame.functionName === 'end';

/** Samples 1 ms apart. */
const profile = (samples: number[]): CpuProfile => ({ nodes: NODES, startTime: 0, endTime: samples.length * 1000, samples, timeDeltas: samples.map(() => 1000) });
const restrict = (samples: number[]): ReturnType<typeof restrictBetweenMarks> => restrictBetweenMarks(profile(samples), isBegin, isEnd);

describe('restrictBetweenMarks', () => {
  it('keeps the samples between the begin mark and the end mark, a stray sample inside a mark left with it', () => {
    // Start-up, the begin mark (a sample inside it fell to idle), 300 samples of steady requests, the end mark, exit.
    const steady = Array.from({ length: 300 }, (_, i) => (i % 3 === 2 ? 6 : 3));
    const samples = [2, 3, 6, 4, 5, 6, 4, 4, ...steady, 7, 8, 6, 7, 2];
    const { profile: kept, window } = restrict(samples);
    expect(window).toMatchObject({ method: 'markers', kept: 300, total: samples.length });
    expect(kept.samples).toEqual(steady);
    // No node of the marks is left in the kept profile.
    expect(kept.nodes.map((n) => n.callFrame.functionName).sort()).toEqual(['(idle)', '(root)', 'fetch', 'page']);
  });

  it('keeps a mark stretched by a loaded machine out of the window, however long it ran and whatever fell inside it', () => {
    // Each mark ran 400 ms (a sample 1 ms apart), with runs of 20 strays to idle and to the page's frame inside it.
    const longMark = (mark: number): number[] => Array.from({ length: 400 }, (_, i) => (i % 100 < 20 ? 6 : i % 97 === 96 ? 3 : mark));
    const steady = Array.from({ length: 120 }, (_, i) => (i % 4 === 3 ? 6 : 3));
    const samples = [2, 3, 6, ...longMark(4), 4, ...steady, 7, ...longMark(7), 2];
    const { profile: kept, window } = restrict(samples);
    expect(window).toMatchObject({ method: 'markers', kept: steady.length });
    expect(kept.samples).toEqual(steady);
  });

  it('a mark unseen, or the marks out of order: the whole profile, said as none', () => {
    const beginOnly = [2, 3, 4, 4, 3, 3];
    expect(restrict(beginOnly).window).toMatchObject({ method: 'none', kept: beginOnly.length });
    const endOnly = [2, 3, 3, 7, 8, 2];
    expect(restrict(endOnly).window).toMatchObject({ method: 'none', kept: endOnly.length });
    // The end mark seen before the begin mark's last sample: no window lies between them.
    expect(restrict([2, 4, 3, 7, 4, 3]).window).toMatchObject({ method: 'none' });
    // Nothing sampled between them: no window either.
    expect(restrict([2, 4, 5, 7, 2]).window).toMatchObject({ method: 'none' });
    const none = [2, 3, 3];
    expect(restrict(none).profile.samples).toEqual(none);
  });
});
