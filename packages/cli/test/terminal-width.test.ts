/** The width the CLI lays text out at (columnsOf): COLUMNS when given, a terminal's own width, 100 for a pipe or a pseudo-terminal that says 0 columns. */
import { describe, expect, it } from 'vitest';
import { columnsOf } from '../src/emit/colours.ts';

describe('the width text is laid out at', () => {
  it('is COLUMNS where a pseudo-terminal says 0 columns (as under `script`), never 0', () => {
    expect(columnsOf({ columns: 0 }, { COLUMNS: '100' })).toBe(100);
    expect(columnsOf({ columns: 0 }, { COLUMNS: '132' })).toBe(132);
    expect(columnsOf({ columns: 0 }, {})).toBe(100);
  });

  it("is the terminal's own width without COLUMNS, and 100 for a pipe", () => {
    expect(columnsOf({ columns: 80 }, {})).toBe(80);
    expect(columnsOf({} as { columns: number }, {})).toBe(100);
  });

  it('takes COLUMNS over the terminal, and ignores a COLUMNS that is not a positive whole number', () => {
    expect(columnsOf({ columns: 80 }, { COLUMNS: '120' })).toBe(120);
    for (const bad of ['0', '-5', 'wide', '12.5', '']) expect(columnsOf({ columns: 80 }, { COLUMNS: bad }), bad).toBe(80);
  });
});
