/**
 * Every repository path named in the docs, the READMEs and source comments
 * exists (scripts/checks/named-paths.ts says what counts as a path). A page that
 * names a moved file fails here; `npx tsx scripts/checks/named-paths.ts` lists them.
 */
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deadPaths, markdownFiles, namedPaths } from '../scripts/checks/named-paths.ts';
import { repoRoot } from './helpers/cli.ts';

describe('paths named in prose', () => {
  const named = namedPaths();

  it('are read from pages, links and comments alike', () => {
    const from = (file: string) => named.filter((n) => n.file === file).map((n) => n.path);
    expect(from('README.md')).toContain('docs/comparing.md');
    // A link resolved from its page's folder.
    expect(from('docs/commands.md')).toContain('docs/comparing.md');
    // A comment naming a sibling package's test.
    expect(from('packages/claims/src/bisect-line.ts')).toContain('packages/cli/test/claims-views.test.ts');
  });

  it('every page under docs/ is in the index (docs/README.md, or the measurements index it links)', () => {
    const indexed = new Set(named.filter((n) => n.file === 'docs/README.md' || n.file === 'docs/measurements/README.md').map((n) => n.path));
    const pages = markdownFiles(join(repoRoot, 'docs'))
      .map((f) => relative(repoRoot, f))
      .filter((f) => f !== 'docs/README.md');
    expect(pages.length).toBeGreaterThan(20);
    expect(pages.filter((p) => !indexed.has(p))).toEqual([]);
  });

  it('all exist', () => {
    expect(deadPaths(named).map((n) => `${n.file}:${n.line} ${n.text}`)).toEqual([]);
  });

  it('a link to a heading a page lacks is dead, and so is a section named in quotes that no heading begins', () => {
    const at = (path: string, more: { anchor?: string; section?: string }) => ({ file: 'docs/x.md', line: 1, text: path, path, ...more });
    const dead = deadPaths([
      at('docs/comparing.md', { anchor: 'calibration' }),
      at('docs/comparing.md', { anchor: 'no-such-heading' }),
      at('docs/comparing.md', { section: 'Calibration' }),
      at('docs/comparing.md', { section: 'No such section' }),
    ]);
    expect(dead.map((n) => n.anchor ?? n.section)).toEqual(['no-such-heading', 'No such section']);
  });

  it('a missing file is dead; a package README may name its own test/ folder', () => {
    const at = (file: string, path: string) => ({ file, line: 1, text: path, path });
    const dead = deadPaths([at('docs/x.md', 'packages/cli/src/no-such-file.ts'), at('packages/stats/README.md', 'test/modes.test.ts'), at('docs/x.md', 'test/modes.test.ts')]);
    expect(dead.map((n) => `${n.file} ${n.path}`)).toEqual(['docs/x.md packages/cli/src/no-such-file.ts', 'docs/x.md test/modes.test.ts']);
  });
});
