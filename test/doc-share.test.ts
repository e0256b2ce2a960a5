/**
 * docs/measurements/ holds at most 35% of the doc lines (every page under
 * docs/ and README.md): the measurement pages keep each claim's current
 * figure and a folded history, and when they outgrow the pages they serve,
 * old runs are folded, not added to (docs/measurements/README.md).
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownFiles } from '../scripts/checks/named-paths.ts';
import { repoRoot } from './helpers/cli.ts';

/** The most of the doc lines docs/measurements/ may hold. */
const TARGET = 0.35;

const linesOf = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

describe('the measurement record stays small', () => {
  it('docs/measurements/ holds at most 35% of the doc lines', () => {
    const pages = [...markdownFiles(join(repoRoot, 'docs')), join(repoRoot, 'README.md')].map((file) => ({
      path: relative(repoRoot, file),
      lines: linesOf(readFileSync(file, 'utf8')),
    }));
    const measured = pages.filter((p) => p.path.startsWith('docs/measurements/'));
    const sum = (of: typeof pages): number => of.reduce((n, p) => n + p.lines, 0);
    expect(measured.length).toBeGreaterThan(10);
    // The largest pages, so a failure names where to fold.
    const largest = [...measured].sort((a, b) => b.lines - a.lines).slice(0, 5).map((p) => `${p.path} ${p.lines}`);
    expect({ share: sum(measured) / sum(pages) <= TARGET ? 'within' : `${sum(measured)} of ${sum(pages)} lines`, largest }).toMatchObject({ share: 'within' });
  });

  it('counts a last line without its newline', () => {
    expect([linesOf('a\nb\n'), linesOf('a\nb'), linesOf('a')]).toEqual([2, 2, 1]);
  });
});
