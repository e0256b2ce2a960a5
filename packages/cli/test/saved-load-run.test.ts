/**
 * A run of HTTP load saved before CPU per request had one view: its report
 * is what rtbench printed then (the fixtures, as text and as markdown) but
 * for one move. The server's CPU per request (the `cpu/req js` and
 * `cpu/req` columns of the load table) is now CPU per request's own table,
 * one row per case and runtime, the same medians in ms. Everything else,
 * and every figure, reads as it did.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../test/helpers/cli.ts';
import { reportCommand } from '../src/commands/report.ts';

const NAME = '20261127-023253Z-http-hello';
const BEFORE = join(import.meta.dirname, 'fixtures', 'reports-before-cpu-view');
const CPU_HEADS = ['cpu/req js', 'cpu/req'];
const LOAD_HEADING = 'HTTP load (medians over rounds)';
const CPU_HEADING = 'CPU per request (ms)';

const dir = mkdtempSync(join(tmpdir(), 'rtbench-load-run-'));

async function report(format: 'markdown' | undefined, ext: string): Promise<{ before: string[]; after: string[] }> {
  const out = join(dir, `${NAME}.${ext}`);
  await reportCommand(join(repoRoot, 'results', `${NAME}.json`), { ...(format ? { format } : {}), output: out, quiet: true });
  return { before: readFileSync(join(BEFORE, `${NAME}.${ext}`), 'utf8').split('\n'), after: readFileSync(out, 'utf8').split('\n') };
}

/** "13.7 µs", "0.0137", "1.2 ms": a CPU figure in ms to three significant digits. */
function ms(text: string): string {
  const m = /^([\d.]+)(?: (µs|ms))?$/.exec(text.trim());
  if (!m) throw new Error(`not a CPU figure: ${text}`);
  return (Number(m[1]) / (m[2] === 'µs' ? 1000 : 1)).toPrecision(3);
}

/** The words of a key, whatever their wrapping. */
const words = (lines: readonly string[]): string => lines.join(' ').replace(/\s+/g, ' ').trim();

describe('a load run saved before CPU per request had one view', () => {
  it('markdown: the load table less its CPU columns, and those medians in the CPU-per-request table', async () => {
    const { before, after } = await report('markdown', 'md');
    const cpuAt = after.indexOf(`#### ${CPU_HEADING}`);
    const loadAt = after.indexOf(`#### ${LOAD_HEADING}`);
    expect(cpuAt).toBeGreaterThan(0);
    // Up to the load table, as it was.
    expect(after.slice(0, cpuAt)).toEqual(before.slice(0, before.indexOf(`#### ${LOAD_HEADING}`)));
    // The load table: each row less the two cells; the key less the CPU's words.
    const headAt = before.indexOf('', before.indexOf(`#### ${LOAD_HEADING}`)) + 1;
    const cells = (line: string): string[] => line.split(' | ');
    const heads = cells(before[headAt]!);
    const dropped = CPU_HEADS.map((h) => heads.indexOf(h));
    expect(dropped.every((i) => i > 0)).toBe(true);
    const figures = new Map<string, string>();
    let measurement = '';
    const expected = before.slice(before.indexOf(`#### ${LOAD_HEADING}`)).map((line, i) => {
      if (!line.startsWith('|')) return line.replace('CPU per request, wake-ups per request', 'wake-ups per request');
      // The alignment row: two figure columns fewer.
      if (line.startsWith('|---')) return line.replace('--:|--:|', '');
      const row = cells(line);
      if (i > 3) {
        measurement = row[0]!.slice(2) || measurement;
        for (const [k, at] of dropped.entries()) figures.set(`${measurement.replace(/\]$/, `, metric=${CPU_HEADS[k]}]`)} · ${row[1]}`, ms(row[at]!));
      }
      return row.filter((_, at) => !dropped.includes(at)).join(' | ');
    });
    expect(after.slice(loadAt)).toEqual(expected);
    // Every median the load table had is in the CPU table, the same to its digits.
    const table = after.slice(cpuAt, loadAt).filter((l) => l.startsWith('| ') && !l.startsWith('| case'));
    let caseId = '';
    const moved = new Map(
      table.map((line) => {
        const [c, runtime, p50] = cells(line.slice(2));
        caseId = c || caseId;
        return [`${caseId} · ${runtime}`, ms(p50!)];
      }),
    );
    expect(figures.size).toBe(32);
    expect(moved).toEqual(figures);
  });

  it('text: the same lines before the load table and after it, its rows the same figures less the CPU columns', async () => {
    const { before, after } = await report(undefined, 'txt');
    const cpuAt = after.indexOf(CPU_HEADING);
    const loadAt = after.indexOf(LOAD_HEADING);
    const beforeLoadAt = before.indexOf(LOAD_HEADING);
    expect(after.slice(0, cpuAt)).toEqual(before.slice(0, beforeLoadAt));
    const tokens = (line: string): string[] => line.trim().split(/\s{2,}/);
    const heads = tokens(before[beforeLoadAt + 1]!);
    const dropped = CPU_HEADS.map((h) => heads.indexOf(h));
    const endOf = (lines: string[], at: number): number => lines.findIndex((l, i) => i > at && l.startsWith('conns: '));
    const rows = (lines: string[], from: number, drop: number[]): string[][] => lines.slice(from + 1, endOf(lines, from)).filter((l) => !l.startsWith('  ─')).map((l) => tokens(l).filter((_, i) => !drop.includes(i) || tokens(l).length === 1));
    expect(rows(after, loadAt, [])).toEqual(rows(before, beforeLoadAt, dropped));
    // The key, then the notes under the table (the first starts with "!"), as they were but for the CPU's words.
    const keyEnd = (lines: string[], at: number): number => lines.findIndex((l, i) => i > endOf(lines, at) && l.startsWith('! '));
    const [a, b] = [keyEnd(after, loadAt), keyEnd(before, beforeLoadAt)];
    expect(b).toBeGreaterThan(0);
    expect(words(after.slice(endOf(after, loadAt), a))).toBe(words(before.slice(endOf(before, beforeLoadAt), b)).replace('CPU per request, wake-ups per request', 'wake-ups per request'));
    expect(after.slice(a)).toEqual(before.slice(b));
  });
});
