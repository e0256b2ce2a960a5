/** The threshold `rtbench bisect` picks: --threshold, else the measurer's own for the engines, else time's. */
import { describe, expect, it } from 'vitest';
import { engineNamed } from '@rtbench/runtime-registry';
import { bisectThreshold, BISECT_DEFAULTS } from '../src/commands/bisect.ts';

describe('the threshold', () => {
  const releases = (engine: 'v8' | 'jsc') => [{ target: { engine } }, { target: { engine } }] as never;

  it("is the engine's for counts, as a comparison's (the engine's EngineCounting.threshold), time's for time, --threshold when given", () => {
    expect(bisectThreshold('instructions', undefined, releases('jsc'))).toBe(engineNamed('jsc')!.counting!.threshold);
    expect(bisectThreshold('instructions', undefined, releases('v8'))).toBe(engineNamed('v8')!.counting!.threshold);
    expect(bisectThreshold('time', undefined, releases('jsc'))).toBe(BISECT_DEFAULTS.time.threshold);
    expect(bisectThreshold('instructions', 0.02, releases('jsc'))).toBe(0.02);
  });
});
