/**
 * How wide a line is (scripts/checks/line-widths.ts, read by the structure
 * targets): counted in characters as an editor shows them. Planted here; the
 * CLI's own sources are checked by test/structure-targets.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { MOST_LINE_CHARS, wideLines } from '../scripts/checks/line-widths.ts';

describe('line widths', () => {
  it('finds a planted line over the width, by its line, and none at it, counting characters, not bytes', () => {
    const atWidth = `const a = '${'x'.repeat(MOST_LINE_CHARS - 13)}';`;
    const planted = `const b = '${'±'.repeat(MOST_LINE_CHARS - 12)}';`;
    expect([...atWidth].length).toBe(MOST_LINE_CHARS);
    const text = ['// one', atWidth, planted, ''].join('\n');
    expect(wideLines([{ path: 'packages/cli/src/a.ts', text }])).toEqual([{ file: 'packages/cli/src/a.ts', line: 3, chars: MOST_LINE_CHARS + 1 }]);
  });
});
