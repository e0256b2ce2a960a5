/**
 * A measurer with a field in every round, added as one file
 * (run's test fixture host-span-measurer.ts) and one entry in a registry,
 * measures a suite on node through the run: its field is in every round of
 * the saved run, validated on load by the registry that has it, and the
 * report shows what its record says of it. One run (two node processes)
 * serves every assertion.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { parseVariant, resolveVariant } from '../../arms/src/variants.ts';
import { MeasurerRegistry, MEASURERS } from '../../measurers/src/index.ts';
import { reporterFor, viewOfRun } from '../../report/src/index.ts';
import { executeRun } from '../../run/src/index.ts';
import { hostSpanMeasurer, hostSpanNote } from '../../run/test/fixtures/host-span-measurer.ts';
import { loadSavedRun, writeRunAtomically } from '../../saved-runs/src/index.ts';
import { loadSuite, locateSuite } from '../../suite-loader/src/index.ts';
import { repoRoot } from '../../../test/helpers/cli.ts';

const HOST_SPAN = hostSpanMeasurer();
/** rtbench's measurers and one more entry: the fixture's. */
const registry = new MeasurerRegistry([...MEASURERS.every(), HOST_SPAN]);

let dir: string;
let run: RunRecord;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rtbench-measurer-on-node-'));
  const location = locateSuite(join(repoRoot, 'test/fixtures/tiny/index.ts'));
  const { cases } = await loadSuite(location);
  const one = cases.filter((c) => c.name === 'async resolve').map(({ id, name, params }) => ({ id, name, params: { ...params } }));
  run = await executeRun(
    {
      suite: { ...location, cases: one },
      variants: [await resolveVariant(parseVariant('node'))],
      options: { timeMs: 20, warmupMs: 10, timeoutMs: 60_000, seed: 1, mode: 'bench', roundPlan: { order: 'shuffled', rounds: 2 }, measurer: HOST_SPAN, command: [] },
      environment: { binaryGit: () => undefined, programDir: dir },
    },
    { save: () => {} },
  );
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a measurer with a round field, added as one file and one registry entry', () => {
  it('measures on node and keeps its field in every round of the saved run', () => {
    expect(run.status).toBe('complete');
    expect(run.options.measurer).toBe('host-span');
    const rounds = run.results[0]!.rounds;
    expect(rounds).toHaveLength(2);
    for (const round of rounds) {
      expect(round.samples.length).toBeGreaterThan(0);
      expect((round.hostSpan as { ms: number }).ms).toBeGreaterThan(0);
    }
  });

  it('is validated on load by the registry that has it, and refused when its field is not its shape', () => {
    const file = join(dir, 'host-span.json');
    writeRunAtomically(file, run);
    expect(loadSavedRun(file, registry.records).run.results[0]!.rounds.map((r) => r.hostSpan)).toEqual(run.results[0]!.rounds.map((r) => r.hostSpan));
    const bad = join(dir, 'bad.json');
    writeRunAtomically(bad, { ...run, results: run.results.map((r) => ({ ...r, rounds: r.rounds.map((x) => ({ ...x, hostSpan: { ms: -1 } })) })) });
    expect(() => loadSavedRun(bad, registry.records)).toThrow(/a round's hostSpan does not match what host-span records: .* at results\.0\.rounds\.0\.hostSpan\.ms$/);
  });

  it('is shown by the report in its words, its round field among them', () => {
    const saved = loadSavedRun(join(dir, 'host-span.json'), registry.records);
    const longest = Math.ceil(Math.max(...run.results[0]!.rounds.map((r) => (r.hostSpan as { ms: number }).ms)));
    expect(saved.notes).toContain(hostSpanNote(longest));
    const markdown = reporterFor('markdown')!.render(viewOfRun(saved.run, { notes: saved.notes! }), { color: false, columns: 100 });
    expect(markdown).toContain(hostSpanNote(longest));
    expect(markdown).toContain('Each of the 2 rounds runs every arm in a fresh process, its span on the host kept');
  });
});
