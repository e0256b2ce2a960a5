/**
 * How long a profile of a case's timed loop samples: a measuring run's 1 s
 * after 300 ms of warm-up; a smoke run's (--fixed-warmup, whose figures no
 * one reads: the test suite's profiled runs) 300 ms after 100 ms.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE_TIME_MS, DEFAULT_PROFILE_WARMUP_MS, profileWindow } from '../src/capture.ts';

describe('profileWindow', () => {
  it("a measuring run's profile: the defaults, 1 s after 300 ms", () => {
    expect(profileWindow(false)).toEqual({ timeMs: DEFAULT_PROFILE_TIME_MS, warmupMs: DEFAULT_PROFILE_WARMUP_MS });
    expect(profileWindow(false)).toEqual({ timeMs: 1000, warmupMs: 300 });
  });

  it("a smoke run's: 300 ms after 100 ms, still hundreds of samples every 250 µs", () => {
    expect(profileWindow(true)).toEqual({ timeMs: 300, warmupMs: 100 });
  });
});
