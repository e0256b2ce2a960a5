import { describe, expect, it } from 'vitest';
import { estimators, median } from '../src/index.ts';
import { lognormal, normalSource } from './helpers.ts';

/** `fast` processes around 100 and `slow` processes around 160, 40 samples each. */
function mixedRounds(seed: number, fast: number, slow: number): number[][] {
  const z = normalSource(seed);
  return [...Array.from({ length: fast }, () => lognormal(z, 40, 100, 0.02)), ...Array.from({ length: slow }, () => lognormal(z, 40, 160, 0.02))];
}

describe('estimators', () => {
  it('agree on the centre when every process is in one state, except the low ones, which sit below it', () => {
    const rounds = mixedRounds(1, 10, 0);
    const center = estimators['median-of-medians'](rounds);
    expect(center).toBeCloseTo(100, -1);
    expect(estimators['lower-mode'](rounds)).toBe(center);
    expect(Math.abs(estimators['lower-mode-samples'](rounds) / center - 1)).toBeLessThan(0.01);
    expect(estimators.min(rounds)).toBe(Math.min(...rounds.flat()));
    expect(estimators.min(rounds)).toBeLessThan(estimators['p10-samples'](rounds));
    expect(estimators['p10-samples'](rounds)).toBeLessThan(center);
  });

  it('with 4 fast and 6 slow processes: the median of medians follows the mixture, the lower mode stays with the fast state', () => {
    const rounds = mixedRounds(2, 4, 6);
    expect(estimators['median-of-medians'](rounds)).toBeGreaterThan(150);
    expect(estimators['lower-mode'](rounds)).toBeLessThan(105);
    expect(estimators['lower-mode'](rounds)).toBeCloseTo(median(rounds.slice(0, 4).map((r) => median(r))), 10);
    expect(estimators['fast-state-median'](rounds)).toBeLessThan(105);
  });
});

describe('the fast-state median', () => {
  it('takes the samples within 1.25× of the fastest, that bound included', () => {
    expect(estimators['fast-state-median']([[100, 125, 200], [300]])).toBe(112.5);
  });
});
