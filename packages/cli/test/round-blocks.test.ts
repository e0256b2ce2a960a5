/**
 * What a round holds beyond the fields every round has is its measurer's own
 * blocks: the measurer's descriptor declares each (record.rounds) and loading
 * validates it through the registry. Runs saved while core's schema named
 * the blocks re-report byte for byte: the fixtures hold rtbench's reports of
 * them from before, as text and as markdown (an HTTP load run, and a duet
 * comparison made from a tracked lockstep one).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSavedRun } from '@rtbench/saved-runs';
import { loadOf } from '../../measurer-records/src/index.ts';
import { repoRoot } from '../../../test/helpers/cli.ts';
import { reportCommand } from '../src/commands/report.ts';
import { UsageError } from '../src/errors.ts';

const BEFORE = join(import.meta.dirname, 'fixtures', 'reports-before-round-blocks');
const dir = mkdtempSync(join(tmpdir(), 'rtbench-round-blocks-'));

type Json = { options: Record<string, unknown>; results: { rounds: Record<string, unknown>[] }[] };

/** A tracked lockstep comparison as a duet saves it: each round's process pinned to a core, beside its partner; `edit` changes a round. */
function duetFile(name: string, edit: (round: Record<string, unknown>) => void = () => {}): string {
  const run = JSON.parse(readFileSync(join(repoRoot, 'results', '20261126-222202Z-ssr-compare.json'), 'utf8')) as Json;
  run.options.measurer = 'duet';
  delete run.options.measurerFields;
  for (const [r, result] of run.results.entries()) {
    for (const round of result.rounds) {
      round.duet = { core: (round.round as number) % 2, ...(r % 2 ? { partner: 'node' } : {}) };
      edit(round);
    }
  }
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(run));
  return file;
}

describe("a round's own blocks", () => {
  const runs = { 'http-hello': join(repoRoot, 'results', '20261127-023253Z-http-hello.json'), duet: duetFile('duet') };
  for (const [name, file] of Object.entries(runs)) {
    it(`${name} re-reports byte for byte, as text and as markdown`, async () => {
      for (const [format, ext] of [[undefined, 'txt'], ['markdown', 'md']] as const) {
        const out = join(dir, `${name}.${ext}`);
        await reportCommand(file, { ...(format ? { format } : {}), output: out, quiet: true });
        expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(BEFORE, `${name}.${ext}`), 'utf8'));
      }
    });
  }

  it("load as the measurer's descriptor declares them: a duet's kept, one it does not declare dropped", () => {
    const rounds = loadSavedRun(runs.duet).run.results.map((r) => r.rounds);
    expect(rounds[1]![0]!.duet).toEqual({ core: (rounds[1]![0]!.round) % 2, partner: 'node' });
    const stray = loadSavedRun(duetFile('stray', (round) => (round.stray = { any: 1 }))).run;
    expect(stray.results.every((r) => r.rounds.every((x) => !('stray' in x) && x.duet !== undefined))).toBe(true);
  });

  it('a block that is not its measurer\'s shape is refused in one line', () => {
    const file = duetFile('bad-core', (round) => (round.duet = { core: -1 }));
    expect(() => loadSavedRun(file)).toThrow(UsageError);
    expect(() => loadSavedRun(file)).toThrow(/bad-core\.json is not a valid rtbench run: a round's duet does not match what duet records: .* at results\.0\.rounds\.0\.duet\.core$/);
  });

  it("a load round's block is host-timed's, read with its type and refused in one line when it is not its shape", () => {
    const run = JSON.parse(readFileSync(runs['http-hello'], 'utf8')) as Json;
    expect(loadOf(loadSavedRun(runs['http-hello']).run.results[0]!.rounds[0]!)).toEqual(run.results[0]!.rounds[0]!.load);
    (run.results[0]!.rounds[0]!.load as { generator: string }).generator = 'ab';
    const file = join(dir, 'bad-generator.json');
    writeFileSync(file, JSON.stringify(run));
    expect(() => loadSavedRun(file)).toThrow(/bad-generator\.json is not a valid rtbench run: a round's load does not match what host-timed records: .* at results\.0\.rounds\.0\.load\.generator$/);
  });
});
