import { describe, expect, it } from 'vitest';
import { seededRandom } from '../src/index.ts';

describe('seededRandom', () => {
  it('draws the mulberry32 sequence (values from an independent Python implementation)', () => {
    const rnd = seededRandom(42);
    expect([rnd(), rnd(), rnd()]).toEqual([0.6011037519201636, 0.44829055899754167, 0.8524657934904099]);
  });

  it('is deterministic per seed and different across seeds', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const c = seededRandom(8);
    const xs = Array.from({ length: 100 }, () => a());
    expect(Array.from({ length: 100 }, () => b())).toEqual(xs);
    expect(Array.from({ length: 100 }, () => c())).not.toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});
