/**
 * Runs saved before the measurer block kept their measurer's fields among the
 * run's options (lockstepProcesses, setsPerProcess, cpuLimitMs). They load
 * with those fields moved into the block, validated by their measurer, and
 * re-report byte for byte as rtbench reported them before the block: the
 * fixtures hold those reports, as text and as markdown (whose method line
 * lockstep words from its fields).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSavedRun } from '@rtbench/saved-runs';
import { repoRoot } from '../../../test/helpers/cli.ts';
import { reportCommand } from '../src/commands/report.ts';
import { UsageError } from '../src/errors.ts';

const BEFORE = join(import.meta.dirname, 'fixtures', 'reports-before-measurer-block');
const saved = (name: string): string => join(repoRoot, 'results', `${name}.json`);

/** Saved with lockstep's warm processes and words (two sets a process), without words (one set), with a CPU limit, and with no measurer named. */
const RUNS = ['20261126-222202Z-ssr-compare', '20261124-080039Z-json-reviver', '20261126-111226Z-relay-request', '20261121-124315Z-json-reviver'];

describe('runs saved before the measurer block', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-before-block-'));
  for (const name of RUNS) {
    it(`${name} re-reports byte for byte, as text and as markdown`, async () => {
      for (const [format, ext] of [[undefined, 'txt'], ['markdown', 'md']] as const) {
        const out = join(dir, `${name}.${ext}`);
        await reportCommand(saved(name), { ...(format ? { format } : {}), output: out, quiet: true });
        expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(BEFORE, `${name}.${ext}`), 'utf8'));
      }
    });
  }

  it('load with their measurer fields in the block, none left among the options', () => {
    const { options } = loadSavedRun(saved('20261126-222202Z-ssr-compare')).run;
    expect(options.measurerFields).toEqual({ processes: 'warm', setsPerProcess: 2 });
    expect(Object.keys(options)).not.toContain('setsPerProcess');
    expect(loadSavedRun(saved('20261126-111226Z-relay-request')).run.options.measurerFields).toEqual({ cpuLimitMs: 10 });
    expect(loadSavedRun(saved('20261121-124315Z-json-reviver')).run.options.measurerFields).toBeUndefined();
  });

  it('a block whose fields are not its measurer\'s shape is refused in one line', () => {
    const run = JSON.parse(readFileSync(saved('20261126-222202Z-ssr-compare'), 'utf8')) as { options: Record<string, unknown> };
    run.options.measurerFields = { processes: 'warm', setsPerProcess: 'two' };
    const file = join(dir, 'bad-block.json');
    writeFileSync(file, JSON.stringify(run));
    expect(() => loadSavedRun(file)).toThrow(UsageError);
    expect(() => loadSavedRun(file)).toThrow(/bad-block\.json is not a valid rtbench run: its measurer's fields do not match what lockstep records: .* at measurerFields\.setsPerProcess$/);
  });

  it('a CPU limit past a day, and a method text past the bound, are refused in one line (never printed as "> Infinity s")', () => {
    const edited = (name: string, edit: (options: Record<string, unknown>) => void): string => {
      const run = JSON.parse(readFileSync(saved('20261126-111226Z-relay-request'), 'utf8')) as { options: Record<string, unknown> };
      edit(run.options);
      const file = join(dir, `${name}.json`);
      writeFileSync(file, JSON.stringify(run));
      return file;
    };
    expect(() => loadSavedRun(edited('huge-limit', (o) => (o.cpuLimitMs = 1e308)))).toThrow(/huge-limit\.json is not a valid rtbench run: .*cpuLimitMs/);
    expect(() => loadSavedRun(edited('long-method', (o) => (o.measuredBy = { rounds: 'x'.repeat(100_000), paired: 'p', unpaired: 'u' })))).toThrow(/long-method\.json is not a valid rtbench run: .*measuredBy\.rounds/);
    expect(loadSavedRun(edited('day-limit', (o) => (o.cpuLimitMs = 86_400_000))).run.options.measurerFields).toEqual({ cpuLimitMs: 86_400_000 });
  });
});
