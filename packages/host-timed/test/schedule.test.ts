/** Where a request round puts its empty-handler requests, and how the thread clock's readings map back to the handler's requests. */
import { describe, expect, it } from 'vitest';
import { clockPerHandlerRequest, emptiesAfter } from '../src/request/schedule.ts';

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

describe('emptiesAfter', () => {
  it('spreads the empty requests over the round, one after every fifth handler request', () => {
    const counts = emptiesAfter(251, 50);
    expect(sum(counts)).toBe(50);
    expect(counts.every((c) => c <= 1)).toBe(true);
    const at = counts.flatMap((c, i) => (c ? [i] : []));
    expect(at[0]).toBe(5);
    expect(at.at(-1)).toBe(250);
    expect(at.slice(1).map((i, k) => i - at[k]!)).toEqual(new Array(49).fill(5));
  });

  it('never puts one before the process has served its first handler request, nor right after it', () => {
    for (const [h, e] of [[2, 1], [3, 50], [10, 3], [41, 40]] as const) {
      const counts = emptiesAfter(h, e);
      expect(counts[0]).toBe(0);
      expect(sum(counts)).toBe(e);
    }
  });

  it('puts all of them after a lone handler request, and none where there are none', () => {
    expect(emptiesAfter(1, 4)).toEqual([4]);
    expect(emptiesAfter(0, 4)).toEqual([]);
    expect(emptiesAfter(5, 0)).toEqual([0, 0, 0, 0, 0]);
  });
});

describe('clockPerHandlerRequest', () => {
  it('gives each handler request after the first the reading less the one before it, an empty request in between or not', () => {
    // µs after each response: handler 0, handler 1, empty, handler 2, empty.
    const readings = [1000, 3000, 3500, 6000, 6400];
    expect(clockPerHandlerRequest(readings, ['handler', 'handler', 'empty', 'handler', 'empty'])).toEqual([2, 2.5]);
  });

  it('refuses fewer readings than requests sent', () => {
    expect(clockPerHandlerRequest([1000], ['handler', 'handler'])).toBeUndefined();
  });
});
