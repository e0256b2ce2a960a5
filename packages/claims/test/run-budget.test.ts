/** A claims run's share of what is left of the budget (defaults.ts): more for the last runs, never nothing. */
import { describe, expect, it } from 'vitest';
import { runBudgetMs } from '../src/index.ts';

describe("a claims run's budget", () => {
  it('is what is left over the square root of the runs left, at least 1 ms', () => {
    expect(runBudgetMs(60_000, 4)).toBe(30_000);
    expect(runBudgetMs(60_000, 1)).toBe(60_000);
    expect(runBudgetMs(-5, 3)).toBe(1);
  });
});
