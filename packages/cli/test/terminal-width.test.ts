/**
 * The width the CLI lays text out at (columnsOf): COLUMNS when given, a terminal's own width, 100 for a pipe or a
 * pseudo-terminal that says 0 columns; and whether a stream is coloured (colourOn), the rule test/faults/usage.test.ts
 * sees reach both streams of the real command.
 */
import { describe, expect, it } from 'vitest';
import { colourOn, columnsOf } from '../src/emit/colours.ts';

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

describe('whether a stream is coloured', () => {
  const pipe = { isTTY: false };
  const terminal = { isTTY: true };
  const argv = ['node', 'rtbench.mjs', 'report', 'run.json'];

  it('is a terminal that is not dumb, never a pipe, unless told', () => {
    expect(colourOn(terminal, argv, {})).toBe(true);
    expect(colourOn(terminal, argv, { TERM: 'dumb' })).toBe(false);
    expect(colourOn(pipe, argv, {})).toBe(false);
    expect(colourOn(pipe, argv, { NO_COLOR: '', FORCE_COLOR: '' })).toBe(false);
  });

  it('FORCE_COLOR (other than 0) colours a pipe; --no-color and NO_COLOR win over it, on a terminal too', () => {
    expect(colourOn(pipe, argv, { NO_COLOR: '', FORCE_COLOR: '1' })).toBe(true);
    expect(colourOn(pipe, argv, { FORCE_COLOR: '0' })).toBe(false);
    expect(colourOn(pipe, [...argv, '--no-color'], { NO_COLOR: '', FORCE_COLOR: '1' })).toBe(false);
    expect(colourOn(pipe, argv, { NO_COLOR: '1', FORCE_COLOR: '1' })).toBe(false);
    expect(colourOn(terminal, [...argv, '--no-color'], {})).toBe(false);
    expect(colourOn(terminal, argv, { NO_COLOR: '1' })).toBe(false);
  });
});
