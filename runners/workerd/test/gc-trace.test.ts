import { describe, expect, it } from 'vitest';
import { TraceFilter, SAMPLING_END_MARKER, SAMPLING_START_MARKER } from '@rtbench/process';
import { nvpKind, parseNvpLine, V8NvpTrace } from '../src/gc-trace.ts';
import { withGcTrace } from '../src/run-job.ts';

const nvp = (fields: Record<string, unknown>, ms = 1502): string => `[15388:0x32407fd4c000:0]     ${ms} ms: GC: ${JSON.stringify(fields)}`;
const scavenge = (allocated: number, pause = 0.5, capacity = 1048576) =>
  nvp({ pause, gc: 's', allocated, new_space_capacity: capacity, end_object_size: 700_000, end_memory_size: 3_145_728, old_gen_allocation_limit: 33_554_432, 'incremental.steps_count': 0 });

describe('V8 --trace-gc-nvp on the host', () => {
  it('parses V8 15 JSON lines and names the collector kinds', () => {
    expect(parseNvpLine(scavenge(100))).toMatchObject({ gc: 's', allocated: 100 });
    expect(parseNvpLine('[1:0xab]  17 ms: Memory pool: Removed pages: 0, removed large pages: 0')).toBe('other-trace');
    expect(parseNvpLine(', removed zone reservations: 0')).toBe('other-trace');
    expect(parseNvpLine('a line the case printed')).toBeUndefined();
    expect([nvpKind('s'), nvpKind('mms'), nvpKind('mc'), nvpKind('ms')]).toEqual(['minor', 'minor', 'major', 'major']);
  });

  it('counts only the collections between the markers, keeps case output, and sums allocation and pauses', () => {
    const filter = new TraceFilter(new V8NvpTrace());
    const stream = [
      scavenge(999, 9),
      'case output before sampling',
      SAMPLING_START_MARKER,
      scavenge(1000, 0.5),
      'case output during sampling',
      scavenge(2000, 0.25, 2_097_152),
      nvp({ pause: 4, gc: 'mc', allocated: 500, incremental: 3, incremental_steps_count: 7, new_space_capacity: 2_097_152 }),
      SAMPLING_END_MARKER,
      scavenge(5000, 9),
    ].join('\n');
    // Fed in uneven chunks, as a pipe delivers it.
    let kept = '';
    for (let i = 0; i < stream.length; i += 37) kept += filter.push(stream.slice(i, i + 37));
    kept += filter.end();
    expect(kept).toBe('case output before sampling\ncase output during sampling\n');
    expect(filter.delimited).toBe(true);
    const m = filter.parser.metrics();
    expect(m.gc).toEqual({ minor: { count: 2, timeMs: 0.75 }, major: { count: 1, timeMs: 4 }, incremental: { count: 7, timeMs: 3 }, other: { count: 0, timeMs: 0 } });
    expect(m.allocation).toMatchObject({ bytes: 3500, estimate: true });
    expect(m.heap).toMatchObject({ youngSizeBytes: 2_097_152, youngPeakSizeBytes: 2_097_152 });
  });

  it('says why allocation is unknown when no GC ran during sampling', () => {
    const filter = new TraceFilter(new V8NvpTrace());
    filter.push(`${scavenge(1)}\n${SAMPLING_START_MARKER}\n${SAMPLING_END_MARKER}\n`);
    const m = filter.parser.metrics();
    expect(m.gc?.minor.count).toBe(0);
    expect(m.allocation).toBeUndefined();
    expect(m.unavailable?.allocation).toMatch(/no GC during sampling/);
    expect(m.heap?.youngSizeBytes).toBe(1048576);
  });

  it('adds the trace flag unless the variant turned it off', () => {
    expect(withGcTrace(['--max-semi-space-size=1'])).toEqual(['--max-semi-space-size=1', '--trace-gc-nvp']);
    expect(withGcTrace(['--no-trace-gc-nvp'])).toEqual(['--no-trace-gc-nvp']);
  });
});
