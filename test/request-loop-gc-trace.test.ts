// The collections scripts/measure/requests/request-loop-gc.ts counts per request, read from a
// V8 --trace-gc log the driver marked: a line put in the wrong request or
// kind would move the figures docs/measurements quotes.
import { describe, expect, it } from 'vitest';
import { collectionsOf, tracedRequests } from '../scripts/measure/requests/request-loop/gc-trace.ts';

const LOG = [
  '[23507:0x5567bd456000]       17 ms: Scavenge 5.1 (6.3) -> 4.7 (7.1) MB, pooled: 0.0 MB, 0.67 / 0.00 ms (average mu = 1.000, current mu = 1.000) allocation failure; ',
  '--- request 0 47.42 ms',
  '[23507:0x5567bd456000]       85 ms: Incremental Mark-Compact 25.4 (34.9) -> 6.4 (25.7) MB, pooled: 0.2 MB, 1.75 / 0.00 ms (+ 2.6 ms in 65 steps since start of marking, biggest step 0.1 ms, walltime since start of marking 5 ms) (average mu = 0.949, current mu = 0.949) finalize incremental marking via task; GC in old space requested',
  '[23507:0x5567bd456000]      185 ms: Scavenge (during sweeping) 47.1 (85.2) -> 17.6 (76.2) MB, pooled: 0.0 MB, 4.43 / 0.00 ms (average mu = 0.947, current mu = 0.945) allocation failure; ',
  '[23507:0x5567bd456000]      190 ms: Minor Mark-Sweep 12.0 (20.0) -> 8.0 (20.0) MB, pooled: 0.0 MB, 1.00 / 0.00 ms (average mu = 0.947, current mu = 0.945) allocation failure; ',
  '--- request 1 32.04 ms',
  '--- request 2 27.66 ms',
  '[23507:0x5567bd456000]      203 ms: Scavenge 47.2 (85.9) -> 14.5 (80.0) MB, pooled: 0.0 MB, 1.99 / 0.00 ms (average mu = 0.947, current mu = 0.945) allocation failure; ',
  'page=react&calls=1: p50 13.66 ms',
].join('\n');

describe('a marked --trace-gc log', () => {
  it('gives each request the collections before its mark, by kind, with pause and heap', () => {
    const requests = tracedRequests(LOG);
    expect(requests.map((r) => r.ms)).toEqual([47.42, 32.04, 27.66]);
    expect(requests[0]!.collections).toEqual([{ kind: 'young', pauseMs: 0.67, beforeMb: 5.1 }]);
    // A full collection's pause counts its incremental steps on the main thread; a young one during sweeping is young.
    expect(requests[1]!.collections).toEqual([
      { kind: 'full', pauseMs: 1.75 + 2.6, beforeMb: 25.4 },
      { kind: 'young', pauseMs: 4.43, beforeMb: 47.1 },
      { kind: 'young', pauseMs: 1, beforeMb: 12 },
    ]);
    // Nothing ran in request 2; the collection after the last mark is no request's.
    expect(requests[2]!.collections).toEqual([]);
  });

  it('sums each kind over the requests asked for, and the largest heap before any', () => {
    const c = collectionsOf(tracedRequests(LOG).slice(1));
    expect(c.young).toBe(2);
    expect(c.youngMs).toBeCloseTo(5.43, 9);
    expect(c.full).toBe(1);
    expect(c.fullMs).toBeCloseTo(4.35, 9);
    expect(c.maxHeapMb).toBe(47.1);
    expect(collectionsOf([])).toEqual({ young: 0, youngMs: 0, full: 0, fullMs: 0, maxHeapMb: 0 });
  });
});
