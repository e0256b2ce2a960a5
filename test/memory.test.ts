/**
 * The memory view end to end, on each runtime: the host reads every
 * process's resident memory alike, so a case that holds 64 MB reads far above
 * one that holds nothing, a case that keeps memory on every call gets the
 * leak mark at the default time and warmup (three rounds, read together)
 * where the runtime says what it held and a steady one that allocates and
 * keeps nothing never does (judged from
 * readings after collections every runtime forced), what a runtime does not
 * tell reads n/a,
 * and `--metrics memory` prints it. No assertion is on time.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRun, type RunRecord } from '@rtbench/core/schema';
import { fixture, runCliAsync, tempFile, type CliResult } from './helpers/cli.ts';

const RUNTIMES = ['node', 'deno', 'bun', 'workerd'] as const;
const MiB = 1024 * 1024;

describe.skipIf(process.platform !== 'linux')('memory view on every runtime', () => {
  let cli: CliResult;
  let run: RunRecord;
  let held: RunRecord;
  beforeAll(async () => {
    const out = tempFile('memory.json');
    const heldOut = tempFile('memory-held.json');
    // The two runs side by side: each reads its own processes' memory, which the other's do not change, and each
    // samples one process at a time (about a core).
    // The leak run is at the default time and warmup, as a user first meets the mark, in the three rounds the rounds
    // read together need at least (the default starts with six, and adaptive went on to 25 for the 2% target, eight
    // times the CPU, and marked the same): rounds of 8–32 samples, each too short to be marked alone, read together
    // where the engine says what it held (a leak of 16 KB a call held 16.5–17 KiB a call in every round on node, deno
    // and bun, steady cases at most 0.9 KiB; a round needs 2 KiB a call and 128 KiB, and all of them together half of
    // what the resident set kept: on a slow machine's few calls a round, bun's own resident growth outweighed 16 KB a
    // call, so the leak here keeps 64 KB); workerd, which cannot say, reads unknown rather than
    // "no". The steady case beside it allocates 4 KB a call and keeps none, which a case that holds nothing only
    // repeats more easily (it added a third to the run's CPU). The rule on planted rounds: packages/verdicts/test/memory-growth.test.ts. The case
    // that holds 64 MB runs apart: memory a leaking case kept and gave back at its teardown stays in the allocator, and
    // a case after it in the same process reuses that before its resident set grows.
    let heldCli: CliResult;
    [cli, heldCli] = await Promise.all([
      runCliAsync(['bench', fixture('memory'), '--runtime', RUNTIMES.join(','), '--filter', 'keeps 64 KB,drops', '--rounds', '3', '--save', out, '--metrics', 'memory', '--quiet']),
      // What a case holds is written as it opens, whatever the samples' time: one short round with a fixed warmup.
      runCliAsync(['bench', fixture('memory'), '--runtime', RUNTIMES.join(','), '--filter', 'holds', '--time', '10ms', '--rounds', '1', '--warmup', '10ms', '--fixed-warmup', '--save', heldOut, '--quiet']),
    ]);
    expect(cli.status, cli.stderr).toBe(0);
    expect(heldCli.status, heldCli.stderr).toBe(0);
    run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
    held = parseRun(JSON.parse(readFileSync(heldOut, 'utf8')), heldOut);
  }, 500_000);
  const resultOf = (caseId: string, runtime: string, from = run) => from.results.find((r) => r.caseId === caseId && r.variantId === runtime);

  it('runs and prints the memory view', () => {
    expect(cli.status, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/variant +peak RSS +case added +heap held +off-heap +RSS grew +kept growing\n +while open +at peak +at end +at end +per call +every round\n/);
    expect(cli.stdout).toMatch(/LEAK \+[\d.]+ KB\/call held/);
  });

  it.each(RUNTIMES)('%s: 64 MB held reads far above the empty case', (runtime) => {
    const big = resultOf('holds 64 MB', runtime, held)?.memory;
    const empty = resultOf('holds nothing', runtime, held)?.memory;
    expect(big, runtime).toBeDefined();
    expect(empty, runtime).toBeDefined();
    // Its peak rose by the 64 MiB it wrote over what the process held as it opened (the peak is reset as each case
    // opens), whichever case the warm process served first.
    for (const round of resultOf('holds 64 MB', runtime, held)!.rounds) expect(round.memory!.peakBytes - round.memory!.openBytes).toBeGreaterThan(56 * MiB);
    // A process's first case opens after the runtime's hello, so its peak is not the runtime's start-up; it still pays
    // the runtime's first growth in a case (a few MB, under 16 MB here), which the margin holds whichever case came first.
    expect(big!.peakAboveOpenBytes - empty!.peakAboveOpenBytes).toBeGreaterThan(32 * MiB);
    // Every round saved its readings: one per sample. This run did not ask for the memory view, so no process
    // collected between warmup and its first sample: the samples ran on the heap the warmup left.
    for (const round of resultOf('holds 64 MB', runtime, held)!.rounds) {
      expect(round.memory?.sampleBytes.length).toBe(round.samples.length);
      expect(round.memory?.collected).toBeUndefined();
    }
    expect(held.options.measurerFields?.collectBeforeSampling).toBeUndefined();
    expect(run.options.measurerFields?.collectBeforeSampling).toBe(true);
  });

  /** What a case's rounds read, for a failure's message. */
  const readings = (caseId: string, runtime: string): string =>
    JSON.stringify(resultOf(caseId, runtime)?.rounds.map((r) => r.memory && { ...r.memory, sampleBytes: r.memory.sampleBytes.filter((_, i, all) => i % Math.ceil(all.length / 12) === 0) }));

  it.each(RUNTIMES)('%s: at the default time and warmup the leak is marked where the runtime says what it held, the steady cases never', (runtime) => {
    // Asked for the memory view, every runtime forced a full collection before the first sample and after the last (V8
    // ones under --expose-gc, which lockstep gives them), so the rule judged what the process kept, not its garbage.
    for (const caseId of ['keeps 64 KB per call', 'drops 4 KB per call']) for (const round of resultOf(caseId, runtime)!.rounds) expect(round.memory?.collected, caseId).toBe(true);
    const leaking = resultOf('keeps 64 KB per call', runtime)!;
    const says = leaking.rounds.every((r) => r.metrics?.heap?.heldEndBytes !== undefined);
    expect(says, 'node, deno and bun say what they held; workerd does not').toBe(runtime !== 'workerd');
    // Where it cannot say, its rounds too short for the resident set alone: unknown, with the reason, never "no".
    if (says) expect(leaking.memory?.leak, readings('keeps 64 KB per call', runtime)).toBe(true);
    else expect(leaking.memory?.leak, readings('keeps 64 KB per call', runtime)).not.toBe(false);
    if (leaking.memory?.leak === undefined) expect(cli.stdout.replace(/\s+/g, ' ')).toContain(`n/a — ${runtime}: kept growing: its rounds were too short for the resident set alone`);
    expect(leaking.memory!.growthPerCallBytes).toBeGreaterThan(8 * 1024);
    // Not marked: judged steady, or not judged where the runtime gave back memory mid-case (bun collects when it likes).
    expect(resultOf('drops 4 KB per call', runtime)?.memory?.leak, readings('drops 4 KB per call', runtime)).not.toBe(true);
  });

  it('shows bytes outside the heap where the runtime tells them, and n/a where it does not', () => {
    const outside = (runtime: string) => resultOf('holds 64 MB', runtime, held)!.rounds[0]!.metrics?.heap?.externalBytes;
    expect(outside('node')).toBeGreaterThan(60 * MiB);
    expect(outside('deno')).toBeGreaterThan(60 * MiB);
    expect(outside('workerd')).toBeUndefined();
    expect(outside('bun')).toBeUndefined();
    expect(cli.stdout).toMatch(/n\/a — workerd: off-heap: not reported/);
  });
});

