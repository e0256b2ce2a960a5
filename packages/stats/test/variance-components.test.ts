/** Variance components (variance-components.ts): Welch–Satterthwaite sums and pooled variances. */
import { describe, expect, it } from 'vitest';
import { meanOf, pooledVariance, sumOfComponents, sumOfSquares, welchOfMoments } from '../src/index.ts';

describe('variance components', () => {
  it('sums independent parts with Welch–Satterthwaite degrees of freedom, rounded down, and none where nothing spreads', () => {
    // 0.04 on 5 df and 0.01 on 2 df: (0.05)² / (0.04²/5 + 0.01²/2) = 0.0025 / 0.00037 = 6.76 → 6.
    expect(sumOfComponents([{ variance: 0.04, df: 5 }, { variance: 0.01, df: 2 }])).toEqual({ variance: 0.05, df: 6 });
    // One part: its own df; a tiny second part on few df cannot lower it below 1.
    expect(sumOfComponents([{ variance: 0.04, df: 5 }]).df).toBe(5);
    expect(sumOfComponents([{ variance: 1e-9, df: 1 }, { variance: 1e-9, df: 1 }]).df).toBe(2);
    expect(sumOfComponents([{ variance: 0, df: 3 }, { variance: 0, df: 4 }])).toEqual({ variance: 0, df: undefined });
  });

  it("is Welch's interval where the parts are two arms' variances of the mean", () => {
    const a = { values: 6, units: 6, mean: 0, variance: 0.09 };
    const b = { values: 3, units: 3, mean: 0.2, variance: 0.01 };
    const sum = sumOfComponents([{ variance: 0.09 / 6, df: 5 }, { variance: 0.01 / 3, df: 2 }]);
    expect(welchOfMoments(a, b)).toEqual({ estimate: 0.2, se: Math.sqrt(sum.variance), df: sum.df, units: 3 });
    // Neither arm spread: a pooled t's df is said.
    expect(welchOfMoments({ ...a, variance: 0 }, { ...b, variance: 0 }).df).toBe(7);
  });

  it('pools groups about their own means, leaving out groups of one', () => {
    expect(meanOf([1, 2, 6])).toBe(3);
    expect(sumOfSquares([1, 2, 6])).toBe(14);
    // Squares 14 (2 df) and 2 (1 df; [4, 6] about 5): 16 / 3.
    expect(pooledVariance([[1, 2, 6], [4, 6], [100]])).toEqual({ variance: 16 / 3, df: 3 });
    expect(pooledVariance([[1], []])).toBeUndefined();
  });
});
