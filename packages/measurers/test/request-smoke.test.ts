/**
 * A request case's smoke run (--fixed-warmup): a round that would serve until
 * steady serves a small count whole, the empty handler a few requests, a
 * profiled server a short warm-up and steady stretch; a count the
 * suite fixed is served up to 50. The run records it as a smoke run and its
 * description says what its rounds served. What a round of each declaration
 * serves is what the time said before a run is reckoned from.
 */
import { describe, expect, it } from 'vitest';
import { MEASURER_RECORDS, SMOKE_SERVING } from '@rtbench/measurer-records';
import type { RunRecord } from '@rtbench/core/schema';
import { requestSuite } from '@rtbench/core';
import { REQUEST_CPU } from '../src/measurers/request-cpu.ts';
import { profilePhases, roundServing, SERVE_UNTIL_STEADY } from '../src/measurers/request-phases.ts';

describe('a request round, measuring and smoke', () => {
  it('measuring: until steady, within the bounds, 50 requests to the empty handler; a fixed count whole', () => {
    expect(roundServing(undefined, false)).toEqual({ requests: SERVE_UNTIL_STEADY.maxRequests, untilSteady: true, emptyRequests: 50 });
    expect(roundServing(41, false)).toEqual({ requests: 41, untilSteady: false, emptyRequests: 41 });
    expect(roundServing(200, false)).toEqual({ requests: 200, untilSteady: false, emptyRequests: 50 });
  });

  it('smoke: a small count whole, not until steady, a few empty requests; a count the suite fixed up to the least a measuring round serves', () => {
    expect(roundServing(undefined, true)).toEqual({ requests: SMOKE_SERVING.requests, untilSteady: false, emptyRequests: SMOKE_SERVING.emptyRequests });
    expect(SMOKE_SERVING.requests).toBeLessThan(SERVE_UNTIL_STEADY.minRequests);
    expect(roundServing(41, true)).toEqual({ requests: 41, untilSteady: false, emptyRequests: SMOKE_SERVING.emptyRequests });
    // request-tail's 251 and relay-served's 151.
    expect(SMOKE_SERVING.mostRequests).toBe(SERVE_UNTIL_STEADY.minRequests);
    expect(roundServing(251, true)).toEqual({ requests: SMOKE_SERVING.mostRequests, untilSteady: false, emptyRequests: SMOKE_SERVING.emptyRequests });
    expect(roundServing(3, true)).toEqual({ requests: 3, untilSteady: false, emptyRequests: 3 });
  });

  it("the profile pass: the profiler's own phases when measuring; a smoke run's short ones, its marks still told apart", () => {
    expect(profilePhases(false)).toBeUndefined();
    // The steady requests between the profile's marks: long enough to be sampled hundreds of times.
    expect(SMOKE_SERVING.profileSteadyMs).toBeGreaterThan(200);
    expect(profilePhases(true)).toEqual({ warmupRequests: SMOKE_SERVING.profileWarmupRequests, warmupMs: 0, steadyRequests: SMOKE_SERVING.profileSteadyRequests, steadyMs: SMOKE_SERVING.profileSteadyMs });
  });
});

describe('a smoke run recorded', () => {
  const setup = { sampleTimeMs: 5, warmupMs: 10, timeoutMs: 60_000, mode: 'bench', engines: [], cases: [], rounds: 1, timeMs: 5, programDir: '/tmp/programs', suite: { name: 'requests', path: '/tmp/requests' }, warn: () => {} } as unknown as Parameters<typeof REQUEST_CPU.build>[0];

  it('under a fixed warmup the measurer block says smoke; with a warmup floor it says nothing', () => {
    expect(REQUEST_CPU.build(setup).fields).toEqual({ smoke: true });
    expect(REQUEST_CPU.build({ ...setup, warmupMinMs: 5 }).fields).toBeUndefined();
  });

  it('a saved smoke run loads with the field and its description says what its rounds served', () => {
    const options = { measurer: 'request-cpu', measurerFields: { smoke: true } } as unknown as RunRecord['options'];
    expect(MEASURER_RECORDS.measurerBlock(options, {}).measurerFields).toEqual({ smoke: true });
    const said = MEASURER_RECORDS.recorded('request-cpu').describe(options).rounds;
    expect(said).toContain(`a smoke run (a fixed warmup): a round that would serve until steady served ${SMOKE_SERVING.requests} requests`);
    expect(MEASURER_RECORDS.recorded('request-cpu').describe({ ...options, measurerFields: {} }).rounds).not.toContain('smoke');
  });
});

describe('what a round of each declaration serves, said before a run', () => {
  const GET = { method: 'GET', path: '/' } as const;
  const cases = requestSuite('two', [
    { name: 'page', handler: '/tmp/h.js', mix: [{ name: 'page', weight: 1, request: GET }] },
    { name: 'relay', handler: '/tmp/h.js', mix: [{ name: 'relay', weight: 1, request: GET }], requests: 151 },
  ]).cases();

  it("one entry per declaration, whichever of its three figures' cases are run: until steady within its time, or a count whole", () => {
    const steady = { requests: { least: SERVE_UNTIL_STEADY.minRequests, most: SERVE_UNTIL_STEADY.maxRequests }, concurrency: 1, emptyRequests: 50, withinMs: SERVE_UNTIL_STEADY.maxServeMs };
    const whole = { requests: { least: 151, most: 151 }, concurrency: 1, emptyRequests: 50 };
    expect(REQUEST_CPU.servedRounds!(cases, { warmupMinMs: 20 })).toEqual([steady, whole]);
    expect(REQUEST_CPU.servedRounds!(cases.filter((c) => c.id.includes('js thread')), { warmupMinMs: 20, own: { concurrency: 10 } })).toEqual([
      { ...steady, concurrency: 10 },
      { ...whole, concurrency: 10 },
    ]);
  });

  it('a smoke run serves its small counts whole', () => {
    expect(REQUEST_CPU.servedRounds!(cases, {})).toEqual([
      { requests: { least: SMOKE_SERVING.requests, most: SMOKE_SERVING.requests }, concurrency: 1, emptyRequests: SMOKE_SERVING.emptyRequests },
      { requests: { least: SMOKE_SERVING.mostRequests, most: SMOKE_SERVING.mostRequests }, concurrency: 1, emptyRequests: SMOKE_SERVING.emptyRequests },
    ]);
  });
});
