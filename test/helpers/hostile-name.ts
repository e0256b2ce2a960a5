/**
 * One hostile name (terminal escapes, a line break, a fence, a markdown
 * image, a link, a mention and a reference, HTML, a pipe) and what "inert"
 * means for a text that shows it: the end-to-end test
 * (test/faults/hostile-names.test.ts) and the in-process one of every format
 * (packages/cli/test/hostile-formats.test.ts) share it.
 */
import { join } from 'node:path';
import { expect } from 'vitest';
import { syntheticRun, writeRun } from '../compare-synthetic.ts';
import { liveMarkdown } from './markdown-inert.ts';

export const HOSTILE = 'evil \x1b]0;retitled\x07\x1b[1;31mred\x9b2J\r\nforged line\n```\n# heading ![img](https://x.example/i.png) [link](https://x.example) @octocat #12 `tick` <b>bold</b> | pipe';
/** Control bytes but tab and newline: none may reach a text output. */
export const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
/** A line break in the name would start these lines. */
const FORGED = ['forged line', '# heading'];

/** The text is inert: no control byte, and the parts of the name after its line breaks are on the line where the name starts. */
export function inertText(text: string, where: string, shown = true): void {
  expect(text, where).not.toMatch(CONTROL);
  const lines = text.split('\n');
  for (const part of FORGED) {
    const at = lines.filter((l) => l.includes(part));
    if (shown) expect(at.length, `${where}: the name is shown`).toBeGreaterThan(0);
    for (const line of at) expect(line, `${where}: a line of its own`).toContain('evil');
  }
}

export function inertMarkdown(text: string, where: string, shown = true): void {
  inertText(text, where, shown);
  expect(liveMarkdown(text, 'evil'), where).toEqual([]);
}

/** Saved runs in `dir` with the name as a case: a bench of two arms, and a base and a head to compare and read as a history. */
export function hostileRuns(dir: string): { bench: string; base: string; head: string } {
  const cases = [{ id: HOSTILE, ns: 1000 }, { id: 'plain', ns: 2000 }];
  return {
    bench: writeRun(join(dir, 'bench.json'), syntheticRun({ mode: 'bench', cases, arms: [{ id: 'node@24', factor: 1 }, { id: 'node@26', factor: 1.4 }], rounds: 6 })),
    base: writeRun(join(dir, 'base.json'), { ...syntheticRun({ cases, arms: [{ id: 'node@24', factor: 1 }], rounds: 6, seed: 2 }), id: 'base' }),
    head: writeRun(join(dir, 'head.json'), { ...syntheticRun({ cases, arms: [{ id: 'node@24', factor: 1.5 }], rounds: 6, seed: 3 }), id: 'head', startedAt: '2026-01-02T00:00:00.000Z' }),
  };
}
