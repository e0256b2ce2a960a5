/** Display width (src/width.ts) and the text emitters that measure through it: a CJK or emoji name takes two columns a character. */
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { cutToWidth, displayWidth, fitLine, padToWidth, renderGrid, truncateToWidth, wrapWords } from '../src/index.ts';
import { terminalProfileBlock } from '../src/reporters/profiles.ts';

const plain = (s: string): string => s;

describe('display width', () => {
  it('counts a wide character two columns, a combining mark and a colour code none', () => {
    expect(displayWidth('sum')).toBe(3);
    expect(displayWidth('文字列の連結')).toBe(12);
    expect(displayWidth('👍🏽')).toBe(2);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('\x1b[1m合計\x1b[22m')).toBe(4);
  });

  it('counts printable ASCII, the signs and units and the sparkline bars one column each, as string-width does', () => {
    const narrow = [...Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)), ...'×–—−÷…±µ·’†≠≈≤≥→▲▼─▁▂▃▄▅▆▇█'];
    for (const ch of narrow) expect([ch, displayWidth(ch)]).toEqual([ch, stringWidth(ch)]);
    expect(displayWidth(narrow.join(''))).toBe(narrow.length);
    expect(displayWidth('1.00 µs – 2.00 µs ▁▃█ 合計')).toBe(stringWidth('1.00 µs – 2.00 µs ▁▃█ 合計'));
  });

  it('counts a control character as the output shows it, not as the nothing a terminal sequence takes', () => {
    // A name's escape sequences reach the screen escaped (␛, \x07): wrapped on their raw width, its lines would overflow.
    expect(displayWidth('a\x07b')).toBe(6);
    expect(displayWidth('\x1b]0;retitled\x07')).toBe(16);
    expect(displayWidth('\x9b2J')).toBe(6);
    expect(fitLine('evil \x1b]0;retitled\x07 name', 20, plain)).toEqual(['evil', '  \x1b]0;retitled\x07', '  name']);
  });

  it('pads to columns, not characters, and leaves a wider text as it is', () => {
    expect(padToWidth('合計', 6)).toBe('合計  ');
    expect(padToWidth('合計', 6, 'right')).toBe('  合計');
    expect(padToWidth('文字列の連結', 4)).toBe('文字列の連結');
  });

  it('cuts between characters as seen, each piece within the width', () => {
    expect(cutToWidth('数値数値数値', 5)).toEqual(['数値', '数値', '数値']);
    expect(cutToWidth('ab👍🏽cd', 3)).toEqual(['ab', '👍🏽c', 'd']);
    expect(cutToWidth('合計', 10)).toEqual(['合計']);
    expect(truncateToWidth('文字列の連結', 8)).toBe('文字列…');
    expect(truncateToWidth('文字列の連結', 12)).toBe('文字列の連結');
    expect(truncateToWidth('abcdefghij', 5)).toBe('abcd…');
  });
});

describe('a table or a line with a CJK case name', () => {
  it('lines the columns up on screen', () => {
    const lines = renderGrid(
      [
        { head: 'case', align: 'left' },
        { head: 'time', align: 'right' },
      ],
      [{ cells: ['合計', '1 ms'] }, { cells: ['sum', '22 ms'] }],
      { maxWidth: 100, bold: plain, dim: plain },
    );
    // The header, the rule and both rows end at the same column.
    expect(lines.map(displayWidth)).toEqual([11, 11, 11, 11]);
    expect(lines[2]).toBe('合計   1 ms');
  });

  it('wraps a line wider than the terminal though it has fewer characters than columns', () => {
    const line = '文字列の連結 と 配列の並べ替え と 数値の合計';
    expect([...line].length).toBeLessThanOrEqual(30);
    const lines = fitLine(line, 30);
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(30);
    for (const l of wrapWords('文字列の連結と配列の並べ替えと数値の合計', 10)) expect(displayWidth(l)).toBeLessThanOrEqual(10);
  });

  it("pads a profile table's function names by their columns", () => {
    const text = terminalProfileBlock({ kind: 'table', summary: 'top', columns: [{ head: 'function' }, { head: 'self', right: true }], rows: [['合計する', '60%'], ['sum', '40%']] } as never);
    const rows = text.split('\n').filter((l) => l.endsWith('%'));
    expect(rows.map(displayWidth)).toEqual([14, 14]);
  });
});
