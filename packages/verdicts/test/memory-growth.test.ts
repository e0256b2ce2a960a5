import { describe, expect, it } from 'vitest';
import { GROWTH_FLOOR_BYTES, memoryGrowth, processGrowth, SAMPLE_ALLOWANCE_BYTES } from '../src/index.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

/** Readings of a process that keeps `perCall` bytes a call over `samples` samples of `calls` calls, on a base of 40 MiB with steps of `page` bytes. */
function series(perCall: number, samples: number, calls: number, page = 4 * KiB) {
  const base = 40 * MiB;
  const at = (i: number): number => base + Math.floor((i * calls * perCall) / page) * page;
  return { readyBytes: at(0), sampleBytes: Array.from({ length: samples }, (_, i) => at(i + 1)), callsPerSample: calls };
}

describe('memory growth', () => {
  it('marks a process that keeps 4 KB a call, with the growth per call', () => {
    const g = processGrowth(series(4 * KiB, 40, 20));
    expect(g?.keepsGrowing).toBe(true);
    expect(g!.bytesPerCall).toBeCloseTo(4 * KiB, -1);
  });

  it("reads the growth per call after the runtime's own early growth", () => {
    // 200 samples of 8 calls keeping 4 KB each, and the runtime's own growth besides: 24 KiB a sample at first, tapering to none by the middle.
    const early = series(4 * KiB, 200, 8);
    let own = 0;
    early.sampleBytes = early.sampleBytes.map((b, i) => b + (own += Math.max(0, 24 * KiB * (1 - i / 100))));
    const g = processGrowth(early);
    expect(Math.abs(g!.bytesPerCall / (4 * KiB) - 1)).toBeLessThan(0.03);
  });

  it('does not mark a steady process, nor one that stepped up once and held', () => {
    expect(processGrowth(series(0, 40, 20))?.keepsGrowing).toBe(false);
    const stepped = series(0, 40, 20);
    stepped.sampleBytes = stepped.sampleBytes.map((b, i) => (i >= 10 ? b + 8 * MiB : b));
    expect(processGrowth(stepped)?.keepsGrowing).toBe(false);
  });

  it('does not mark growth below the floor and the allowance per sample: page, allocator and runtime steps', () => {
    // 40 samples of 20 calls: 800 calls, rising steadily but by less than the floor and the samples' allowance.
    const allowed = GROWTH_FLOOR_BYTES + 40 * SAMPLE_ALLOWANCE_BYTES;
    expect(processGrowth(series((allowed * 0.8) / 800, 40, 20))?.keepsGrowing).toBe(false);
    expect(processGrowth(series((allowed * 1.3) / 800, 40, 20))?.keepsGrowing).toBe(true);
  });

  it('does not judge a process whose resident set fell below its start (an earlier case collected)', () => {
    const fell = series(4 * KiB, 40, 20);
    fell.sampleBytes = fell.sampleBytes.map((b, i) => (i >= 2 ? b - 40 * MiB : b));
    expect(processGrowth(fell)).toBeUndefined();
  });

  it('judges a process that fell at its first sample (the warmup collected) from its lowest reading, once it rose past its start', () => {
    // 3 MiB of the warmup's garbage freed by the first sample, then 16 KB a call kept: the resident set ends far above its start.
    const leaking = series(16 * KiB, 200, 6);
    leaking.sampleBytes = leaking.sampleBytes.map((b) => b - 3 * MiB);
    const g = processGrowth(leaking);
    expect(g?.keepsGrowing).toBe(true);
    expect(g!.bytesPerCall).toBeCloseTo(16 * KiB, -2);
    // A steady case that only fills the freed pages again, back to where it started: not judged, never marked.
    const refills = series(0, 200, 6);
    refills.sampleBytes = refills.sampleBytes.map((b, i) => b - 3 * MiB + Math.min(3 * MiB, i * 32 * KiB));
    expect(processGrowth(refills)).toBeUndefined();
  });

  it('says nothing with too few readings', () => {
    expect(processGrowth(series(4 * KiB, 3, 20))).toBeUndefined();
    expect(memoryGrowth([series(4 * KiB, 3, 20)])).toBeUndefined();
  });

  it('marks a case only when every process kept growing', () => {
    const leaking = series(4 * KiB, 40, 20);
    expect(memoryGrowth([leaking, leaking])?.leak).toBe(true);
    expect(memoryGrowth([leaking, series(0, 40, 20)])?.leak).toBe(false);
    expect(memoryGrowth([leaking, series(4 * KiB, 3, 20)])).toMatchObject({ processes: 1, leak: true });
  });
});

describe('memory growth and a collection at the end', () => {
  it('does not mark growth that a full collection gave back, and marks what outlasted it', () => {
    const garbage = { ...series(4 * KiB, 40, 20), endBytes: 40 * MiB + 100 * KiB };
    expect(processGrowth(garbage)?.keepsGrowing).toBe(false);
    const kept = series(4 * KiB, 40, 20);
    expect(processGrowth({ ...kept, endBytes: kept.sampleBytes[kept.sampleBytes.length - 1]! })?.keepsGrowing).toBe(true);
  });
});
