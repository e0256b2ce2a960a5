/**
 * The docs are reference, the measurements are dated. A reference page (any
 * page under docs/ outside docs/measurements/) says what is true now: a date
 * or a UTC time on it is a lab note that belongs on a measurement page,
 * where the figure keeps its date, machine, load and command. README.md may
 * date only its quoted runs (a line naming the saved run it quotes) and the
 * test command's time in "Two commands". And every file under scripts/ is
 * named in scripts/README.md, the index a maintainer reads before running it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markdownFiles } from '../scripts/checks/named-paths.ts';
import { repoRoot } from './helpers/cli.ts';

/** A calendar date (2026-11-25, 25 Nov 2026), or a time of day said to be UTC; a workerd release is named by its date and is a version, not a date. */
const DATED =
  /(?<!workerd[@ ])\b20\d\d-[01]\d-[0-3]\d\b|\b[0-3]?\d\s+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\s+20\d\d\b|\b[0-2]?\d:[0-5]\d(?:\s*[–-]\s*[0-2]?\d:[0-5]\d)?\s*UTC\b/;

/** The lines of `text` that date something, as `line: text` (a date broken over two lines counts at its first). */
function datedLines(text: string, allowed: (line: string, section: string) => boolean = () => false): string[] {
  const lines = text.split('\n');
  const lineAt = (index: number): number => text.slice(0, index).split('\n').length - 1;
  const sectionOf = (line: number): string => lines.slice(0, line + 1).findLast((l) => /^#{1,6}\s/.test(l))?.replace(/^#+\s*/, '') ?? '';
  const dated = new Set([...text.matchAll(new RegExp(DATED.source, 'g'))].map((m) => lineAt(m.index)));
  return [...dated].filter((i) => !allowed(lines[i]!, sectionOf(i))).map((i) => `${i + 1}: ${lines[i]!.slice(0, 120)}`);
}

/** README.md's own exceptions: a line naming the saved run it quotes, and the test command's time under "Two commands". */
const readmeAllows = (line: string, section: string): boolean => /results\/\d{8}-\d{6}Z/.test(line) || section === 'Two commands';

const referencePages = (): string[] =>
  markdownFiles(join(repoRoot, 'docs'))
    .map((f) => relative(repoRoot, f))
    .filter((f) => !f.startsWith('docs/measurements/'));

/** Every file under scripts/, from scripts/. */
function scriptFiles(dir = join(repoRoot, 'scripts')): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return scriptFiles(path);
    return name === 'README.md' ? [] : [relative(join(repoRoot, 'scripts'), path)];
  });
}

/** Whether scripts/README.md names `script` in a code span, by its path under scripts/ or by its folder (`noise/`). */
function namedInIndex(index: string, script: string): boolean {
  const spans = new Set([...index.matchAll(/`([^`\s]+)/g)].map((m) => m[1]!.replace(/^scripts\//, '')));
  const folders = script.split('/').slice(0, -1).map((_, i, parts) => `${parts.slice(0, i + 1).join('/')}/`);
  return spans.has(script) || folders.some((f) => spans.has(f));
}

describe('reference docs and dated measurements', () => {
  it('a date or a UTC time is found, a workerd release and a duration are not', () => {
    const text = ['measured 2026-11-25, load 1.2', 'at 08:08 UTC', '(12:10–12:18 UTC)', 'seeded; 22 Nov\n2026', 'workerd 2026-11-17', 'workerd@2025-01-01', 'took 6:24', '(at bench/x.mjs:9:16)'].join('\n');
    expect(datedLines(text).map((l) => l.split(':')[0])).toEqual(['1', '2', '3', '4']);
  });

  it('no reference page under docs/ dates a figure: dated figures live under docs/measurements/', () => {
    const pages = referencePages();
    expect(pages.length).toBeGreaterThan(20);
    const dated = pages.flatMap((page) => datedLines(readFileSync(join(repoRoot, page), 'utf8')).map((l) => `${page}:${l}`));
    expect(dated).toEqual([]);
  });

  it('README.md dates only its quoted runs and the test command\'s time', () => {
    expect(datedLines('## Two commands\ntests: 13 min (2026-11-25)\n## The first table\nfrom `results/20261124-080039Z-x.json`, 2026-11-24\n74 s on 2026-11-25', readmeAllows)).toEqual(['5: 74 s on 2026-11-25']);
    expect(datedLines(readFileSync(join(repoRoot, 'README.md'), 'utf8'), readmeAllows)).toEqual([]);
  });

  it('every file under scripts/ is named in scripts/README.md', () => {
    const index = readFileSync(join(repoRoot, 'scripts/README.md'), 'utf8');
    expect(namedInIndex('`noise/` and `lib.ts`', 'noise/probe.mjs')).toBe(true);
    expect(namedInIndex('`noise/a.ts`', 'noise/probe.mjs')).toBe(false);
    const scripts = scriptFiles();
    expect(scripts.length).toBeGreaterThan(10);
    expect(scripts.filter((s) => !namedInIndex(index, s))).toEqual([]);
  });
});
