/** Reading V8's --print-flag-values and judging requested flags against it. */
import { describe, expect, it } from 'vitest';
import { overriddenV8Flags, parseV8FlagValues, refusalLine } from '../src/v8-flags.ts';

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

describe('the line a refusal of flags is explained by', () => {
  it("is the runtime's own words, past a source location, a code excerpt and a caret", () => {
    expect(refusalLine('node: bad option: --bogus')).toBe('node: bad option: --bogus');
    expect(refusalLine("node:internal/modules/cjs/loader:1210\n  throw err;\n  ^\n\nError: Cannot find module './nope.js'\nRequire stack:")).toBe("Error: Cannot find module './nope.js'");
    expect(refusalLine("node:internal/modules/esm/resolve:283\n    throw new ERR_MODULE_NOT_FOUND(\n          ^\n\nError [ERR_MODULE_NOT_FOUND]: Cannot find module '/tmp/nope.mjs' imported from /tmp/")).toBe("Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/tmp/nope.mjs' imported from /tmp/");
    expect(refusalLine('<anonymous_script>:0\n\n\nRangeError: Maximum call stack size exceeded\n(Use `node --trace-uncaught ...` to show where the exception was thrown)')).toBe('RangeError: Maximum call stack size exceeded');
    expect(refusalLine('Error: illegal value for flag --max-old-space-size=abc of type size_t\nTry --help for options\nnode: bad option: --max-old-space-size=abc')).toBe('Error: illegal value for flag --max-old-space-size=abc of type size_t');
  });

  it('is the first line said where none is in those words, and none where nothing was said', () => {
    expect(refusalLine('\n  something went wrong \nsecond')).toBe('something went wrong');
    expect(refusalLine(' \n\n')).toBeUndefined();
  });
});
