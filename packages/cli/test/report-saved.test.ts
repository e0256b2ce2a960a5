/**
 * `rtbench report` on saved runs (no runtime is started): a comparison is
 * rendered as verdicts, a bench run as the table, its statistics computed
 * from the raw samples. The command line runs in the test's own process
 * (command-run.ts, its streams read by commandStreams).
 */
import { describe, expect, it } from 'vitest';
import { syntheticRun, writeRun } from '../../../test/compare-synthetic.ts';
import { tempFile } from '../../../test/helpers/cli.ts';
import { commandStreams as runCli } from './usage-lines.ts';

describe('rtbench report', () => {
  it('renders a saved comparison as verdicts, a saved bench run as the table', async () => {
    const cases = [{ id: 'parse', ns: 1000 }];
    const compareRun = writeRun(
      tempFile('cmp.json'),
      syntheticRun({ mode: 'compare', cases, arms: [{ id: 'node@24', factor: 1 }, { id: 'node@26', factor: 0.8 }], rounds: 12, seed: 3 }),
    );
    const md = await runCli(['report', compareRun, '--format', 'markdown']);
    expect(md.status, md.stderr).toBe(0);
    expect(md.stdout).toContain('rtbench compare');
    expect(md.stdout).toContain('**faster**');
    const benchRunFile = writeRun(tempFile('bench.json'), syntheticRun({ cases, arms: [{ id: 'node@24', factor: 1 }], rounds: 6 }));
    const table = await runCli(['report', benchRunFile]);
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout).toContain('median/op');
    // The synthetic file has raw samples only: the report computes the statistics from them.
    expect(table.stdout).toMatch(/\d µs/);
  });
});
