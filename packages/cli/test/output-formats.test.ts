/**
 * -o / --output for every format: the file holds the same bytes the command
 * would write to stdout, nothing goes to stdout, and no temporary file is
 * left beside it; a missing directory is refused before a run starts. The
 * command line runs in the test's own process (command-run.ts, its streams
 * read by commandStreams); test/faults/output-file.test.ts runs one format
 * and a write that fails through the real command.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticRun, writeRun } from '../../../test/compare-synthetic.ts';
import { fixture } from '../../../test/helpers/cli.ts';
import { commandLine, commandStreams } from './usage-lines.ts';

const dir = mkdtempSync(join(tmpdir(), 'rtbench-output-formats-'));
const RUN = writeRun(join(dir, 'small.json'), syntheticRun({ mode: 'bench', cases: [{ id: 'a', ns: 1000 }, { id: 'b', ns: 5000 }], arms: [{ id: 'node', factor: 1 }, { id: 'bun', factor: 0.8 }], rounds: 6 }));

describe('-o, --output', () => {
  it.each(['terminal', 'markdown', 'csv', 'csv-stats', 'json', 'bmf', 'html'])('%s: writes what stdout would carry, and nothing to stdout', async (format) => {
    const file = join(mkdtempSync(join(dir, `${format}-`)), `report.${format}`);
    const viaFile = await commandStreams(['report', RUN, '--format', format, '-o', file]);
    const viaStdout = await commandStreams(['report', RUN, '--format', format]);
    expect(viaFile.status, viaFile.stderr).toBe(0);
    expect(viaStdout.status, viaStdout.stderr).toBe(0);
    expect(viaFile.stdout).toBe('');
    if (format === 'html') expect(readFileSync(file, 'utf8')).toMatch(/^<!doctype html>/i);
    else expect(readFileSync(file, 'utf8'), format).toBe(viaStdout.stdout);
    // Atomic: no temporary file left beside it.
    expect(readdirSync(dirname(file))).toEqual([`report.${format}`]);
  });

  it('a missing directory is one line and exit 2, before a run starts', async () => {
    const out = join(mkdtempSync(join(dir, 'missing-')), 'run.json');
    const r = await commandLine(['bench', fixture('tiny'), '--runtime', 'node', '--quiet', '--save', out, '--output', join(dirname(out), 'missing', 'table.txt')]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: --output .*: the directory .* does not exist$/)]);
    expect(existsSync(out)).toBe(false);
  });
});
