/**
 * `--schedule duet` run as a user would, on node and bun: two pinned warm
 * processes per round sampled at the same time. The saved run has lockstep's
 * shapes with each round's core and partner; `compare` reads its ratio from
 * the windows' ratios; --rounds counts each arm's pairs with the baseline
 * (three arms: twice the rounds); a process whose figures are shrunk on their way out is
 * refused by its CPU time; a machine that lets rtbench use one core is
 * refused in one line before anything starts.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import type { ComparisonView } from '@rtbench/report';
import { pairRounds } from '../packages/stats/src/index.ts';
import { lockstepOf, pairable, type DuetRound } from '../packages/measurer-records/src/index.ts';
import { cliArgv, fixture, repoRoot, runCliAsync, tempFile, type CliResult } from './helpers/cli.ts';

/** A round's duet block, the duet measurer's own (absent: not a duet round). */
const duetOf = (round: RunRecord['results'][number]['rounds'][number]): DuetRound | undefined => round.duet as DuetRound | undefined;

const SHORT = ['--filter', 'n=200', '--time', '60ms', '--warmup', '10ms', '--fixed-warmup'];

describe.concurrent('--schedule duet', () => {
  let compared: { cli: CliResult; run: RunRecord; file: string };
  let forged: { cli: CliResult; run: RunRecord };
  let threeArms: { cli: CliResult; run: RunRecord };
  beforeAll(async () => {
    const file = tempFile('duet.json');
    const forgedFile = tempFile('duet-forged.json');
    const threeFile = tempFile('duet-three.json');
    const preload = join(repoRoot, 'test', 'fixtures', 'brought', 'forging-preload.cjs');
    const [cli, forgedCli, threeCli] = await Promise.all([
      runCliAsync(['bench', fixture('tiny'), '--compare', 'node,bun', '--schedule', 'duet', '--rounds', '4', ...SHORT, '--save', file, '--quiet']),
      runCliAsync(['bench', fixture('tiny'), '--runtime', `node NODE_OPTIONS=--require=${preload},bun`, '--schedule', 'duet', '--rounds', '1', ...SHORT, '--save', forgedFile, '--quiet']),
      runCliAsync(['bench', fixture('tiny'), '--runtime', 'node,bun,node@24', '--schedule', 'duet', '--rounds', '1', ...SHORT, '--save', threeFile, '--quiet']),
    ]);
    threeArms = { cli: threeCli, run: parseRun(JSON.parse(readFileSync(threeFile, 'utf8')), threeFile) };
    compared = { cli, file, run: parseRun(JSON.parse(readFileSync(file, 'utf8')), file) };
    forged = { cli: forgedCli, run: parseRun(JSON.parse(readFileSync(forgedFile, 'utf8')), forgedFile) };
  });

  it('saves a run measured by duet, in its own words', () => {
    expect(compared.cli.status, compared.cli.stderr).toBe(0);
    expect(compared.run.options.measurer).toBe('duet');
    expect(compared.run.options.measuredBy?.rounds).toMatch(/pinned to a CPU core of its own.*sample it at the same time/);
  });

  it('pairs both arms in every round, on two different cores that swap round by round, window for window', () => {
    const [baseline, candidate] = ['node', 'bun'].map((id) => compared.run.results.find((r) => r.variantId === id)!);
    expect(baseline!.rounds.map((r) => r.round)).toEqual([0, 1, 2, 3]);
    expect(candidate!.rounds.map((r) => r.round)).toEqual([0, 1, 2, 3]);
    const coresOf = (rounds: RunRecord['results'][number]['rounds']): number[] => rounds.map((r) => duetOf(r)!.core);
    expect(baseline!.rounds.map((r) => duetOf(r)?.partner)).toEqual(['bun', 'bun', 'bun', 'bun']);
    expect(candidate!.rounds.map((r) => duetOf(r)?.partner)).toEqual(['node', 'node', 'node', 'node']);
    coresOf(baseline!.rounds).forEach((core, i) => expect(core).not.toBe(coresOf(candidate!.rounds)[i]));
    expect(coresOf(baseline!.rounds)[0]).not.toBe(coresOf(baseline!.rounds)[1]);
    baseline!.rounds.forEach((b, i) => {
      const c = candidate!.rounds[i]!;
      // One window per sample: both arms were asked together every time (position 0), as often.
      expect(b.samples.length).toBe(c.samples.length);
      expect(lockstepOf(b)!.positions.every((p) => p === 0)).toBe(true);
      // Read from outside: the CPU time each process ran over its set.
      expect(lockstepOf(b)!.processCpuUs).toBeGreaterThan(0);
    });
  });

  it('counts --rounds per arm: with three arms, two rounds give each of the others its one pair with the baseline', () => {
    expect(threeArms.cli.status, threeArms.cli.stderr).toBe(0);
    expect(threeArms.run.options.rounds).toBe(2);
    const partners = (id: string): (string | undefined)[] => threeArms.run.results.find((r) => r.variantId === id)!.rounds.map((r) => duetOf(r)?.partner);
    expect(partners('node')).toEqual(['bun', 'node@24']);
    expect(partners('bun')).toEqual(['node']);
    expect(partners('node@24')).toEqual(['node']);
  });

  it('compare reads the saved run: its paired ratio is the mean of the rounds\' window ratios', async () => {
    const r = await runCliAsync(['compare', compared.file, '--format', 'json']);
    expect(r.status, r.stderr).toBe(0);
    const view = JSON.parse(r.stdout) as ComparisonView;
    expect(view.pairing).toBe('paired');
    const row = view.sections[0]!.cases[0]!;
    const [baseline, candidate] = ['node', 'bun'].map((id) => compared.run.results.find((x) => x.variantId === id)!.rounds);
    // Each round's window ratio as stats' pairing reads it (turn by turn, or by means where samples stayed bimodal by collection).
    const pairs = pairRounds(baseline!.map(pairable), candidate!.map(pairable));
    expect(pairs.rounds).toHaveLength(baseline!.length);
    const logs = pairs.baseline.map((b, i) => Math.log(pairs.candidate[i]! / b));
    const mean = logs.reduce((s, x) => s + x, 0) / logs.length;
    expect(row.comparison!.ratio).toBeCloseTo(Math.exp(mean), 9);
    expect(row.comparison!.ci[0]).toBeLessThan(row.comparison!.ratio);
  });

  it("refuses a set whose figures are shrunk on their way out, by the CPU time the kernel counted, and keeps its partner's", () => {
    expect(forged.cli.status).toBe(1);
    const [node, bun] = forged.run.results;
    expect(node!.status).toBe('failed');
    for (const f of node!.failures) expect(f.message).toMatch(/^node: its exchanges, as the process timed them, account for [\d.]+% of the CPU time the main thread of its process ran over the set/);
    expect(bun!.status, forged.cli.stderr).toBe('ok');
  });

  it('is refused in one line, before anything starts, where rtbench may use one core', () => {
    const r = spawnSync('taskset', ['-c', '0', process.execPath, ...cliArgv(['bench', fixture('tiny'), '--runtime', 'node,bun', '--schedule', 'duet'])], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual(['error: --schedule duet runs two arms at once, one per core, and rtbench may use one core here (CPU 0): use --schedule lockstep']);
    expect(r.stdout).toBe('');
  });
});
