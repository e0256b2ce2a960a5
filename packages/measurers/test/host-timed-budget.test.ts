/**
 * A load round's length: a measuring run's rounds serve at least a second of
 * steady load after at least a second of warm-up, and stop starting
 * windows past those and twice the load; a smoke run's (--fixed-warmup: no
 * warmup floor) one window after --warmup exactly, so the test suite's load
 * rounds no longer pay two seconds each.
 */
import { describe, expect, it } from 'vitest';
import { LOAD_WINDOWS } from '@rtbench/host-timed';
import { hostBudget } from '../src/measurers/host-timed.ts';

const setup = { timeMs: 5, rounds: 1, warmupMs: 10, timeoutMs: 60_000, programDir: '/tmp/programs' };

describe('a host-timed load round', () => {
  it('measuring: at least 1 s of steady load after at least 1 s of warm-up, whatever --time and --warmup ask', () => {
    expect(hostBudget({ ...setup, warmupMinMs: 5 })).toMatchObject({ loadMs: 1_000, loadWarmupMs: 1_000, loadBoundMs: 3_000 });
    expect(hostBudget({ ...setup, timeMs: 12_000, rounds: 4, warmupMs: 1_500, warmupMinMs: 500 })).toMatchObject({ loadMs: 3_000, loadWarmupMs: 1_500, loadBoundMs: 7_500 });
  });

  it('a smoke run (a fixed warmup): one window of load after --warmup exactly, none started past them', () => {
    // No window starts past the warm-up and one window: a round serves one window, or two when the first ended early.
    expect(hostBudget(setup)).toMatchObject({ loadMs: LOAD_WINDOWS.windowMs, loadWarmupMs: 10, loadBoundMs: 10 + LOAD_WINDOWS.windowMs });
    expect(hostBudget({ ...setup, timeMs: 3_000, rounds: 2 })).toMatchObject({ loadMs: 1_500, loadWarmupMs: 10, loadBoundMs: 1_510 });
  });
});
