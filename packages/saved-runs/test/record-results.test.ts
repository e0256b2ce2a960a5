/**
 * The run record as the loop fills it (record.ts): one result per case ×
 * variant in case order, a variant that cannot run failed or unsupported
 * from the start; and what finishing takes from the rounds alone: a memory
 * summary where rounds read memory (and none where they did not, whatever
 * was stored), the without-work mark, a failed result with rounds partial.
 */
import { describe, expect, it } from 'vitest';
import type { HostMemory, RunRecord } from '@rtbench/core/schema';
import { UNDEFINED_SUMMARY } from '@rtbench/core/digest';
import { syntheticRun } from '../../../test/compare-synthetic.ts';
import { addResults, finishRun, resultKey } from '../src/record.ts';

describe('the results a run starts with', () => {
  it('one per case × variant, in case order, each keyed apart; a variant that cannot run starts failed or unsupported with its reason', () => {
    const run = { results: [] } as unknown as RunRecord;
    const map = addResults(run, [{ id: 'a' }, { id: 'b' }], [
      { id: 'node' },
      { id: 'bun', unavailable: { kind: 'unsupported', message: 'no Atomics.wait' } },
      { id: 'deno', unavailable: { kind: 'runtime-unavailable', message: 'not installed' } },
    ]);
    expect(run.results.map((r) => `${r.caseId} ${r.variantId} ${r.status}`)).toEqual(['a node ok', 'a bun unsupported', 'a deno failed', 'b node ok', 'b bun unsupported', 'b deno failed']);
    expect(run.results[0]).toEqual({ caseId: 'a', variantId: 'node', status: 'ok', rounds: [], failures: [] });
    expect(run.results[1]!.failures).toEqual([{ kind: 'unsupported', message: 'no Atomics.wait' }]);
    expect(run.results[2]!.failures).toEqual([{ kind: 'runtime-unavailable', message: 'not installed' }]);
    expect(map.size).toBe(6);
    expect(map.get(resultKey('b', 'deno'))).toBe(run.results[5]);
    // A case and a variant whose names run together are still two keys.
    expect(resultKey('a b', 'c')).not.toBe(resultKey('a', 'b c'));
  });
});

/** A run of one case on one variant, three rounds of five samples, finished after `edit`. */
function finished(edit: (run: RunRecord) => void): RunRecord {
  const run = syntheticRun({ cases: [{ id: 'c', ns: 1000 }], arms: [{ id: 'node', factor: 1 }], rounds: 3, samplesPerRound: 5 });
  edit(run);
  finishRun(run, false);
  return run;
}

const memory = (peakBytes: number, over: Partial<HostMemory> = {}): HostMemory => ({ source: 'proc', openBytes: 50e6, sampleBytes: [], callsPerSample: 1000, peakBytes, processes: 1, ...over });

describe('what finishing takes from the rounds', () => {
  it('memory read in every round: the median peak and the peak above open; none read: no summary, whatever was stored', () => {
    const read = finished((run) => run.results[0]!.rounds.forEach((r, i) => (r.memory = memory(60e6 + i * 10e6))));
    expect(read.results[0]!.memory).toEqual({ rounds: 3, peakBytes: 70e6, peakAboveOpenBytes: 20e6 });
    const none = finished((run) => (run.results[0]!.memory = { rounds: 3, peakBytes: 1, peakAboveOpenBytes: 1 }));
    expect(none.results[0]!.memory).toBeUndefined();
  });

  it('a round whose resident set grows with its calls gives the growth per call and the leak mark; one without a ready reading or samples gives none', () => {
    const samples = Array.from({ length: 12 }, (_, i) => 60e6 + i * 1e6);
    const growing = finished((run) => run.results[0]!.rounds.forEach((r) => (r.memory = memory(80e6, { readyBytes: 60e6, sampleBytes: samples, endBytes: 72e6 }))));
    expect(growing.results[0]!.memory?.growthPerCallBytes).toBeCloseTo(1000, 6);
    // It kept what it grew by to its end: the mark of a leak.
    expect(growing.results[0]!.memory?.leak).toBe(true);
    const unready = finished((run) => run.results[0]!.rounds.forEach((r) => (r.memory = memory(80e6, { sampleBytes: samples }))));
    expect(unready.results[0]!.memory).toEqual({ rounds: 3, peakBytes: 80e6, peakAboveOpenBytes: 30e6 });
    const unsampled = finished((run) => run.results[0]!.rounds.forEach((r) => (r.memory = memory(80e6, { readyBytes: 60e6 }))));
    expect(unsampled.results[0]!.memory).toEqual({ rounds: 3, peakBytes: 80e6, peakAboveOpenBytes: 30e6 });
  });

  it('without work only where every sign says so: one round that returned undefined marks it; a mark stored without it is taken off', () => {
    const one = finished((run) => (run.results[0]!.rounds[1]!.digest = { ...run.results[0]!.rounds[1]!.digest, summary: UNDEFINED_SUMMARY }));
    expect(one.results[0]!.withoutWork?.returnsUndefined).toBe(true);
    const stored = finished((run) => (run.results[0]!.withoutWork = { returnsUndefined: true }));
    expect(stored.results[0]!.withoutWork).toBeUndefined();
  });

  it('a result that failed but holds rounds is partial; one without rounds stays failed', () => {
    const run = finished((r) => {
      r.results[0]!.status = 'failed';
      r.results[0]!.failures.push({ kind: 'crash', message: 'exit 1', round: 2 });
    });
    expect(run.results[0]!.status).toBe('partial');
    expect(run.status).toBe('failed');
  });
});

describe("a round's memory after collections at both ends", () => {
  it('gives what the engine held more per call beside the growth; without the collections or the end reading, none', () => {
    const samples = Array.from({ length: 12 }, (_, i) => 60e6 + i * 1e6);
    const withHeld = (collected: boolean) =>
      finished((run) =>
        run.results[0]!.rounds.forEach((r) => {
          r.memory = memory(80e6, { readyBytes: 60e6, sampleBytes: samples, endBytes: 72e6, collected });
          r.metrics = { heap: { heldReadyBytes: 10e6, heldEndBytes: 22e6 } } as unknown as NonNullable<typeof r.metrics>;
        }),
      ).results[0]!.memory;
    const held = withHeld(true);
    expect(held?.heldPerCallBytes).toBeGreaterThan(0);
    expect(held?.growthPerCallBytes).toBeCloseTo(1000, 6);
    expect(withHeld(false)?.heldPerCallBytes).toBeUndefined();
  });

  it('gives none where the engine said only one end of what it held, or nothing, and the growth still', () => {
    const samples = Array.from({ length: 12 }, (_, i) => 60e6 + i * 1e6);
    const withHeap = (heap: Record<string, number> | undefined) =>
      finished((run) =>
        run.results[0]!.rounds.forEach((r) => {
          r.memory = memory(80e6, { readyBytes: 60e6, sampleBytes: samples, endBytes: 72e6, collected: true });
          if (heap) r.metrics = { heap } as unknown as NonNullable<typeof r.metrics>;
        }),
      ).results[0]!.memory;
    for (const heap of [{ heldReadyBytes: 10e6 }, { heldEndBytes: 22e6 }, undefined] as (Record<string, number> | undefined)[]) {
      const summary = withHeap(heap);
      expect(summary?.growthPerCallBytes, JSON.stringify(heap)).toBeCloseTo(1000, 6);
      expect(summary?.heldPerCallBytes, JSON.stringify(heap)).toBeUndefined();
    }
  });
});
