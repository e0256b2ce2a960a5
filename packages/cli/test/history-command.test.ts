/**
 * `rtbench history` on synthetic saved runs (no runtime is started), run by
 * the command line in the test's own process (command-run.ts, its streams
 * read by commandStreams); it asks git for the commits' order.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HistoryView } from '@rtbench/report';
import { writeRun } from '../../../test/compare-synthetic.ts';
import { repoRoot } from '../../../test/helpers/cli.ts';
import { historyRuns, type HistoryStep } from '../../../test/history-synthetic.ts';
import { commandStreams as runCli } from './usage-lines.ts';

const cases = [
  { id: 'parse / small', ns: 1_000 },
  { id: 'stringify', ns: 8_000 },
];

/** This checkout's HEAD: every run names it, so the order is by commit, and by start time at it. */
const head = spawnSync('git', ['-C', repoRoot, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).stdout.trim();

/** A directory of saved runs, one per step, named so that their names sort against their order. */
function savedRuns(steps: HistoryStep[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-history-'));
  historyRuns(steps, { cases, rounds: 10, seed: 3, suite: 'synthetic' }).forEach((run, i) => writeRun(join(dir, `${String.fromCharCode(122 - i)}-run.json`), run));
  return dir;
}

/** Four runs at HEAD; from the third on, 10% slower. */
const stepSteps = (): HistoryStep[] => [1, 1, 1.1, 1.1].map((factor) => ({ factor, commit: head }));

function noStack(stderr: string): void {
  expect(stderr).not.toMatch(/\n\s+at /);
  expect(stderr).not.toMatch(/\.ts:\d+:\d+/);
}

describe.concurrent('rtbench history', () => {
  it('terminal: the runs in commit order, the step marked on each case, the rule under it', async () => {
    const dir = savedRuns(stepSteps());
    const r = await runCli(['history', dir]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.replace(/\n/g, ' ')).toContain(`ordered by commit: git rev-list --topo-order in ${repoRoot}; runs at one commit by start time`);
    // Run 1 is the earliest start, though its file name sorts last.
    expect(r.stdout).toMatch(/ 1 {2}\w{7} +2026-01-01 00:00 +z-run\.json/);
    expect(r.stdout.match(/▲\+\d+(\.\d)?%/g)).toHaveLength(2);
    expect(r.stdout.match(/▲ node@24 at run 3 \(\w{7}\): 1\.\d{3}×/g)).toHaveLength(2);
    expect(r.stdout).toContain('2 change points in 6 comparisons of neighbouring runs');
  });

  it('json: a change point at the third run of every case, against the second', async () => {
    const dir = savedRuns(stepSteps());
    const r = await runCli(['history', dir, '--format', 'json']);
    expect(r.status, r.stderr).toBe(0);
    const view = JSON.parse(r.stdout) as HistoryView;
    expect(view.kind).toBe('history');
    expect(view.order).toEqual({ by: 'commit', reason: `by commit: git rev-list --topo-order in ${repoRoot}; runs at one commit by start time` });
    expect(view.runs.map((x) => x.startedAt.slice(0, 10))).toEqual(['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04']);
    for (const hc of view.cases) {
      const points = hc.series[0]!.points;
      expect(points.map((p) => p.changePoint ?? null)).toEqual([null, null, 'slower', null]);
      expect(points[2]!.changeFrom).toBe(1);
      expect(points[2]!.change!.ratio).toBeGreaterThan(1.05);
      expect(points[2]!.change!.ratio).toBeLessThan(1.15);
    }
  });

  it('markdown and csv: the change point in bold; one csv row per point', async () => {
    const dir = savedRuns(stepSteps());
    const md = await runCli(['history', dir, '--markdown']);
    expect(md.status, md.stderr).toBe(0);
    expect(md.stdout).toContain('**Change points** (2):');
    expect(md.stdout).toMatch(/\| 3 \| `\w{7}` \| 2026-01-03 \| \*\*[\d.]+ µs ▲\+\d+(\.\d)?%\*\* \|/);
    const csv = await runCli(['history', dir, '--format', 'csv']);
    expect(csv.status, csv.stderr).toBe(0);
    const lines = csv.stdout.trim().split('\n');
    expect(lines).toHaveLength(1 + 2 * 4);
    expect(lines.filter((l) => l.includes(',slower,slower,'))).toHaveLength(2);
  });

  it('html -o: one page with the history script and its data', async () => {
    const dir = savedRuns(stepSteps());
    const out = join(dir, 'history.html');
    const r = await runCli(['history', dir, '--format', 'html', '-o', out]);
    expect(r.status, r.stderr).toBe(0);
    const html = readFileSync(out, 'utf8');
    const data = JSON.parse(/<script type="application\/json" id="rtbench-data">(.*?)<\/script>/s.exec(html)![1]!) as { kind: string; cases: { changes: unknown[] }[] };
    expect(data.kind).toBe('history');
    expect(data.cases.map((c) => c.changes.length)).toEqual([1, 1]);
  });

  it('orders by start time, and says why, when a run names a commit this checkout lacks', async () => {
    const steps = stepSteps();
    steps[1] = { ...steps[1]!, commit: 'f'.repeat(40) };
    const r = await runCli(['history', savedRuns(steps), '--format', 'json']);
    expect(r.status, r.stderr).toBe(0);
    const view = JSON.parse(r.stdout) as HistoryView;
    expect(view.order).toEqual({ by: 'time', reason: `by start time: 1 commit the runs name is not in ${repoRoot} (e.g. ffffffffffff)` });
  });

  it('a FIFO named *.json in the folder, or named as a run: refused as not a regular file, never waited on', async () => {
    const dir = savedRuns(stepSteps());
    const fifo = join(dir, 'a-fifo.json');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const [history, report] = await Promise.all([runCli(['history', dir]), runCli(['report', fifo])]);
    expect(history.status, history.stderr).toBe(0);
    expect(history.stderr.split('\n').filter((l) => l.startsWith('skipped '))).toEqual([`skipped ${fifo} is not a regular file`]);
    expect(report.status).toBe(2);
    expect(report.stderr.trim()).toBe(`error: ${fifo} is not a regular file`);
  });

  it('a file that is not a readable run: one line on stderr, the rest shown', async () => {
    const dir = savedRuns(stepSteps());
    writeFileSync(join(dir, 'broken.json'), '{"schema": "rtbench.run", "schemaVersion": 1, "id": 3');
    writeFileSync(join(dir, 'other.json'), '{"hello": "world"}');
    const r = await runCli(['history', dir]);
    expect(r.status, r.stderr).toBe(0);
    const skipped = r.stderr.split('\n').filter((l) => l.startsWith('skipped '));
    expect(skipped).toHaveLength(2);
    expect(skipped[0]).toContain('broken.json');
    expect(skipped[1]).toContain('other.json is not an rtbench run');
    noStack(r.stderr);
    expect(r.stdout).toContain('2 change points');
    expect(r.stdout).toContain('2 files skipped');
  });

  it('a run given twice (the same path, or a copy with the same id) is one run', async () => {
    const dir = savedRuns(stepSteps());
    writeFileSync(join(dir, 'copy.json'), readFileSync(join(dir, 'z-run.json')));
    const r = await runCli(['history', dir, join(dir, 'y-run.json'), '--format', 'json']);
    expect(r.status, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as HistoryView).runs).toHaveLength(4);
    expect(r.stderr).toMatch(/z-run\.json is the same run as .*copy\.json \(id history-1\): read once/);
  });

  it('an edited copy with the same run id shadows nothing: both are left out, said in one line', async () => {
    const dir = savedRuns(stepSteps());
    // The newest run (w-run.json) edited to say it is the first run (z-run.json): same id, other samples; it sorts first.
    const edited = JSON.parse(readFileSync(join(dir, 'w-run.json'), 'utf8')) as { id: string };
    edited.id = (JSON.parse(readFileSync(join(dir, 'z-run.json'), 'utf8')) as { id: string }).id;
    writeFileSync(join(dir, 'w-run.json'), JSON.stringify(edited));
    const r = await runCli(['history', dir, '--format', 'json', '--quiet']);
    expect(r.status, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as HistoryView).runs.map((x) => x.file)).toEqual([join(dir, 'y-run.json'), join(dir, 'x-run.json')]);
    const said = r.stderr.split('\n').filter((l) => l.includes(edited.id));
    expect(said).toEqual([`skipped ${join(dir, 'z-run.json')} and ${join(dir, 'w-run.json')}: both say they are run ${edited.id} but hold different records (one was edited), so neither is read`]);
  });

  it('--fail-on-regression: 1 when the newest run is a significant slowdown beyond the limit, else 0', async () => {
    const newest = savedRuns([1, 1, 1.1].map((factor) => ({ factor, commit: head })));
    const failing = await runCli(['history', newest, '--fail-on-regression', '5']);
    expect(failing.status).toBe(1);
    expect(failing.stderr).toMatch(/✗ regression: "parse \/ small" node@24 in run 3 is slower than run 2 by \d+\.\d%/);
    expect((await runCli(['history', newest, '--fail-on-regression', '25'])).status).toBe(0);
    // The step was two runs ago: not the newest run's.
    expect((await runCli(['history', savedRuns(stepSteps()), '--fail-on-regression', '5'])).status).toBe(0);
  });

  it('--filter and --runtime pick cases and variants; usage errors exit 2 in one line', async () => {
    const dir = savedRuns(stepSteps());
    const filtered = await runCli(['history', dir, '--filter', 'stringify', '--runtime', 'node@24', '--format', 'json']);
    expect(filtered.status, filtered.stderr).toBe(0);
    expect((JSON.parse(filtered.stdout) as HistoryView).cases.map((c) => c.caseId)).toEqual(['stringify']);
    for (const args of [
      ['--format', 'bmf'],
      ['--runtime', 'deno'],
      ['--filter', 'nothing-like-it'],
      ['--plot'],
    ]) {
      const r = await runCli(['history', dir, ...args]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: /);
      noStack(r.stderr);
    }
    const empty = await runCli(['history', mkdtempSync(join(tmpdir(), 'rtbench-history-empty-'))]);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toMatch(/^error: no readable rtbench runs in /);
  });

  it('--help states the change-point rule', async () => {
    const r = await runCli(['history', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Benjamini-Hochberg');
    expect(r.stdout).toContain('--fail-on-regression');
  });
});
