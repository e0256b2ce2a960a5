import { describe, expect, it } from 'vitest';
import { SAMPLING_END_MARKER, SAMPLING_START_MARKER, TraceFilter } from '@rtbench/process';
import { pacedJob } from '@rtbench/core/protocol';
import { JscGcLog } from '../src/gc-trace.ts';
import { readsGcLog } from '../src/gc-probe.ts';
import { timedMeasureOptions } from '../../../packages/measurers/src/measurers/measure-options.ts';

// Lines as Bun 1.4.5 prints them under BUN_JSC_logGC=1 (shortened in the middle).
const eden = (before: number, after: number, p: number) =>
  `[GC<0x422fbf9c118>: START M ${before}kb => EdenCollection, a=0kb hf=0.000 mu=0.600 v=0kb (C:0 M:0 P1:0) o=2 b=1 i#3:P<Msm(0)>Pbc => ${after}kb, p=${p}ms (max 6.306053), cycle 1.6ms END]`;
const fullStart = '[GC<0x27222fb8118>: START M 67424kb => FullCollection, a=0kb hf=0.000 mu=0.600 v=0kb (C:0 M:0 P1:0) o=0 b=2 i#1:N<CsMsrShDMsm(0)SrbBcs> 0+0 p=2.5ms (max 8.166452)...]';
const fullStep = '[GC<0x27222fb8118>: M a=9879kb hf=0.426 mu=0.344 v=14879kb (C:1612 M:0 P1:13266) o=1 b=0 0+2 p=1.25ms (max 8.166452)...]';
const fullEnd = '[GC<0x27222fb8118>: M a=1607kb hf=0.490 mu=0.2 i#4:P<Msm(0)>Pbc => 4360kb, p=0.5ms (max 2.531986), cycle 6.965050ms END]';

describe('JSC logGC on the host', () => {
  it('counts eden and full collections between the markers, with steps, pauses and freed bytes', () => {
    const filter = new TraceFilter(new JscGcLog());
    const kept =
      filter.push(
        [
          eden(9000, 800, 9),
          'Requesting GC because bytes allocated this cycle: 8254155 exceed bytes allowed: 8247924',
          `${SAMPLING_START_MARKER} heapUsed=1000000`,
          eden(9054, 807, 1.5),
          'GC END!',
          '[GC<0x422fbf9c118>: epilogue 0.042023ms]',
          'printed by the case',
          fullStart,
          fullStep,
          fullEnd,
          `${SAMPLING_END_MARKER} heapUsed=2000000`,
          eden(9000, 800, 9),
          '',
        ].join('\n'),
      ) + filter.end();
    expect(kept).toBe('printed by the case\n');
    const m = filter.parser.metrics();
    expect(m.gc).toEqual({ minor: { count: 1, timeMs: 1.5 }, major: { count: 1, timeMs: 2.5 }, incremental: { count: 2, timeMs: 1.75 } });
    // heap used grew by 1,000,000 B; the collections freed (9054−807) + (67424−4360) kB.
    expect(m.allocation?.bytes).toBe(1_000_000 + (9054 - 807 + 67424 - 4360) * 1024);
    expect(m.allocation?.estimate).toBe(true);
  });

  it('counts a collection that started during sampling whole, even when it ended after', () => {
    const filter = new TraceFilter(new JscGcLog());
    filter.push([`${SAMPLING_START_MARKER} heapUsed=1`, fullStart, `${SAMPLING_END_MARKER} heapUsed=2`, fullEnd, ''].join('\n'));
    const m = filter.parser.metrics();
    expect(m.gc?.major.count).toBe(1);
    expect(m.allocation?.bytes).toBe(1 + (67424 - 4360) * 1024);
  });

  it('without heap figures on the markers, says allocation is unknown', () => {
    const filter = new TraceFilter(new JscGcLog());
    filter.push([SAMPLING_START_MARKER, eden(9054, 807, 1.5), SAMPLING_END_MARKER, ''].join('\n'));
    const m = filter.parser.metrics();
    expect(m.gc?.minor.count).toBe(1);
    expect(m.allocation).toBeUndefined();
    expect(m.unavailable?.allocation).toMatch(/heap figure/);
  });
});

describe('JSC logGC from a warm process (one sampling phase per case)', () => {
  it('gives each phase its own metrics, in order, and none to a phase that did not end', () => {
    const filter = new TraceFilter(new JscGcLog(), () => new JscGcLog());
    const kept =
      filter.push(
        [
          `${SAMPLING_START_MARKER} heapUsed=1000`,
          eden(9054, 807, 1.5),
          `${SAMPLING_END_MARKER} heapUsed=2000`,
          eden(9000, 800, 9),
          `${SAMPLING_START_MARKER} heapUsed=1000`,
          eden(9054, 807, 2),
          eden(9054, 807, 3),
          `${SAMPLING_END_MARKER} heapUsed=2000`,
          'case output',
          `${SAMPLING_START_MARKER} heapUsed=1000`,
          '',
        ].join('\n'),
      ) + filter.end();
    expect(kept).toBe('case output\n');
    const phases = filter.segmentMetrics();
    expect(phases).toHaveLength(3);
    expect(phases[0]!.gc?.minor).toEqual({ count: 1, timeMs: 1.5 });
    expect(phases[1]!.gc?.minor).toEqual({ count: 2, timeMs: 5 });
    expect(phases[2]).toBeUndefined();
  });
});

describe("JSC's GC log, only when the run asks for collection counts", () => {
  const setup = { sampleTimeMs: 30, warmupMs: 30, warmupMinMs: 10, timeoutMs: 60_000 };
  it('is on for a job of a run that asked for the GC view, and off otherwise', () => {
    const asked = pacedJob('c', timedMeasureOptions({ ...setup, needs: ['collection-counts'] }));
    const plain = pacedJob('c', timedMeasureOptions(setup));
    expect(readsGcLog(asked, false)).toBe(true);
    expect(readsGcLog(plain, false)).toBe(false);
    expect(readsGcLog(pacedJob('c', timedMeasureOptions({ ...setup, needs: ['settled-memory'] })), false)).toBe(false);
    // A variant that sets BUN_JSC_logGC itself decides alone; a list job measures nothing.
    expect(readsGcLog(asked, true)).toBe(false);
    expect(readsGcLog({ protocol: asked.protocol, kind: 'list' }, false)).toBe(false);
  });
});
