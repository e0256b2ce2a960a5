/**
 * `rtbench claims` end to end, on all four runtimes (node, deno, bun,
 * workerd): a false claim breaks on every one of them and a claim that a
 * variant beats itself is checked against a second process of it (that it
 * does not hold is the decision's, on synthetic A/A runs:
 * packages/cli/test/claims-views.test.ts; how often a real run could hold
 * it: scripts/claims-self.ts); the saved runs carry the outcomes and
 * `rtbench report` shows them; a request case's claim, undecided on the
 * first sets, gets more processes (on node). --across, end to end, over a
 * package's versions: test/claims-across-versions.test.ts (over runtime
 * releases, the matrix, its flips and their bisect commands:
 * packages/cli/test/claims-views.test.ts). Bad input (one line, exit 2) is
 * refused in the test's own process: packages/cli/test/usage-probed.test.ts.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { fixture, runCliAsync as runCli, tempFile } from './helpers/cli.ts';

// Six independent process pairs at least, and an 8× difference: on a loaded machine one slow workerd process
// (a real, occasional process effect) once left a 2× difference's interval too wide to break the claim; 8× is
// three times as far from the band on the log scale.
const TINY = ['--rounds', '6', '--max-rounds', '8', '--time', '30ms', '--warmup', '20ms'];
const RUNTIMES = ['node', 'deno', 'bun', 'workerd'];

describe.concurrent('rtbench claims', () => {
  it('breaks "eight times the work takes the same time" on all four runtimes, never holds "5% faster than itself", saves and reports them', async () => {
    const dir = mkdtempSync(tempFile('claims-'));
    const r = await runCli(['claims', fixture('claims'), ...TINY, '--save', dir, '--format', 'json', '--quiet']);
    expect(r.stderr).not.toMatch(/error/);
    expect(r.status).toBe(1); // a claim broke
    const view = JSON.parse(r.stdout) as { outcomes: { says: string; subject: { variantId: string }; other: { variantId: string }; word: string; units: number; interval?: [number, number] }[] };
    const eight = view.outcomes.filter((o) => o.says.startsWith('eight times'));
    expect(eight.map((o) => o.subject.variantId).sort()).toEqual([...RUNTIMES].sort());
    for (const o of eight) expect(o.word, o.subject.variantId).toBe('broken');
    const self = view.outcomes.filter((o) => o.says.includes('than itself'));
    expect(self.map((o) => `${o.subject.variantId}|${o.other.variantId}`).sort()).toEqual(RUNTIMES.map((v) => `${v}|${v} #2`).sort());
    // Each decided from the pairs of its two processes (that it never holds is a property of the decision, asserted on
    // synthetic A/A runs: packages/cli/test/claims-views.test.ts; a run here could hold it at random, rarely).
    for (const o of self) expect(o.units, o.subject.variantId).toBeGreaterThanOrEqual(3);
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    const saved = files.map((f) => parseRun(JSON.parse(readFileSync(join(dir, f), 'utf8')), f));
    expect(saved.flatMap((s) => s.claims?.outcomes ?? [])).toHaveLength(8);
    const report = await runCli(['report', dir, '--format', 'markdown']);
    expect(report.status).toBe(0);
    expect(report.stdout).toContain('eight times the work takes the same time as once');
    expect(report.stdout).toMatch(/❌ broken/);
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

  it('the fixtures run on all four runtimes (the flip fixture\'s claim is about node releases, its case is plain JavaScript)', async () => {
    const r = await runCli(['bench', fixture('claims-flip'), '--runtime', RUNTIMES.join(','), '--rounds', '1', '--time', '10ms', '--warmup', '10ms', '--fixed-warmup', '--quiet', '--save', tempFile('flip-run.json')]);
    expect(r.status).toBe(0);
    for (const v of RUNTIMES) expect(r.stdout).toContain(v);
  });
});
