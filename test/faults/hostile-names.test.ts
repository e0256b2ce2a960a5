/**
 * One hostile name (terminal escapes, a line break, a fence, a markdown
 * image, a link, a mention and a reference, HTML, a pipe, test/helpers/hostile-name.ts)
 * through the real command's stdout and stderr, a release matrix's text and
 * releases.md, a bisect's answer (every format of a run, a comparison, a
 * history and claims: packages/cli/test/hostile-formats.test.ts, the command
 * line in the test's own process). In each it is inert: no control byte
 * reaches the output, the name stays on its one line, and markdown outside
 * code holds no link, image, HTML, mention or reference of its making; JSON
 * keeps the exact name.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BisectResult } from '../../packages/bisect/src/index.ts';
import { printable, reporterFor, type BisectView } from '@rtbench/report';
import { caseFilter, exactFilter } from '@rtbench/suite-loader';
import { runCliAsync, tempFile, unwrapped } from '../helpers/cli.ts';
import { CONTROL, HOSTILE, hostileRuns, inertMarkdown, inertText } from '../helpers/hostile-name.ts';
import { writeMatrixFolder } from '../matrix-synthetic.ts';

describe('a hostile name', () => {
  const dir = dirname(tempFile('x'));
  const { bench, base, head } = hostileRuns(dir);

  it('is inert on the real command\'s stdout and stderr (every format of every command: packages/cli/test/hostile-formats.test.ts, in process)', async () => {
    const [table, markdown] = await Promise.all([runCliAsync(['report', bench, '--format', 'terminal']), runCliAsync(['history', base, head, '--format', 'markdown'])]);
    for (const [where, r] of [['report terminal', table], ['history markdown', markdown]] as const) {
      expect(r.status, `${where}: ${r.stderr}`).toBe(0);
      expect(r.stderr, where).not.toMatch(CONTROL);
    }
    inertText(table.stdout, 'report terminal');
    inertMarkdown(markdown.stdout, 'history markdown');
  }, 600_000);

  it('is inert in a release matrix\'s text and releases.md, where it names a change point and its commands', async () => {
    const slower = (release: string, caseId: string): number => (caseId === HOSTILE && release === '3' ? 1.5 : 1);
    const shards = [1, 2].map((index) => join(dir, `shard-${index}`));
    const node = { runtime: 'node', releases: ['1', '2', '3'], cases: [HOSTILE, 'plain'], factor: slower, suite: `suite\n${HOSTILE}`, shard: { index: 1, count: 2 } };
    const bun = { runtime: 'bun', releases: ['1', '2'], cases: [HOSTILE], factor: () => 1, shard: { index: 2, count: 2 }, seed: 5 };
    writeMatrixFolder(shards[0]!, { ...node, asked: [node, bun] });
    writeMatrixFolder(shards[1]!, { ...bun, asked: [node, bun] });
    const merged = join(dir, 'merged');
    const r = await runCliAsync(['merge', ...shards, '--save', merged]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('change points: 1');
    inertText(r.stdout, 'releases text');
    const md = readFileSync(join(merged, 'releases.md'), 'utf8');
    expect(md).toContain('--compare node@2 node@3');
    inertMarkdown(md, 'releases.md');
    // The reproducing command picks the case still: its line breaks and escapes are written as \x{…} in the filter
    // (the command broken over lines with a trailing backslash, as a shell joins them again).
    expect(unwrapped(r.stdout)).toContain(String.raw`--filter '/^evil \x{1b}\]0;retitled\x{7}\x{1b}\[1;31mred\x{9b}2J\x{d}\x{a}forged line\x{a}`);
    const html = readFileSync(join(merged, 'releases.html'), 'utf8');
    expect(html).not.toMatch(CONTROL);
    expect(html).not.toContain('<b>bold');
  });

  it('is inert in a bisect\'s answer: a skipped release\'s reason stays on its line', () => {
    const ends = { ratio: 1.2, ci: [1.1, 1.3] as [number, number], verdict: 'slower' as const, confidence: 0.95, threshold: 0.02, n: 6, qValue: 0.01, pValue: 0.01 };
    const result = { first: '1', last: '3', outcome: { kind: 'no-change', ends }, skipped: [{ release: '2', reason: HOSTILE }], steps: [] } as unknown as BisectResult;
    const view: BisectView = { kind: 'bisect', runtime: 'node', suite: 's', caseId: HOSTILE, measure: 'lockstep', threshold: 0.02, confidence: 0.95, sameConfidence: 0.9, folder: '/f', engines: {}, result, engineNames: {}, unit: 'ns' };
    inertText(printable(reporterFor('terminal')!.render(view, { color: false, columns: 100 })), 'bisect answer');
    inertMarkdown(printable(reporterFor('markdown')!.render(view, {})), 'bisect answer in markdown');
  });

  it('is picked again by the one-line filter a reproducing command or --flagged writes for it', () => {
    const filter = exactFilter([HOSTILE, 'plain']);
    expect(filter).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    const picks = caseFilter(filter);
    expect([HOSTILE, 'plain', `${HOSTILE}x`, 'evil'].map(picks)).toEqual([true, true, false, false]);
  });
});
