/** Informational lines and a campaign's lines with an aside (src/emit/info.ts): what --quiet silences, and where an aside goes when the line does not fit. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { campaignSay, info } from '../src/emit/info.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('an informational line', () => {
  it('is written whole on stderr, one line, unless --quiet', () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((text) => written.push(String(text)) > 0);
    info({}, 'saved results/run.json');
    info({ quiet: false }, 'wrote report.html');
    info({ quiet: true }, 'merged 2 runs');
    expect(written).toEqual(['saved results/run.json\n', 'wrote report.html\n']);
  });
});

describe("a campaign line's aside on a terminal", () => {
  const said = (columns: number, line: string, aside: string): string[] => {
    const out: string[] = [];
    campaignSay({}, { columns, write: (text: string) => out.push(text) > 0 } as never)(line, 'note', aside);
    return out.join('').split('\n').slice(0, -1);
  };

  it('goes on a line of its own, indented two, when the line fits alone but not with it', () => {
    const line = 'l'.repeat(50);
    expect(said(60, line, '   (an aside of 20)')).toEqual([line, '  (an aside of 20)']);
    // Together they fit: one line, the aside as given.
    expect(said(70, line, '   (an aside of 20)')).toEqual([`${line}   (an aside of 20)`]);
  });

  it('counts a CJK case name two columns a character: a line that fits in characters but not on screen is wrapped', () => {
    // 35 characters, 49 columns; with the aside 48 characters, 62 columns.
    const line = 'bisect 文字列の連結と配列の並べ替え: 1.52× slower';
    expect(said(50, line, '   (3 rounds)')).toEqual([line, '  (3 rounds)']);
  });
});
