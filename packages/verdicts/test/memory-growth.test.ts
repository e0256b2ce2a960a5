import { describe, expect, it } from 'vitest';
import { GROWTH_FLOOR_BYTES, HELD_SAMPLE_ALLOWANCE_BYTES, HELD_SHARE, KEPT_SAMPLE_ALLOWANCE_BYTES, MIN_KEPT_SAMPLES, MIN_POOLED_ROUNDS, memoryGrowth, POOLED_HELD_PER_CALL_BYTES, processGrowth, ROUND_ALLOWANCE_BYTES, roundsKeptGrowing, SAMPLE_ALLOWANCE_BYTES } from '../src/index.ts';

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

describe('memory growth with collections forced at both ends', () => {
  /** A series whose ready and end readings were taken after a forced collection, ending at `endBytes` (its last reading by default). */
  const collected = (s: ReturnType<typeof series>, endBytes = s.sampleBytes[s.sampleBytes.length - 1]!) => ({ ...s, endBytes, collected: true });

  it('marks 4 KB a call kept in samples of 6 calls, which the allowance for garbage does not', () => {
    // 24 KiB a sample: under SAMPLE_ALLOWANCE_BYTES, over KEPT_SAMPLE_ALLOWANCE_BYTES.
    const leaking = series(4 * KiB, 400, 6);
    expect(6 * 4 * KiB).toBeLessThan(SAMPLE_ALLOWANCE_BYTES);
    expect(processGrowth({ ...leaking, endBytes: leaking.sampleBytes[399]! })?.keepsGrowing).toBe(false);
    const g = processGrowth(collected(leaking));
    expect(g?.keepsGrowing).toBe(true);
    expect(Math.abs(g!.bytesPerCall / (4 * KiB) - 1)).toBeLessThan(0.03);
  });

  it('does not mark growth the collection at the end gave back', () => {
    // Rising 4 KB a call while sampling, all of it garbage: the collected end is back near the start.
    const garbage = series(4 * KiB, 400, 6);
    expect(processGrowth(collected(garbage, garbage.readyBytes + 512 * KiB))?.keepsGrowing).toBe(false);
  });

  it("does not mark the runtime's own growth that outlasts the collection when it comes in the first samples", () => {
    // 30 KiB a sample kept over the first 150 samples of 400, then about KEPT_SAMPLE_ALLOWANCE_BYTES / 2 a sample.
    const early = series(0, 400, 6);
    early.sampleBytes = early.sampleBytes.map((b, i) => b + Math.min(i + 1, 150) * 30 * KiB + Math.max(0, i + 1 - 150) * (KEPT_SAMPLE_ALLOWANCE_BYTES / 2));
    expect(processGrowth(collected(early))?.keepsGrowing).toBe(false);
    // The same runtime's growth with 4 KB a call kept besides: marked.
    const leaking = series(4 * KiB, 400, 6);
    leaking.sampleBytes = leaking.sampleBytes.map((b, i) => b + Math.min(i + 1, 150) * 30 * KiB + Math.max(0, i + 1 - 150) * (KEPT_SAMPLE_ALLOWANCE_BYTES / 2));
    expect(processGrowth(collected(leaking))?.keepsGrowing).toBe(true);
  });

  it('marks a short series whose collection at the end gave back garbage it carried since the middle', () => {
    // 40 samples of 6 calls keeping 16 KB each; the collection at the end frees 1.1 MiB of garbage besides.
    const leaking = series(16 * KiB, 40, 6);
    expect(processGrowth(collected(leaking, leaking.sampleBytes[39]! - 1.1 * MiB))?.keepsGrowing).toBe(true);
  });

  it('reads a series that fell after its collected warm from warm: the allocator gave pages back late', () => {
    // 5 MiB given back by the first sample, filled again and 2 MiB past warm by garbage; the collected end 0.5 MiB past warm.
    const refills = series(0, 200, 6);
    refills.sampleBytes = refills.sampleBytes.map((b, i) => b - 5 * MiB + ((i + 1) * 7 * MiB) / 200);
    const g = processGrowth(collected(refills, refills.readyBytes + 0.5 * MiB));
    expect(g).toBeDefined();
    expect(g!.keepsGrowing).toBe(false);
  });

  it('does not mark a series of fewer than MIN_KEPT_SAMPLES samples, whatever it kept', () => {
    const short = series(16 * KiB, MIN_KEPT_SAMPLES - 1, 6);
    expect(processGrowth(collected(short))?.keepsGrowing).toBe(false);
    expect(processGrowth(collected(series(16 * KiB, MIN_KEPT_SAMPLES, 6)))?.keepsGrowing).toBe(true);
  });

  it('does not mark kept growth below the floor and the allowance per sample', () => {
    // 400 samples of 6 calls: the floor and 400 allowances, at 0.8× and 1.3× (the runtime's per-sample growth).
    const allowed = GROWTH_FLOOR_BYTES + 400 * KEPT_SAMPLE_ALLOWANCE_BYTES;
    expect(processGrowth(collected(series((allowed * 0.8) / (400 * 6), 400, 6)))?.keepsGrowing).toBe(false);
    expect(processGrowth(collected(series((allowed * 1.3) / (400 * 6), 400, 6)))?.keepsGrowing).toBe(true);
  });
});

