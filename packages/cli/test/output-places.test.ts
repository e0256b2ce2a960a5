/**
 * Where a command's output may go, and what the gate passes, on saved runs
 * (no runtime is started): `-o -` is stdout; a symbolic link, or a file the
 * command reads, is refused before anything is written; one file given twice
 * to compare is refused; --flagged is checked before any run is read; and
 * the gate never passes a comparison in which nothing was compared. The
 * command line runs in the test's own process (command-run.ts, its streams
 * read by commandStreams).
 */
import { existsSync, lstatSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticRun, writeRun } from '../../../test/compare-synthetic.ts';
import { repoRoot } from '../../../test/helpers/cli.ts';
import { commandStreams as runCli } from './usage-lines.ts';

const cases = [
  { id: 'parse', ns: 1_000 },
  { id: 'stringify', ns: 8_000 },
];

/** A folder with a base run, a head run, and a head run whose every sample is 0 (nothing in it can be compared). */
function savedRuns(): { dir: string; base: string; head: string; zero: string } {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-output-places-'));
  const arms = [{ id: 'node@24', factor: 1 }];
  const zeroRun = syntheticRun({ cases, arms, rounds: 8, seed: 3 });
  for (const r of zeroRun.results) {
    for (const round of r.rounds) round.samples = round.samples.map(() => 0);
    delete r.stats;
  }
  return {
    dir,
    base: writeRun(join(dir, 'base.json'), syntheticRun({ cases, arms, rounds: 8, seed: 1 })),
    head: writeRun(join(dir, 'head.json'), syntheticRun({ cases, arms, rounds: 8, seed: 2 })),
    zero: writeRun(join(dir, 'zero.json'), zeroRun),
  };
}

function oneError(stderr: string): string {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

describe.concurrent('output places', () => {
  it('-o - writes to stdout and creates no file named "-"', async () => {
    const { base } = savedRuns();
    const r = await runCli(['report', base, '--format', 'json', '-o', '-']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'bench' });
    // The CLI runs in the checkout's root.
    expect(existsSync(join(repoRoot, '-'))).toBe(false);
  });

  it('-o at a symbolic link is refused in one line, and the link and its target are left as they were', async () => {
    const { dir, base } = savedRuns();
    const target = join(dir, 'notes.md');
    writeFileSync(target, 'mine\n');
    const link = join(dir, 'link.md');
    symlinkSync(target, link);
    const r = await runCli(['report', base, '--format', 'markdown', '-o', link]);
    expect(r.status).toBe(2);
    expect(oneError(r.stderr)).toBe(`error: --output ${link} is a symbolic link (to ${target}); name the file itself: rtbench writes a new file and renames it over the name, which would replace the link`);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('mine\n');
  });

  it('report -o the run it reads is refused, and the run is kept', async () => {
    const { dir, base } = savedRuns();
    const before = readFileSync(base, 'utf8');
    const r = await runCli(['report', base, '--format', 'json', '-o', join(dir, '.', 'base.json')]);
    expect(r.status).toBe(2);
    expect(oneError(r.stderr)).toBe(`error: --output ${join(dir, 'base.json')} is ${base}, which this command reads; name another file`);
    expect(readFileSync(base, 'utf8')).toBe(before);
  });

  it('compare with one file twice is one line, exit 2', async () => {
    const { base } = savedRuns();
    const r = await runCli(['compare', base, base]);
    expect(r.status).toBe(2);
    expect(oneError(r.stderr)).toBe(`error: rtbench compare: ${base} and ${base} are one file; name two different runs`);
  });

  it('compare of a run and a copy of it (one run id, here edited) is one line, exit 2', async () => {
    const { dir, base } = savedRuns();
    const copy = join(dir, 'copy.json');
    const run = JSON.parse(readFileSync(base, 'utf8')) as { id: string; results: { rounds: { samples: number[] }[] }[] };
    run.results[0]!.rounds[0]!.samples[0]! *= 2;
    writeFileSync(copy, JSON.stringify(run));
    const r = await runCli(['compare', base, copy]);
    expect(r.status).toBe(2);
    expect(oneError(r.stderr)).toBe(`error: rtbench compare: ${copy} and ${base} hold one run (id ${JSON.stringify(run.id)}); name two different runs`);
  });

  it('--flagged is checked before any run is read: without the gate, and where no file can be written', async () => {
    const { base, head } = savedRuns();
    const missing = '/no/such/run.json';
    const alone = await runCli(['compare', base, missing, '--flagged', 'cases.txt']);
    expect(alone.status).toBe(2);
    expect(oneError(alone.stderr)).toBe('error: --flagged names the cases --fail-on-regression finds: give both');
    const unwritable = await runCli(['compare', base, head, '--fail-on-regression', '5', '--flagged', '/proc/rtbench-flagged.txt']);
    expect(unwritable.status).toBe(2);
    expect(oneError(unwritable.stderr)).toMatch(/^error: --flagged \/proc\/rtbench-flagged\.txt: no file can be created in \/proc/);
    expect(unwritable.stdout).toBe('');
  });

  it('the gate fails, never ✓, when the head run compared nothing (every sample 0)', async () => {
    const { base, head, zero } = savedRuns();
    const [nothing, something] = await Promise.all([runCli(['compare', base, zero, '--fail-on-regression', '5']), runCli(['compare', base, head, '--fail-on-regression', '5'])]);
    expect(nothing.status).toBe(1);
    expect(nothing.stderr).not.toContain('✓');
    expect(nothing.stderr).toContain('✗ nothing was compared: no case has a ratio the gate can judge');
    expect(something.status, something.stderr).toBe(0);
    expect(something.stderr).toContain('✓ no case is significantly slower by more than 5%');
  });
});
