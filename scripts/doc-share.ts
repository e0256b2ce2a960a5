/**
 * How much of the docs is measurement record: the lines (and bytes) of
 * docs/measurements/ against every markdown page under docs/ plus README.md.
 * The measurement pages hold the current figure for each claim and a folded
 * history; when they outgrow the pages they serve, old runs are folded, not
 * added to.
 *
 *   npx tsx scripts/doc-share.ts          the share, and each measurement page's lines
 *
 * Exits 1 when docs/measurements/ holds more than TARGET of the doc lines.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { markdownFiles } from './named-paths.ts';

const repoRoot = join(import.meta.dirname, '..');

/** The most of the doc lines docs/measurements/ may hold. */
const TARGET = 0.35;

interface Page {
  readonly path: string;
  readonly lines: number;
  readonly bytes: number;
}

const pageOf = (file: string): Page => {
  const text = readFileSync(file, 'utf8');
  return { path: relative(repoRoot, file), lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0), bytes: Buffer.byteLength(text) };
};

const pages = [...markdownFiles(join(repoRoot, 'docs')), join(repoRoot, 'README.md')].map(pageOf);
const measured = pages.filter((p) => p.path.startsWith('docs/measurements/'));
const sum = (of: readonly Page[], key: 'lines' | 'bytes'): number => of.reduce((n, p) => n + p[key], 0);
const share = (key: 'lines' | 'bytes'): number => sum(measured, key) / sum(pages, key);
const percent = (x: number): string => `${(100 * x).toFixed(1)}%`;

for (const p of [...measured].sort((a, b) => b.lines - a.lines)) console.log(`${String(p.lines).padStart(5)}  ${p.path}`);
console.log(`docs/measurements/: ${sum(measured, 'lines')} of ${sum(pages, 'lines')} doc lines (${percent(share('lines'))}; bytes ${percent(share('bytes'))}); target ≤ ${percent(TARGET)} of lines`);
process.exitCode = share('lines') > TARGET ? 1 : 0;
