/**
 * A measurer added as one file (fixtures/scripted-measurer.ts) runs through
 * the whole run with no change anywhere else: the run builds it, records how
 * it described itself, and a report prints that description.
 */
import { describe, expect, it } from 'vitest';
import { benchView, reporterFor } from '../../report/src/index.ts';
import { executeRun } from '../src/index.ts';
import { scriptedMeasurer, scriptedVariant as variant } from './fixtures/scripted-measurer.ts';


describe('a measurer added as one file', () => {
  it('is built, run through the loop, described in the saved run, and its words printed by the report', async () => {
    const measurer = scriptedMeasurer({ base: 1000, fast: 500 });
    const saved: number[] = [];
    const run = await executeRun(
      {
        suite: { name: 'scripted', entry: '/nowhere/suite.ts', cases: [{ id: 'one', name: 'one', params: {} }] } as never,
        variants: [variant('base'), variant('fast')],
        options: { timeMs: 30, warmupMs: 0, timeoutMs: 1000, seed: 1, mode: 'bench', roundPlan: { order: 'shuffled', rounds: 4 }, measurer, command: [] },
        environment: { binaryGit: () => undefined, programDir: '/nowhere' },
      },
      { save: (r) => saved.push(r.results.length) },
    );
    expect(run.status).toBe('complete');
    expect(run.results.map((r) => r.rounds.length)).toEqual([4, 4]);
    expect(run.suiteCode).toEqual([{ runtime: 'node', sha256: 'scripted' }]);
    expect(run.options.measuredBy?.rounds).toBe('each of the 4 rounds reads every arm\'s samples from a script');
    const view = benchView(run);
    expect(view.cases[0]!.rows[1]!.relative?.verdict).toBe('faster');
    const explained = reporterFor('terminal')!.render(view, { color: false, columns: 100, explain: true });
    expect(explained).toContain('median: the scripted samples; 95% CI: none needed');
    expect(reporterFor('markdown')!.render(view, { color: false, columns: 100 })).toContain("Each of the 4 rounds reads every arm's samples from a script");
  });
});
