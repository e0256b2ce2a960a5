/** What a request round's cases save of the server's resident memory: the peak for each, the growth series for the handler's from its steady point. */
import { describe, expect, it } from 'vitest';
import { memoryOf } from '../src/measurers/request-cpu.ts';

const MiB = 1024 * 1024;
const read = { source: '/proc', openBytes: 40 * MiB, endBytes: 46 * MiB, peakBytes: 48 * MiB, processes: 1 };

describe("a request server's memory in its round's cases", () => {
  it("gives the handler's cases the reading after the warm-up as ready and each steady request's after it, one call a sample", () => {
    const memory = { ...read, requestBytes: [41, 42, 43, 44, 45].map((m) => m * MiB) };
    expect(memoryOf(true, memory, 2)).toEqual({ memory: { ...read, readyBytes: 42 * MiB, sampleBytes: [43, 44, 45].map((m) => m * MiB), callsPerSample: 1 } });
  });

  it('keeps the peak alone for the empty handler, a round never steady, and a series with a reading missing', () => {
    const memory = { ...read, requestBytes: [41 * MiB, undefined, 43 * MiB, 44 * MiB] };
    const peakOnly = { memory: { ...read, sampleBytes: [], callsPerSample: 1 } };
    expect(memoryOf(false, memory, 1)).toEqual(peakOnly);
    expect(memoryOf(true, memory, undefined)).toEqual(peakOnly);
    expect(memoryOf(true, memory, 1)).toEqual(peakOnly);
    // From the missing reading on, the series is whole again.
    expect(memoryOf(true, memory, 3).memory?.sampleBytes).toEqual([44 * MiB]);
  });

  it('saves nothing where the server could not be read', () => {
    expect(memoryOf(true, undefined, 2)).toEqual({});
  });
});
