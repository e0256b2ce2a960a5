/**
 * Text a run carries from cases and runtimes (case names, failure messages,
 * stderr tails) is printed, not obeyed: no escape sequence but colours, no
 * control character reaches the terminal, markdown or CSV; a case name is
 * not markup in markdown; JSON keeps the exact text, escaped. The command
 * line runs in the test's own process; the real command's stdout and stderr
 * with a hostile name: test/faults/hostile-names.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { printable } from '@rtbench/report';
import { readFileSync } from 'node:fs';
import { tempFile } from '../../../test/helpers/cli.ts';
import { syntheticRun, writeRun } from '../../../test/compare-synthetic.ts';
import { commandLine } from './usage-lines.ts';

/** The command line in the test's own process, its output written with -o (the bytes stdout carries: test/faults/output-file.test.ts). */
async function runCli(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const out = tempFile('out');
  const said = await commandLine([...args, '-o', out]);
  return { ...said, stdout: said.status === 0 ? readFileSync(out, 'utf8') : '' };
}

const HOSTILE = 'parse \x1b]0;pwned\x07\x1b[2J\rfake line <img src=x onerror=alert(1)> \x9b31m\x00';
/** Right-to-left override, and an isolate: a name shown reversed after them ("Trojan Source"). */
const BIDI_NAME = 'fast\u202egnp.exe \u2067isolated\u2069';
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('hostile text in a run', () => {
  it('is shown, not obeyed, in every text format; JSON keeps it exactly', async () => {
    const run = syntheticRun({ mode: 'bench', cases: [{ id: HOSTILE, ns: 1000 }], arms: [{ id: 'node', factor: 1 }, { id: 'bun', factor: 1.2 }], rounds: 6 });
    run.results[1]!.failures.push({ kind: 'warning', message: `stderr said \x1b[31mred\x1b[0m and \x1b]52;c;c2VjcmV0\x07` });
    const file = tempFile('hostile.json');
    writeRun(file, run);
    for (const format of ['terminal', 'markdown', 'csv', 'csv-stats']) {
      const r = await runCli(['report', file, '--format', format]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout, format).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
      expect(r.stdout, format).toContain('␛]0;pwned\\x07␛[2J\\x0dfake line');
    }
    const md = (await runCli(['report', file, '--format', 'markdown'])).stdout;
    expect(md).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(md).not.toContain('<img');
    const json = (await runCli(['report', file, '--format', 'json'])).stdout;
    expect(json).not.toMatch(/[\x7f-\x9f]/);
    expect((JSON.parse(json) as { run: { cases: { id: string }[] } }).run.cases[0]!.id).toBe(HOSTILE);
  });

  it('shows bidi controls in a case name or a variant\'s env value as escapes in the terminal, markdown, csv and html; JSON keeps the text', async () => {
    const run = syntheticRun({ mode: 'bench', cases: [{ id: BIDI_NAME, ns: 1000 }], arms: [{ id: 'node', factor: 1 }, { id: 'bun', factor: 1.2 }], rounds: 6 });
    run.variants[1]!.translatedFlags = { args: [], env: { NAME: `x\u202ey` } };
    const file = tempFile('bidi.json');
    writeRun(file, run);
    for (const format of ['terminal', 'markdown', 'csv', 'csv-stats', 'html']) {
      const r = await runCli(['report', file, '--format', format]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout, format).not.toMatch(BIDI);
      // Shown as written escapes (inside the html page's JSON data, with its backslashes escaped once more).
      const shown = 'fast\\u202egnp.exe \\u2067isolated\\u2069';
      expect(r.stdout, format).toContain(format === 'html' ? JSON.stringify(shown).slice(1, -1) : shown);
    }
    const json = (await runCli(['report', file, '--format', 'json'])).stdout;
    expect(json).not.toMatch(BIDI);
    expect((JSON.parse(json) as { run: { cases: { id: string }[] } }).run.cases[0]!.id).toBe(BIDI_NAME);
    expect(printable('env NAME=x\u202ey')).toBe('env NAME=x\\u202ey');
  });

  it('keeps rtbench\'s own colours and nothing else', () => {
    expect(printable('\x1b[32mok\x1b[39m \x1b[2J', { keepColours: true })).toBe('\x1b[32mok\x1b[39m ␛[2J');
    expect(printable('\x1b[32mok')).toBe('␛[32mok');
    expect(printable('tab\tand\nnewline stay')).toBe('tab\tand\nnewline stay');
  });
});

describe('rows without figures', () => {
  it('name their reason once, under the table, however many rows share it', async () => {
    const reason = 'the file reads files while loading, and this runtime cannot see them (a long reason that would otherwise widen every row of the table)';
    const cases = ['a', 'b', 'c'].map((id) => ({ id, ns: 1000 }));
    const run = syntheticRun({ mode: 'bench', cases, arms: [{ id: 'node', factor: 1 }, { id: 'workerd', factor: 1, overrides: { a: { unsupported: reason }, b: { unsupported: reason }, c: { unsupported: 'another reason' } } }], rounds: 6 });
    const file = writeRun(tempFile('unsupported.json'), run);
    const out = (await runCli(['report', file])).stdout;
    expect(out.split('\n').filter((l) => /workerd\s+unsupported \[1\]$/.test(l))).toHaveLength(2);
    expect(out.split('\n').filter((l) => /workerd\s+unsupported \[2\]$/.test(l))).toHaveLength(1);
    expect(out.split('the file reads files while loading')).toHaveLength(2);
    expect(out).toMatch(/^\[2\] another reason$/m);
    expect(Math.max(...out.split('\n').map((l) => l.length))).toBeLessThanOrEqual(100);
  });
});
