// The target cell of scripts/measure/requests/request-loop.ts: request ÷ one-call loop of a
// runtime's ratio to the base, its interval over whole rounds, its verdict.
import { describe, expect, it } from 'vitest';
import { BAND, cellVerdict, ratioCells, type PathRounds } from '../scripts/measure/requests/request-loop-ratio.ts';

/** Rounds of `n` samples around `level`, each round scaled by its own factor (a stretch of the machine). */
const rounds = (level: number, factors: readonly number[], n = 9): number[][] => factors.map((f, r) => Array.from({ length: n }, (_, i) => level * f * (1 + ((i * 7 + r * 3) % 9) / 100)));
const DRIFT = [1, 1.3, 0.9, 1.1, 1.6, 1, 0.8, 1.2];
/** Fewer resamples than the script's: the tests read the interval's shape, not its last digit. */
const FEW = { resamples: 300 };

/** A runtime whose every sample is the base's times k (request), m (call) and e (empty handler). */
function scaled(base: PathRounds, k: number, m: number, e = m): PathRounds {
  const times = (rs: PathRounds['request'], x: number) => rs.map((r) => r.map((v) => v * x));
  return { request: times(base.request, k), call: times(base.call, m), callEmpty: times(base.callEmpty, e) };
}

const base: PathRounds = { request: rounds(4, DRIFT), call: rounds(5, DRIFT), callEmpty: rounds(1, DRIFT) };

describe("the request path's ratio over the loop's, with its interval", () => {
  it('reads within, outside or undecided from the interval against the band, its edges within', () => {
    expect(BAND).toEqual([0.85, 1.15]);
    expect(cellVerdict([0.9, 1.1])).toBe('within');
    expect(cellVerdict([0.85, 1.15])).toBe('within');
    expect(cellVerdict([1.16, 1.3])).toBe('outside');
    expect(cellVerdict([0.7, 0.84])).toBe('outside');
    expect(cellVerdict([1.1, 1.2])).toBe('undecided');
    expect(cellVerdict([0.8, 0.9])).toBe('undecided');
    expect(cellVerdict([0.8, 1.2])).toBe('undecided');
    expect(cellVerdict(undefined)).toBe('undecided');
    expect(cellVerdict([1.1, 1.2], [1, 1.25])).toBe('within');
  });

  it('resamples the same rounds for every runtime: a drift shared by all rounds moves no cell', () => {
    // Each other runtime is the base times a factor in every round: whatever rounds are drawn, the ratio is the same.
    const [same, above] = ratioCells(base, [scaled(base, 0.8, 0.8), scaled(base, 0.9, 0.75)], FEW);
    expect(same!.request).toBeCloseTo(0.8, 9);
    expect(same!.loop).toBeCloseTo(0.8, 9);
    expect(same!.value).toBeCloseTo(1, 9);
    expect(same!.ci![0]).toBeCloseTo(1, 9);
    expect(same!.ci![1]).toBeCloseTo(1, 9);
    expect(same!.verdict).toBe('within');
    expect(above!.value).toBeCloseTo(1.2, 9);
    expect(above!.verdict).toBe('outside');
  });

  it("takes the call's empty handler out of the loop's figure", () => {
    // Calls cost 5 - 1 = 4 on the base; on the other 5 - 3 = 2 (its server's part is dearer): half the base's, not 1.0.
    const other = { ...base, callEmpty: rounds(3, DRIFT) };
    const [cell] = ratioCells(base, [other], FEW);
    expect(cell!.loop).toBeGreaterThan(0.45);
    expect(cell!.loop).toBeLessThan(0.55);
  });

  it('widens with rounds that disagree, and gives no interval under three rounds', () => {
    const noisy: PathRounds = { ...base, request: rounds(4, [1, 1.5, 0.7, 1.2, 0.8, 1.4, 0.9, 1.1]) };
    const [cell] = ratioCells(base, [noisy], { ...FEW, seed: 7 });
    expect(cell!.ci![1] - cell!.ci![0]).toBeGreaterThan(0.1);
    expect(cell!.ci![0]).toBeLessThanOrEqual(cell!.value);
    expect(cell!.ci![1]).toBeGreaterThanOrEqual(cell!.value);
    const two = (p: PathRounds): PathRounds => ({ request: p.request.slice(0, 2), call: p.call.slice(0, 2), callEmpty: p.callEmpty.slice(0, 2) });
    const [short] = ratioCells(two(base), [two(base)]);
    expect(short!.ci).toBeUndefined();
    expect(short!.verdict).toBe('undecided');
    expect(short!.value).toBeCloseTo(1, 9);
  });

  it('uses only the rounds every series holds', () => {
    // A last round the other runtime never served is left out of the base's figure too.
    const longer: PathRounds = { ...base, request: [...base.request, [100, 100, 100, 100, 100, 100, 100, 100, 100]] };
    const [cell] = ratioCells(longer, [base], FEW);
    expect(cell!.request).toBeCloseTo(1, 9);
  });
});
