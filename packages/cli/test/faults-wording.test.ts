/**
 * What the fault tests' real runs would otherwise each start a CLI for, with
 * the command line in the test's own process (command-run.ts): a run whose
 * every case has one digest says its work was not cross-checked, and a count
 * run without valgrind says in one line how to get it, before any runtime
 * starts.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticRun, writeRun } from '../../../test/compare-synthetic.ts';
import { fixture } from '../../../test/helpers/cli.ts';
import { commandLine, commandStreams } from './usage-lines.ts';

const dir = mkdtempSync(join(tmpdir(), 'rtbench-faults-wording-'));

describe('the same-work check with nothing to compare', () => {
  it('says the work was not cross-checked when one round ran on one runtime', async () => {
    const one = writeRun(join(dir, 'one.json'), syntheticRun({ mode: 'bench', cases: [{ id: 'async resolve', ns: 500 }], arms: [{ id: 'node', factor: 1 }], rounds: 1 }));
    const r = await commandStreams(['report', one]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/the work was not cross-checked/);
    // Two rounds of it are two digests: cross-checked, no such note.
    const two = writeRun(join(dir, 'two.json'), syntheticRun({ mode: 'bench', cases: [{ id: 'async resolve', ns: 500 }], arms: [{ id: 'node', factor: 1 }], rounds: 2 }));
    expect((await commandStreams(['report', two])).stdout).not.toMatch(/not cross-checked/);
  });
});

describe('--measure instructions without valgrind', () => {
  it('says in one line how to get valgrind when it is missing', async () => {
    const saved = process.env.RTBENCH_VALGRIND;
    process.env.RTBENCH_VALGRIND = '/nonexistent/valgrind';
    try {
      const r = await commandLine(['bench', fixture('tiny'), '--filter', 'n=200', '--runtime', 'node', '--measure', 'instructions']);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain('apt-get install -y valgrind');
    } finally {
      if (saved === undefined) delete process.env.RTBENCH_VALGRIND;
      else process.env.RTBENCH_VALGRIND = saved;
    }
  });
});
