/**
 * One hostile suite over every format a run is reported in, through the
 * CLI's own output path (emit: the reporter, then the one escaping rule for
 * its kind of output): names that a spreadsheet would run as a formula, that
 * would mention someone in the comment the CI posts, or that would draw a row
 * of their own in the terminal. The JSON formats keep the exact names.
 */
import { describe, expect, it } from 'vitest';
import { benchView, formatNames, reporterFor } from '@rtbench/report';
import { csvField } from '../../../report/src/text.ts';
import { emit } from '../../src/emit.ts';
import { computeStats } from '../../../saved-runs/src/record.ts';
import { syntheticRun } from '../../../../test/compare-synthetic.ts';

const FORMULA = '=HYPERLINK("http://x","ok")';
const MENTION = '@SUM(1) for @octocat';
const FORGED_ROW = '  node       1.00 ns  fake row';
const ROW = `real\n${FORGED_ROW}`;
const NAMES = [FORMULA, MENTION, ROW, '\tleading tab', '\rleading return', '-2+3', '+1 more'];

/** What `rtbench report <run> --format <format>` writes on a stdout that is not a terminal. */
function rendered(format: string): string {
  const run = syntheticRun({ mode: 'bench', cases: NAMES.map((id) => ({ id, ns: 1000 })), arms: [{ id: 'node', factor: 1 }, { id: 'bun', factor: 1.2 }], rounds: 6 });
  computeStats(run);
  let out = '';
  const stream = { write: (text: string) => ((out += text), true), columns: 100, isTTY: false } as unknown as NodeJS.WriteStream;
  emit(benchView(run), reporterFor(format)!, { quiet: true }, stream);
  return out;
}

// findings is the claims' format (runs that checked claims); it writes names through the markdown rule.
const FORMATS = formatNames().filter((f) => f !== 'findings');

describe('names that forge output, in every format', () => {
  it.each(FORMATS)('%s', (format) => {
    const out = rendered(format);
    if (format === 'json' || format === 'bmf') {
      const text = JSON.stringify(JSON.parse(out));
      expect(text.length).toBeGreaterThan(100);
      for (const name of NAMES) expect(text).toContain(JSON.stringify(name).slice(1, -1));
      return;
    }
    if (format === 'csv' || format === 'csv-stats') {
      // RFC 4180: a line break inside a quoted field is the field's; every field that would start a formula starts with ' instead.
      for (const line of out.split('\n').filter((l) => /^"?(\d|bench|run)/.test(l))) {
        for (const field of line.split(',')) expect(field.replace(/^"/, '')).not.toMatch(/^[=+\-@\t\r]/);
      }
      expect(out).toContain(`"'${FORMULA.replace(/"/g, '""')}"`);
      expect(out).toContain(`'${MENTION}`);
      expect(out).toContain(`'-2+3`);
      return;
    }
    // No line begins with the forged row: the name's line break is shown as \n.
    expect(out.split('\n').some((l) => l.startsWith(FORGED_ROW))).toBe(false);
    // Markdown escapes that backslash too (\\n in its source), so it renders as \n.
    expect(out).toContain(format === 'markdown' ? `real\\\\n${FORGED_ROW}` : `real\\n${FORGED_ROW}`);
    // An @ that starts a word is followed by a zero-width space (node@26, inside a word, mentions no one).
    if (format === 'markdown') expect(out).not.toMatch(/(^|[^\w])@(?!\u200b)/m);
  });
});

describe('a CSV field', () => {
  it('keeps a number with a sign a number, and gives text that starts a formula a leading quote', () => {
    expect([csvField('-1.5'), csvField('+2e3'), csvField(-3), csvField('=1+1'), csvField('@x'), csvField('\tx'), csvField('-x'), csvField('\rx')]).toEqual(['-1.5', '+2e3', '-3', "'=1+1", "'@x", "'\tx", "'-x", '"\'\rx"']);
  });
});
