/** A handler that does not bundle: esbuild's errors quoted whole, in one line, not its heading alone. */
import { describe, expect, it } from 'vitest';
import { buildFailureText } from '../src/measurers/request-cpu.ts';

describe("a handler's bundling failure", () => {
  it("quotes each error with its place, in one line", () => {
    const failure = Object.assign(new Error('Build failed with 2 errors:\nsrc/a.js:1:2: ERROR: one\nerror: two'), {
      errors: [
        { text: 'Could not resolve "zlib"\nmore', location: { file: 'src/a.js', line: 1, column: 2 } },
        { text: 'Invalid define value (must be an entity name or JS literal): { "open": ', location: null },
      ],
    });
    expect(buildFailureText(failure)).toBe('src/a.js:1:2: Could not resolve "zlib"\\nmore; Invalid define value (must be an entity name or JS literal): { "open": ');
    expect(buildFailureText(new Error('plain\nsecond'))).toBe('plain\\nsecond');
  });
});
