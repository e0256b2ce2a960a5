/**
 * `rtbench claims` end to end, on all four runtimes (node, deno, bun,
 * workerd): a claims run checks a false claim ("eight times the work takes
 * the same time as once") on each of them and a claim that a variant beats
 * itself against a second process of it, saves the outcomes with its runs,
 * exits as its words say, and `rtbench report` shows them; a request case's
 * claim, undecided on the first sets, gets more processes (on node). The run
 * on four runtimes is a smoke run (three process pairs, `--fixed-warmup`):
 * it asserts how each check was decided (from its processes, the second
 * process of the variant for the A/A check), never a word that rests on
 * sampled figures. The words are the decision's, on synthetic runs
 * (packages/cli/test/claims-views.test.ts: eight times the work is broken,
 * a variant never holds being faster than itself; how often a real run could
 * hold it: scripts/measure/claims/claims-self.ts). --across, end to end, over a package's
 * versions: test/claims-across-versions.test.ts (over runtime releases, the
 * matrix, its flips and their bisect commands:
 * packages/cli/test/claims-views.test.ts). Bad input (one line, exit 2) is
 * refused in the test's own process: packages/cli/test/usage-probed.test.ts.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { fixture, runCliAsync as runCli, tempFile } from './helpers/cli.ts';

/**
 * Three process pairs (the fewest an interval takes), each warmed a fixed 5 ms: no assertion reads a word that
 * rests on the figures, so none waits for a watched warmup (the watched run took three times the CPU).
 */
const TINY = ['--rounds', '3', '--max-rounds', '3', '--time', '5ms', '--warmup', '5ms', '--fixed-warmup'];
const RUNTIMES = ['node', 'deno', 'bun', 'workerd'];
type Outcome = { says: string; subject: { variantId: string }; other: { variantId: string }; word: 'held' | 'broken' | 'undecided'; units: number; interval?: [number, number] };

/**
 * A check's units: its three processes (pairs), and an interval over them. workerd's clock reads whole
 * milliseconds: a process whose batches a loaded machine's pause sized small can read 0 there, leaving its pair no
 * ratio (two units once, at load 16), and then no interval; the other runtimes' clocks read nanoseconds.
 */
function expectUnits(o: Outcome): void {
  const runtime = o.subject.variantId;
  if (runtime === 'workerd') expect([1, 2, 3], runtime).toContain(o.units);
  else expect(o.units, runtime).toBe(3);
  expect(o.interval !== undefined, runtime).toBe(o.units >= 3);
}

describe.concurrent('rtbench claims', () => {
  it('checks "eight times the work takes the same time" on all four runtimes and "5% faster than itself" against a second process, saves, exits and reports as decided', async () => {
    const dir = mkdtempSync(tempFile('claims-'));
    const r = await runCli(['claims', fixture('claims'), ...TINY, '--save', dir, '--format', 'json', '--quiet']);
    expect(r.stderr).not.toMatch(/error/);
    const view = JSON.parse(r.stdout) as { outcomes: Outcome[] };
    const eight = view.outcomes.filter((o) => o.says.startsWith('eight times'));
    expect(eight.map((o) => o.subject.variantId).sort()).toEqual([...RUNTIMES].sort());
    for (const o of eight) {
      // Decided from its three processes (each served both cases), with an interval over them. Noise only widens an
      // interval, so eight times the work can read broken or undecided, never the same: held would mean the case's
      // work went unmeasured.
      expectUnits(o);
      expect(['broken', 'undecided'], o.subject.variantId).toContain(o.word);
    }
    const self = view.outcomes.filter((o) => o.says.includes('than itself'));
    expect(self.map((o) => `${o.subject.variantId}|${o.other.variantId}`).sort()).toEqual(RUNTIMES.map((v) => `${v}|${v} #2`).sort());
    // Each decided from the pairs of its two processes (that it never holds is a property of the decision, asserted on
    // synthetic A/A runs: packages/cli/test/claims-views.test.ts; a run here could hold it at random, rarely).
    for (const o of self) expectUnits(o);
    // The exit says the words: 1 when a claim broke, 3 when none broke and some stayed undecided, 0 when all held.
    const count = (word: Outcome['word']): number => view.outcomes.filter((o) => o.word === word).length;
    expect(r.status).toBe(count('broken') > 0 ? 1 : count('undecided') > 0 ? 3 : 0);
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    const saved = files.map((f) => parseRun(JSON.parse(readFileSync(join(dir, f), 'utf8')), f));
    expect(saved.flatMap((s) => s.claims?.outcomes.map((o) => o.word) ?? []).sort()).toEqual(view.outcomes.map((o) => o.word).sort());
    // --fixed-warmup reached every run (a fixed warmup records no floor), and the folder's question keeps it.
    for (const s of saved) expect({ warmupMs: s.options.warmupMs, warmupMinMs: s.options.warmupMinMs }).toEqual({ warmupMs: 5, warmupMinMs: undefined });
    expect((JSON.parse(readFileSync(join(dir, 'claims.state'), 'utf8')) as { identity: { warmup: string } }).identity.warmup).toBe('5ms fixed');
    const report = await runCli(['report', dir, '--format', 'markdown']);
    expect(report.status).toBe(0);
    expect(report.stdout).toContain(`rtbench claims: ${count('held')} held, ${count('broken')} broken, ${count('undecided')} undecided`);
    expect(report.stdout).toContain('eight times the work takes the same time as once');
  });

  it('adds process sets to a request case while its claim is undecided, and saves the outcome with them', async () => {
    const dir = mkdtempSync(tempFile('claims-request-'));
    // Two sets give no interval (it needs three processes): the claim is undecided until a set is added.
    const r = await runCli(['claims', fixture('request-claims'), '--rounds', '2', '--max-rounds', '5', '--save', dir]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/set 3 \(added: a check is undecided\)/);
    expect(r.stdout).toMatch(/held\s+node: heavy vs light: [\d.]+× slower/);
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(1);
    const run = parseRun(JSON.parse(readFileSync(join(dir, files[0]!), 'utf8')), files[0]!);
    expect(run.options.adaptive).toMatchObject({ minRounds: 2, maxRounds: 5 });
    const judged = run.results.filter((x) => x.variantId === 'node');
    expect(judged.map((x) => x.caseId).sort()).toEqual(['heavy [cpu=js thread]', 'light [cpu=js thread]']);
    // Each added set is a fresh server per case: three or more processes, each with its own requests.
    for (const x of judged) {
      expect(x.rounds.length, x.caseId).toBeGreaterThanOrEqual(3);
      expect(new Set(x.rounds.map((round) => round.round)).size, x.caseId).toBe(x.rounds.length);
    }
    expect(run.claims?.outcomes.map((o) => o.word)).toEqual(['held']);
  });
});
