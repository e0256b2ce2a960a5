import { describe, expect, it } from 'vitest';
import { cutWindows, thin, windowsToAdd } from '../src/windows.ts';

const R = ['1', '2', '3', '4', '5', '6', '7'];

describe('windows of releases', () => {
  it('cuts a range into windows that share one release, so every step lies in one', () => {
    expect(cutWindows(R, 3)).toEqual([['1', '2', '3'], ['3', '4', '5'], ['5', '6', '7']]);
    expect(cutWindows(R, 6)).toEqual([['1', '2', '3', '4', '5', '6'], ['6', '7']]);
    expect(cutWindows(['1'], 3)).toEqual([]);
    expect(() => cutWindows(R, 1)).toThrow(/at least two/);
  });

  it('adds windows only for the steps no window holds: a release published at the end, or between two measured ones', () => {
    const existing = cutWindows(R, 4).map((releases) => ({ releases }));
    expect(windowsToAdd(R, existing, 4)).toEqual([]);
    expect(windowsToAdd([...R, '8'], existing, 4)).toEqual([['7', '8']]);
    expect(windowsToAdd(['1', '2', '2.5', '3', '4', '5', '6', '7'], existing, 4)).toEqual([['2', '2.5', '3']]);
  });

  it('thins a range to every n-th release, both ends kept', () => {
    expect(thin(R, 1)).toEqual(R);
    expect(thin(R, 2)).toEqual(['1', '3', '5', '7']);
    expect(thin(R, 4)).toEqual(['1', '5', '7']);
    expect(() => thin(R, 0)).toThrow(/--every/);
  });
});