describe("memory growth and what the engine held (heap and outside it, after the same collections)", () => {
  /** 300 samples of 6 calls; the resident set keeps `rssPerCall` a call past the collections, the engine `heldPerCall`. */
  function readings(rssPerCall: number, heldPerCall: number, ownPerSample = 0) {
    const s = series(rssPerCall, 300, 6);
    s.sampleBytes = s.sampleBytes.map((b, i) => b + (i + 1) * ownPerSample);
    const heldReady = 12 * MiB;
    return { ...s, endBytes: s.sampleBytes[299]!, collected: true, held: { readyBytes: heldReady, endBytes: heldReady + 300 * 6 * heldPerCall } };
  }

  it("does not mark a resident set that grew past every collection while the engine held no more: the allocator's, not the case's", () => {
    // The streams suite's 64 KB chunks through three TransformStreams: 7 MiB kept in the resident set, the heap and the bytes outside it flat.
    const allocator = readings((7 * MiB) / 1800, 100);
    expect(processGrowth({ ...allocator, held: undefined })?.keepsGrowing).toBe(true);
    expect(processGrowth(allocator)?.keepsGrowing).toBe(false);
  });

  it('marks a leak the engine holds, with what it held per call: the runtime\'s own growth per sample is in the resident set only', () => {
    // 4 KiB a call kept, and 5 KiB a sample of the runtime's own besides in the resident set.
    const g = processGrowth(readings(4 * KiB, 4 * KiB, 5 * KiB));
    expect(g?.keepsGrowing).toBe(true);
    expect(g!.bytesPerCall / (4 * KiB)).toBeGreaterThan(1.15);
    expect(g!.heldPerCallBytes).toBe(4 * KiB);
  });

  it('asks the engine for at least HELD_SHARE of what the resident set kept', () => {
    expect(processGrowth(readings(4 * KiB, 4 * KiB * HELD_SHARE * 1.05))?.keepsGrowing).toBe(true);
    expect(processGrowth(readings(4 * KiB, 4 * KiB * HELD_SHARE * 0.9))?.keepsGrowing).toBe(false);
  });

  it('marks a leak of 4 KB a call from samples of 2 calls where the engine held it: the resident set alone leaves it under its allowance', () => {
    const slow = series(4 * KiB, 300, 2);
    const end = slow.sampleBytes[299]!;
    expect(2 * 4 * KiB).toBeLessThan(KEPT_SAMPLE_ALLOWANCE_BYTES);
    expect(processGrowth({ ...slow, endBytes: end, collected: true })?.keepsGrowing).toBe(false);
    const g = processGrowth({ ...slow, endBytes: end, collected: true, held: { readyBytes: 12 * MiB, endBytes: 12 * MiB + 600 * 4 * KiB } });
    expect(g?.keepsGrowing).toBe(true);
    expect(g!.heldPerCallBytes).toBe(4 * KiB);
  });

  it("does not mark what the engine held growing by its steady cases' amounts: the floor and HELD_SAMPLE_ALLOWANCE_BYTES a sample", () => {
    // The resident set rising past its own allowance; the engine's figure by 0.8× and 1.3× of the floor and the samples' allowance.
    const allowed = GROWTH_FLOOR_BYTES + 300 * HELD_SAMPLE_ALLOWANCE_BYTES;
    expect(processGrowth(readings((allowed * 1.6) / 1800, (allowed * 0.8) / 1800))?.keepsGrowing).toBe(false);
    expect(processGrowth(readings((allowed * 1.6) / 1800, (allowed * 1.3) / 1800))?.keepsGrowing).toBe(true);
  });

  it('gives the case the held figure only when every judged process had one', () => {
    const held = readings(4 * KiB, 4 * KiB);
    expect(memoryGrowth([held, held])?.heldPerCallBytes).toBe(4 * KiB);
    const mixed = memoryGrowth([held, { ...held, held: undefined }]);
    expect(mixed?.leak).toBe(true);
    expect(mixed).not.toHaveProperty('heldPerCallBytes');
  });
});

