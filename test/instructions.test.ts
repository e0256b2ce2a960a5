/**
 * Instruction counts (--measure instructions) on the four real runtimes
 * under valgrind's callgrind, the counter read around samples of one live
 * process. valgrind is installed from Debian's packages
 * by the test set-up when it is missing (test/helpers/install-programs.ts). No assertion is on time.
 * How a count run stops short (a signal, a refusal, no valgrind): instructions-stops.test.ts, a file of its
 * own so that it runs on the other worker, beside this one or after the files it shares the cores with.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { countsOf } from '../packages/measurer-records/src/index.ts';
import { program } from './helpers/system-programs.ts';
import { fixture, runCliAsync, tempFile } from './helpers/cli.ts';

let valgrind: string;

beforeAll(async () => {
  valgrind = await program('valgrind');
});

/**
 * A count run of the tiny suite's sums (both, or the one `filter` picks); its saved run and CSV. A smoke run
 * (--fixed-warmup): a tenth of the warm-up and samples of ~1 M instructions (packages/measurers/test/instructions-smoke.test.ts),
 * the same arithmetic and the same record as a measuring run's, at less of valgrind's time.
 */
async function countRun(runtimes: string, rounds: number, filter = '/sum/'): Promise<{ run: RunRecord; csv: string }> {
  const out = tempFile('run.json');
  const r = await runCliAsync(['bench', fixture('tiny'), '--filter', filter, '--runtime', runtimes, '--measure', 'instructions', '--fixed-warmup', '--rounds', String(rounds), '--save', out, '--quiet', '--format', 'csv'], { RTBENCH_VALGRIND: valgrind });
  expect(r.status, r.stderr).toBe(0);
  return { run: parseRun(JSON.parse(readFileSync(out, 'utf8')), out), csv: r.stdout };
}

/** Every round's counts: one process per runtime and round served the run's cases, its window and the functions it recorded. */
function expectCounts(run: RunRecord, rounds: number, cases: number): void {
  expect(run.options.measurer).toBe('instructions');
  expect(run.options.measurerFields).toMatchObject({ smoke: true });
  expect(run.cases[0]!.metric).toMatchObject({ unit: 'instructions', direction: 'lower-is-better' });
  const sums = run.cases.map((c) => c.id);
  expect(sums).toHaveLength(cases);
  for (const res of run.results) {
    expect(res.status, `${res.variantId}: ${JSON.stringify(res.failures)}`).toBe('ok');
    expect(res.rounds).toHaveLength(rounds);
    const [a, b] = res.rounds.map((x) => x.samples[0]!);
    // A sum of 200 or 1600 terms: hundreds to tens of thousands of instructions per call, never zero.
    expect(a).toBeGreaterThan(200);
    // Two rounds, one process per round: the count per call repeats (a window counting the wrong calls or process
    // is off by multiples). Within 5%: on a loaded machine workerd's 200-term sum, a few thousand instructions, once
    // read 2.4% apart, its compiler threads finishing at another point under valgrind's serialised threads; the
    // precision itself is scripts/measure/instructions/instruction-targets.ts's figure.
    if (b !== undefined) expect(Math.abs(b / a! - 1), `${res.variantId}: ${a} vs ${b}`).toBeLessThan(0.05);
    for (const round of res.rounds) {
      const counts = countsOf(round)!;
      // One process per runtime and round served both cases, in the plan's order in every round.
      expect(counts.servedBefore).toBe(sums.indexOf(res.caseId));
      // A window of five samples of n calls, then three of none (a sample's own cost), after at least two steady ones.
      const d = counts.dumps!;
      const n = round.iterationsPerSample;
      expect(d.map(([calls]) => calls)).toEqual([n, n, n, n, n, 0, 0, 0]);
      // A smoke run's samples were sized to ~1 M instructions (a measuring run's: ~10 M); the sizing sample is counted
      // before the count settles, so a sample may hold several times that when the engine tiers up after it. One
      // window sample alone may hold much more: a dump holds the wait before its sample too, and what the engine's other
      // threads ran in it (12 M once, at load 4), which is why the count takes the least; the least holds the sizing.
      expect(Math.min(...d.slice(0, 5).map(([, instructions]) => instructions)), `${res.variantId}: ${JSON.stringify(d)}`).toBeLessThan(4e6);
      expect(counts.settle!.length).toBeGreaterThanOrEqual(2);
      // The count is the smallest window sample less the smallest empty one, over n.
      const least = (xs: number[]): number => Math.min(...xs);
      expect(round.samples[0]).toBeCloseTo((least(d.slice(0, 5).map(([, i]) => i)) - least(d.slice(5).map(([, i]) => i))) / n, 6);
      expect(counts.iterations).toEqual([0, n]);
      // The first round records the counted sample's functions, by their own instructions per call, largest first:
      // most of the count, never more.
      if (round.round !== res.rounds[0]!.round) {
        expect(counts.functions).toBeUndefined();
        continue;
      }
      const functions = counts.functions!;
      expect(functions.length).toBeGreaterThan(0);
      expect(functions.map(([, perCall]) => perCall)).toEqual(functions.map(([, perCall]) => perCall).sort((x, y) => y - x));
      const recorded = functions.reduce((sum, [, perCall]) => sum + perCall, 0);
      const sample = least(d.slice(0, 5).map(([, i]) => i)) / n;
      expect(recorded).toBeLessThanOrEqual(sample * (1 + 1e-9));
      expect(recorded, `${res.variantId}: ${recorded} of ${sample} per call recorded`).toBeGreaterThan(0.5 * sample);
    }
  }
  expect(run.digestMismatches).toEqual([]);
}

describe('--measure instructions', () => {
  // Five processes under valgrind, not eight: every runtime counts in one round, and node's two rounds show the count
  // repeating from one process to the next and a later round's record (the window and the order of cases are the
  // host's and the harness's, the same code on every runtime). node's process serves both sums; the others count one
  // (a case under valgrind costs each ~1.6 CPU-s): that each runtime's process serves several cases in turn is
  // lockstep.test.ts's, on the four runtimes.
  it('counts instructions per operation on node, deno, bun and workerd, one process per runtime and round serving the cases in turn, the same in every round', async () => {
    const [twice, once] = await Promise.all([countRun('node', 2), countRun('deno,bun,workerd', 1, 'n=200')]);
    expectCounts(twice.run, 2, 2);
    expect(twice.run.results.map((x) => x.variantId)).toEqual(['node', 'node']);
    expectCounts(once.run, 1, 1);
    expect(once.run.results.map((x) => x.variantId).sort()).toEqual(['bun', 'deno', 'workerd']);
    // JavaScriptCore counts with the OS randomness fixed (packages/host fixed-random.ts), built with the system's C compiler.
    expect((once.run.options.measurerFields as { engineFlags: Record<string, string[]> }).engineFlags.jsc!.some((f) => f.startsWith('LD_PRELOAD=fixed-random'))).toBe(true);
    // The CSV names the measure and its unit: counts never sit in a time column.
    for (const { csv } of [twice, once]) expect(csv.split('\n')[1]).toContain(',instructions per operation,instructions,');
    // The limit guards against a hang, not a slow machine.
  }, 900_000);
});
