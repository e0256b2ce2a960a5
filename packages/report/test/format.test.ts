import { describe, expect, it } from 'vitest';
import { formatDuration, formatRange } from '../src/format.ts';

describe('duration formatting', () => {
  it('picks the unit by magnitude, three significant digits', () => {
    expect(formatDuration(0.508)).toBe('0.508 ns');
    expect(formatDuration(44_500)).toBe('44.5 µs');
    expect(formatDuration(2_940_000)).toBe('2.94 ms');
  });

  it('moves to the next unit when rounding reaches it', () => {
    expect(formatDuration(999.7)).toBe('1 µs');
    expect(formatRange(990, 999.7)).toBe('0.990–1.00 µs');
  });

  it('shows a range in the unit of its upper end', () => {
    expect(formatRange(821_000, 1_060_000)).toBe('0.821–1.06 ms');
  });
});