describe("a default table's short rounds, read together", () => {
  /**
   * `rounds` rounds of `samples` samples of `calls` calls, each read between collections: the engine holds `heldPerCall`
   * more a call, plus `heldPerRound` whatever the case does; the resident set keeps `rssPerCall` (absent held: the engine cannot say).
   */
  function rounds(n: number, o: { samples?: number; calls?: number; heldPerCall: number; heldPerRound?: number; rssPerCall?: number; held?: boolean }) {
    const samples = o.samples ?? 16;
    const calls = o.calls ?? 10;
    return Array.from({ length: n }, (_, i) => {
      const s = series(o.rssPerCall ?? o.heldPerCall, samples, calls);
      const heldReady = 7 * MiB + i * 3 * KiB;
      const held = { readyBytes: heldReady, endBytes: heldReady + samples * calls * o.heldPerCall + (o.heldPerRound ?? 0) };
      return { ...s, endBytes: s.sampleBytes[samples - 1]!, collected: true, ...(o.held === false ? {} : { held }) };
    });
  }

  it('marks a case that keeps a few KB a call in every round where the engine says, though each round is too short alone', () => {
    // 6 rounds of 16 samples of 10 calls: 160 calls a round, 4 KiB each held (0.6 MiB a round); each round alone is never marked.
    const leaking = rounds(6, { heldPerCall: 4 * KiB });
    expect(16).toBeLessThan(MIN_KEPT_SAMPLES);
    expect(leaking.every((s) => processGrowth(s)?.keepsGrowing === false)).toBe(true);
    expect(roundsKeptGrowing(leaking)).toBe(true);
    expect(memoryGrowth(leaking)).toMatchObject({ leak: true, heldPerCallBytes: 4 * KiB });
    // 16 KiB a call (megabytes a round) likewise, and the rounds a loaded machine cuts to 5 samples.
    expect(memoryGrowth(rounds(6, { heldPerCall: 16 * KiB, samples: 5 }))?.leak).toBe(true);
  });

  it("never marks a case that keeps nothing: what a steady case's rounds held (up to 0.9 KiB a call in one, a few hundred KiB over all)", () => {
    expect(memoryGrowth(rounds(19, { heldPerCall: 900, samples: 8, calls: 6 }))?.leak).toBe(false);
    expect(memoryGrowth(rounds(19, { heldPerCall: 150 }))?.leak).toBe(false);
    // Garbage the allocator keeps past the collections (4 KiB a call in the resident set), the engine holding nothing more.
    expect(memoryGrowth(rounds(20, { heldPerCall: 130, rssPerCall: 4 * KiB }))?.leak).toBe(false);
  });

  it('asks every round to hold POOLED_HELD_PER_CALL_BYTES a call and ROUND_ALLOWANCE_BYTES, and all of them the floor besides', () => {
    const leaking = rounds(6, { heldPerCall: 4 * KiB });
    leaking[3]!.held!.endBytes = leaking[3]!.held!.readyBytes + 160 * POOLED_HELD_PER_CALL_BYTES * 0.9;
    expect(roundsKeptGrowing(leaking)).toBe(false);
    // A slow case of 20 calls a round: 2.5 KiB a call is 50 KiB a round, under the round's allowance (its compiled code, its caches).
    expect(roundsKeptGrowing(rounds(8, { heldPerCall: 2.5 * KiB, samples: 10, calls: 2 }))).toBe(false);
    // Three rounds of 200 KiB each: past each round's allowance, not past the floor and them all.
    expect(3 * 200 * KiB).toBeLessThan(GROWTH_FLOOR_BYTES + 3 * ROUND_ALLOWANCE_BYTES);
    expect(roundsKeptGrowing(rounds(3, { heldPerCall: 0, heldPerRound: 200 * KiB, calls: 5, samples: 8 }))).toBe(false);
    expect(roundsKeptGrowing(rounds(MIN_POOLED_ROUNDS - 1, { heldPerCall: 16 * KiB }))).toBe(false);
  });

  it('asks the engine for HELD_SHARE of what the resident set kept over the rounds', () => {
    expect(roundsKeptGrowing(rounds(6, { heldPerCall: 4 * KiB, rssPerCall: (4 * KiB) / HELD_SHARE / 1.1 }))).toBe(true);
    expect(roundsKeptGrowing(rounds(6, { heldPerCall: 4 * KiB, rssPerCall: (4 * KiB) / HELD_SHARE / 0.9 }))).toBe(false);
  });

  it('leaves the mark unknown where only the resident set could judge short rounds, and "no" where a round that can say did not grow', () => {
    // workerd: no word of what the engine held; a heap growing to its size over short rounds reads as a leak there.
    const unsaid = memoryGrowth(rounds(6, { heldPerCall: 16 * KiB, held: false }));
    expect(unsaid).toBeDefined();
    expect(unsaid).not.toHaveProperty('leak');
    expect(unsaid!.bytesPerCall).toBeGreaterThan(12 * KiB);
    // A round long enough for the resident set that did not grow says no for the case.
    expect(memoryGrowth([...rounds(3, { heldPerCall: 0, held: false }), { ...series(0, MIN_KEPT_SAMPLES + 8, 10), endBytes: 40 * MiB, collected: true }])?.leak).toBe(false);
    // Rounds that took no collections are judged by the slope, as before.
    expect(memoryGrowth(rounds(6, { heldPerCall: 0, held: false }).map(({ collected: _, endBytes: __, ...s }) => s))?.leak).toBe(false);
  });
});
