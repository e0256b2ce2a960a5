/**
 * The lines that open a run: the plan fits the terminal (four runtimes with their versions and an adaptive plan took
 * 114 columns), and the time the run should take is said before it starts, reckoned from the plan alone: a Worker's
 * or a request suite's too, whose rounds are fresh servers.
 */
import { describe, expect, it } from 'vitest';
import { runHeading } from '../src/run/execute.ts';
import { expectedLine, expectedTime, PROCESS_OVERHEAD_MS, REQUEST_ROUND_TRIP_MS, tookLine, type EstimatePlan } from '../src/run/expected-time.ts';

type HeadingPlan = Parameters<typeof runHeading>[0];

const SGR = /\x1b\[[0-9;]*m/g;
const resolved = (id: string, version: string) => ({ spec: { id }, target: { version } });
const FOUR = [resolved('node', '26.10.0'), resolved('deno', '2.9.6'), resolved('bun', '1.4.5'), resolved('workerd', '2026-11-17')];
const TIMED = { warmsInRuntime: true };

function plan(variants: unknown[], cases = 16, options: Record<string, unknown> = {}): HeadingPlan & EstimatePlan {
  return {
    suite: { name: 'json-reviver', cases: Array.from({ length: cases }, (_, i) => ({ id: `c${i}` })) },
    variants,
    options: { roundPlan: { order: 'shuffled', rounds: 6, adaptive: { target: 0.02, maxRounds: 30, budgetMs: 60_000 } }, timeMs: 240, warmupMs: 60, warmupMinMs: 20, measurer: TIMED, ...options },
  } as unknown as HeadingPlan & EstimatePlan;
}

describe('the line that opens a run', () => {
  it('names the suite, its cases, each variant with its version, the rounds and when more are added, within 100 columns', () => {
    const lines = runHeading(plan(FOUR), 100).map((l) => l.replace(SGR, ''));
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(100);
    expect(lines.join(' ').replace(/\s+/g, ' ')).toBe('json-reviver: 16 cases × node (26.10.0), deno (2.9.6), bun (1.4.5), workerd (2026-11-17) × 6 rounds, then more until ±2%, up to 30 or 1:00');
    expect(lines.slice(1).every((l) => l.startsWith('  '))).toBe(true);
  });

  it('stays one line where it fits, and says a variant that could not be found', () => {
    const fixed = plan([resolved('node', '26.10.0'), { spec: { id: 'node@24.0.0' }, reason: 'not installed' }], 1, { roundPlan: { order: 'balanced', rounds: 30 } });
    expect(runHeading(fixed, 100).map((l) => l.replace(SGR, ''))).toEqual(['json-reviver: 1 case × node (26.10.0), node@24.0.0 (unavailable) × 30 rounds']);
  });
});

describe('the time a run should take, said before it', () => {
  it('is cases × arms × rounds × a set, each arm paying its process, its warmup floor and its sampling', () => {
    const setMs = 4 * (PROCESS_OVERHEAD_MS + 20 + 240 / 6);
    const expected = expectedTime(plan(FOUR))!;
    expect(expected.ms).toBeCloseTo(16 * 6 * setMs);
    // Added rounds run while the 60 s budget lasts: none once the planned rounds pass it.
    expect(expected.addedMs).toBe(Math.max(0, 60_000 - expected.ms));
    expect(expectedLine(plan(FOUR))).toBe(`expected: about 2:57 (16 cases × 4 arms × 6 rounds × ~1.8 s a set); --filter, --rounds, --max-time or --time shorten it`);
  });

  it('follows the plan: fewer cases or arms, fewer rounds, and a process serving two rounds pays its start once', () => {
    const full = expectedTime(plan(FOUR))!.ms;
    expect(expectedTime(plan(FOUR, 8))!.ms).toBeCloseTo(full / 2);
    expect(expectedTime(plan(FOUR.slice(0, 2)))!.ms).toBeCloseTo(full / 2);
    const twoRounds = { roundPlan: { order: 'balanced', rounds: 30 }, timeMs: 3000, warmupMs: 150, warmupMinMs: 50, prepared: { roundsPerProcess: 2 } };
    const compare = expectedTime(plan(FOUR.slice(0, 2), 6, twoRounds))!;
    expect(compare.ms).toBeCloseTo(6 * 30 * 2 * (PROCESS_OVERHEAD_MS / 2 + 50 + 100));
    expect(compare.addedMs).toBe(0);
    expect(expectedLine(plan(FOUR.slice(0, 2), 6, twoRounds))).toMatch(/^expected: about 2:06 \(6 cases × 2 arms × 30 rounds × ~0\.7 s a set\); --filter, --rounds or --time shorten it$/);
  });

  it('says the added rounds a short plan may still run within its budget', () => {
    const line = expectedLine(plan(FOUR, 2));
    expect(line).toMatch(/^expected: about 0:22 \(2 cases × 4 arms × 6 rounds × ~1\.8 s a set\), then up to 0:38 of added rounds;/);
  });

  it('is not guessed for a measurer whose round is a whole program or a count under a tool', () => {
    expect(expectedLine(plan(FOUR, 16, { measurer: { warmsInRuntime: false } }))).toBeUndefined();
    expect(expectedLine(plan(FOUR, 16, { measurer: { warmsInRuntime: true, metric: { unit: 'instructions' } } }))).toBeUndefined();
  });

  it('is said again after the run, beside the time it took', () => {
    expect(tookLine(191_000, expectedTime(plan(FOUR)))).toBe('took 3:11 (expected about 2:57)');
    expect(tookLine(30_000, expectedTime(plan(FOUR, 2)))).toBe('took 0:30 (expected about 0:22 + up to 0:38 of added rounds)');
    expect(tookLine(42_000, undefined)).toBe('took 0:42');
  });
});

describe('the time a run of fresh servers should take, said before it', () => {
  const steady = { requests: { least: 50, most: 300 }, concurrency: 1, emptyRequests: 50, withinMs: 3000 };
  const whole = { requests: { least: 151, most: 151 }, concurrency: 1, emptyRequests: 50 };
  const served = (units: unknown[], variants = FOUR, rounds = 6) =>
    plan(variants, 3, { roundPlan: { order: 'shuffled', rounds }, measurer: { warmsInRuntime: false, metric: { unit: 'ms' }, servedRounds: () => units } });

  it("a Worker served until steady: each server's start and round trips at the least, its time bound at the most", () => {
    const expected = expectedTime(served([steady]))!;
    expect(expected.ms).toBeCloseTo(24 * (PROCESS_OVERHEAD_MS + 100 * REQUEST_ROUND_TRIP_MS));
    expect(expected.servers!.mostMs).toBeCloseTo(24 * (PROCESS_OVERHEAD_MS + 3000));
    expect(expectedLine(served([steady]))).toBe(
      'expected: 0:13 to 1:22 (24 fresh servers: 1 request case × 4 arms × 6 rounds, each serving 50–300 requests until steady, within 3 s); --filter or --rounds shorten it',
    );
    expect(tookLine(40_000, expected)).toBe('took 0:40 (expected 0:13 to 1:22)');
  });

  it("opens with the requests it serves, not the CPU rows each request's cases make", () => {
    // One request: its suite holds three cases (the JavaScript thread, all threads, an empty handler), one server a round.
    expect(runHeading(served([steady]), 100).join(' ').replace(SGR, '')).toMatch(/^json-reviver: 1 request case × node /);
  });

  it("a count served whole says the least, the handler's own time beside it; requests in flight together are one round trip a wave", () => {
    const line = expectedLine(served([whole, whole], FOUR.slice(0, 2), 30));
    expect(line).toBe("expected: at least 1:18 and the handler's own time (120 fresh servers: 2 request cases × 2 arms × 30 rounds, each serving 151 requests); --filter or --rounds shorten it");
    const waves = expectedTime(served([{ ...whole, concurrency: 10 }], FOUR.slice(0, 1), 1))!;
    expect(waves.ms).toBeCloseTo(PROCESS_OVERHEAD_MS + (16 + 50) * REQUEST_ROUND_TRIP_MS);
    expect(waves.servers).toEqual({ mostMs: undefined });
    expect(expectedLine(served([steady, whole]))).toMatch(/^expected: at least 0:28 and the handler's own time \(48 fresh servers: 2 request cases × 4 arms × 6 rounds, each serving 50–300 requests until steady, within 3 s or serving 151 requests\);/);
  });
});
