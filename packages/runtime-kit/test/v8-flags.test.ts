/** Reading V8's --print-flag-values and judging requested flags against it. */
import { describe, expect, it } from 'vitest';
import { overriddenV8Flags, parseV8FlagValues } from '../src/v8-flags.ts';

const PRINTED = [
  'CPU features: SSE3=1 AVX=1',
  '--experimental',
  '--no-concurrent-marking',
  '--max-semi-space-size=16',
  '--trace-turbo-filter="*"',
  '--efficiency-mode=unset',
  '--expose-gc',
].join('\n');

describe('V8 flag values', () => {
  it('parses booleans, numbers and quoted strings', () => {
    const values = parseV8FlagValues(PRINTED);
    expect(values.get('concurrent-marking')).toBe('false');
    expect(values.get('expose-gc')).toBe('true');
    expect(values.get('max-semi-space-size')).toBe('16');
    expect(values.get('trace-turbo-filter')).toBe('*');
    expect(values.has('CPU features')).toBe(false);
  });

  it('names the requested flags whose value in force differs', () => {
    const values = parseV8FlagValues(PRINTED);
    expect(overriddenV8Flags(['--expose-gc', '--no-concurrent-marking', '--max_semi_space_size=16', '--max-semi-space-size=16.0'], values)).toEqual([]);
    expect(overriddenV8Flags(['--concurrent-marking', '--max-semi-space-size=64', '--no-expose-gc'], values)).toEqual([
      { flag: '--concurrent-marking', effective: '--no-concurrent-marking' },
      { flag: '--max-semi-space-size=64', effective: '--max-semi-space-size=16' },
      { flag: '--no-expose-gc', effective: '--expose-gc' },
    ]);
    // A name V8 did not print (an alias, or unknown: V8 refuses those itself) is not judged.
    expect(overriddenV8Flags(['--some-alias=3'], values)).toEqual([]);
  });
});
