/**
 * `bench --compare` run as a user would (real processes), and its saved run
 * compared again by `rtbench compare`. Saved runs compared (a run's variants
 * as a table too), and bad variants refused, in the test's own process:
 * packages/cli/test/compare-saved.test.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import type { ComparisonView } from '@rtbench/report';
import { fixture, runCliAsync as runCli, tempFile } from './helpers/cli.ts';

describe.concurrent('bench --compare on the tiny fixture (node@24 vs node@26)', () => {
  it('runs the arms interleaved in a balanced order and gives a comparison per case', async () => {
    const out = tempFile('cmp.json');
    const r = await runCli([
      'bench', fixture('tiny'), '--compare', 'node@24', 'node@26',
      '--rounds', '4', '--time', '30ms', '--warmup', '10ms', '--fixed-warmup', '--save', out, '--quiet', '--format', 'json',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as ComparisonView;
    expect(report.pairing).toBe('paired');
    expect(report.arms.map((arm) => arm.id)).toEqual(['node@24', 'node@26']);
    expect(report.arms[1]!.engineVersion).toMatch(/^14\.6\./);
    expect(report.arms[0]!.binarySha256).toMatch(/^[0-9a-f]{64}$/);
    const rows = report.sections[0]!.cases;
    expect(rows.map((row) => row.caseId)).toEqual(['math / sum [n=200]', 'math / sum [n=1600]', 'async resolve', 'runtime facts']);
    for (const row of rows) {
      expect(row.comparison, row.note).toBeDefined();
      expect(row.comparison!.n).toBe(4);
      expect(['faster', 'slower', 'equivalent', 'inconclusive']).toContain(row.comparison!.verdict);
      expect(row.comparison!.ci[0]).toBeLessThanOrEqual(row.comparison!.ratio);
      expect(row.comparison!.qValue).toBeGreaterThanOrEqual(row.comparison!.pValue);
    }

    const run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
    expect(run.mode).toBe('compare');
    expect(run.options.order).toMatch(/^balanced/);
    for (const res of run.results) {
      // every arm ran first in exactly half of the rounds
      expect(res.rounds.filter((x) => x.order === 0)).toHaveLength(2);
    }

    // the saved run gives the same verdicts again, as a table
    const again = await runCli(['compare', out, '--format', 'json']);
    expect(again.status, again.stderr).toBe(0);
    const replay = JSON.parse(again.stdout) as ComparisonView;
    expect(replay.sections[0]!.cases.map((row) => row.comparison!.verdict)).toEqual(rows.map((row) => row.comparison!.verdict));
    // The same run as a table: packages/cli/test/compare-saved.test.ts, on a saved run of two variants.
  });
});
