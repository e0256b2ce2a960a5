/** The threshold `rtbench bisect` picks (--threshold, else the measurer's own for the engines, else time's) and a step's rounds. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLD } from '@rtbench/stats';
import { engineNamed } from '@rtbench/runtime-registry';
import { bisectRounds, bisectThreshold } from '@rtbench/bisect';
import { DEFAULT_MEASURER, parseMeasure } from '../src/plan.ts';

describe('the threshold', () => {
  const releases = (engine: 'v8' | 'jsc') => [{ target: { engine } }, { target: { engine } }] as never;

  it("is the engine's for counts, as a comparison's (the engine's EngineCounting.threshold), time's for time, --threshold when given", () => {
    expect(bisectThreshold(parseMeasure('instructions')!, undefined, releases('jsc'))).toBe(engineNamed('jsc')!.counting!.threshold);
    expect(bisectThreshold(parseMeasure('instructions')!, undefined, releases('v8'))).toBe(engineNamed('v8')!.counting!.threshold);
    expect(bisectThreshold(DEFAULT_MEASURER, undefined, releases('jsc'))).toBe(DEFAULT_THRESHOLD);
    expect(bisectThreshold(parseMeasure('instructions')!, 0.02, releases('jsc'))).toBe(0.02);
  });

  it("starts a step at a comparison's rounds (at most 10) and doubles up to eight times those (at most 160)", () => {
    expect(bisectRounds(DEFAULT_MEASURER)).toEqual({ min: 10, max: 160 });
    expect(bisectRounds(parseMeasure('instructions')!)).toEqual({ min: 3, max: 24 });
  });
});
