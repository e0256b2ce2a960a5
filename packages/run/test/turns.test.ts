import { describe, expect, it } from 'vitest';
import { turnsFor } from '../src/measurers/lockstep.ts';

describe('turns per lockstep set', () => {
  const options = { sampleTimeMs: 40, minTurns: 12, maxTurns: 10_000 };
  it('fills the sampling time at the longest arm sample', () => {
    expect(turnsFor(options, [1e6, 2e6])).toBe(20);
  });
  it('gives a long operation its minimum of turns, not the few its sampling time would buy', () => {
    expect(turnsFor(options, [8e6, 16e6])).toBe(12);
  });
  it('caps the turns', () => {
    expect(turnsFor({ ...options, maxTurns: 30 }, [1e3])).toBe(30);
  });
});
