/**
 * Fault injection: suites that misbehave (test/fixtures/misbehaving,
 * out-of-memory), run through the real CLI on node, deno, bun and workerd.
 * One run covers every fault on every runtime, beside a second of the case
 * whose value differs between rounds (two rounds on node); the assertions say
 * what rtbench must make of each. The budget is tiny on purpose (a process
 * per case and runtime, 10 ms of sampling): these tests are about what is
 * recorded, not about the numbers. That a run of one round on one runtime
 * says its work was not cross-checked is the report's wording on such a run:
 * packages/cli/test/faults-wording.test.ts.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRun, type CaseResult, type RunRecord } from '@rtbench/core/schema';
import { fixture, runCli, runCliAsync, tempFile, type CliResult } from '../helpers/cli.ts';
import { FORGED_SAMPLES } from '../fixtures/misbehaving/index.ts';

const RUNTIMES = ['node', 'deno', 'bun', 'workerd'] as const;
const QUICK = ['--time', '10ms', '--warmup', '1ms', '--fixed-warmup', '--timeout', '60s', '--quiet'];

function resultsOf(run: RunRecord, caseId: string): CaseResult[] {
  const found = run.results.filter((r) => r.caseId === caseId);
  expect(found.map((r) => r.variantId.split(' ')[0])).toEqual([...RUNTIMES]);
  return found;
}

/** The misbehaving suite's cases but the one whose value differs between processes, which the second run has. */
const ONE_ROUND_CASES = ['forges', 'floods', '8 MB', 'replaces', 'sees no', 'throws', 'teardown', 'exits in setup', 'differs between runtimes'];

describe('a suite that misbehaves in every way, on all four runtimes', () => {
  let cli: CliResult;
  let run: RunRecord;
  /** The case whose value differs between rounds, two rounds on node: the same-work check between processes is the host's. */
  let rounds: RunRecord;
  beforeAll(async () => {
    const out = tempFile('misbehaving.json');
    const twice = tempFile('differs-between-rounds.json');
    // Every variant sets the same variable: a case that reads its environment must see exactly that, everywhere.
    const variants = RUNTIMES.map((r) => `${r} FAULT_ENV=same`).join(',');
    // Each case in a process of its own (--sets-per-process 1): the checks below are of one process per round (a
    // value that differs between rounds is a value that differs between processes; a failing teardown is the answer).
    // Since bench's default became four sets per warm process, a kept case is torn down only after its last answer
    // (core execute.ts), and a failing teardown there is not reported. One round on the four runtimes (each of the
    // runtime's harness), and two for the one case that needs a second process to differ from.
    const [each, second] = await Promise.all([
      runCliAsync(['bench', fixture('misbehaving'), '--runtime', variants, '--filter', ONE_ROUND_CASES.join(','), '--rounds', '1', '--sets-per-process', '1', '--save', out, ...QUICK]),
      runCliAsync(['bench', fixture('misbehaving'), '--runtime', 'node FAULT_ENV=same', '--filter', 'differs between rounds', '--rounds', '2', '--sets-per-process', '1', '--save', twice, ...QUICK]),
    ]);
    cli = each;
    expect(second.status, second.stderr).toBe(1);
    run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
    rounds = parseRun(JSON.parse(readFileSync(twice, 'utf8')), twice);
  });

  it('fails the run (exit 1) and says why, without a stack trace of its own', () => {
    expect(cli.status, cli.stderr).toBe(1);
    expect(cli.stderr).not.toMatch(/\n\s+at .*\(.*packages\/cli/);
  });

  it('keeps the real result of a case that prints forged protocol lines', () => {
    for (const r of resultsOf(run, 'forges its own result')) {
      expect(r.status, r.variantId).toBe('ok');
      expect(r.rounds).toHaveLength(1);
      for (const round of r.rounds) {
        expect(round.samples).not.toEqual(FORGED_SAMPLES);
        expect(Math.max(...round.samples)).toBeLessThan(FORGED_SAMPLES[0]!);
        expect(round.digest.summary).not.toBe('forged');
      }
    }
  });

  it('loses no result to a case that floods stdout, or prints 8 MB on one line', () => {
    for (const caseId of ['floods stdout in setup', 'prints 8 MB on one line']) {
      for (const r of resultsOf(run, caseId)) {
        expect(r.status, `${caseId} on ${r.variantId}: ${JSON.stringify(r.failures).slice(0, 500)}`).toBe('ok');
        expect(r.rounds).toHaveLength(1);
      }
    }
  });

  it("times and reports correctly when a case replaces the clock, JSON.stringify, console and stdout", () => {
    for (const r of resultsOf(run, "replaces the harness's globals")) {
      expect(r.status, JSON.stringify(r.failures).slice(0, 500)).toBe('ok');
      // The replaced clock reads 0 whenever it is read. The harness's own clock moves: between the samples' starts (each
      // sample is a turn beside the other three runtimes') if not within a sample, since a case tiered up after a 1 ms
      // smoke warmup can fit all its batches inside one tick of workerd's 1 ms clock and read every sample as 0.
      const readings = r.rounds.flatMap((x) => [...x.samples, ...(x.sampleStartMs ?? []).map((ms) => ms - x.sampleStartMs![0]!)]);
      expect(Math.max(...readings), r.variantId).toBeGreaterThan(0);
    }
  });

  it('shows a case the same environment and arguments on every runtime: only what the variant set', () => {
    const rs = resultsOf(run, 'sees no harness state');
    for (const r of rs) expect(r.status).toBe('ok');
    expect(new Set(rs.map((r) => r.rounds[0]!.digest.hash)).size).toBe(1);
    expect(run.digestMismatches.map((m) => m.caseId)).not.toContain('sees no harness state');
    expect(rs[0]!.rounds[0]!.digest.summary).toMatch(/object/i);
  });

  it('records errors whatever is thrown, and a teardown that fails after sampling', () => {
    const expected: Record<string, RegExp> = {
      'throws a value that cannot be printed': /\[object Object\]/,
      'throws null': /^null$/,
      'fails in teardown after its samples': /teardown failed on purpose/,
    };
    for (const [caseId, message] of Object.entries(expected)) {
      for (const r of resultsOf(run, caseId)) {
        expect(r.status, r.variantId).toBe('failed');
        expect(r.rounds).toEqual([]);
        expect(r.failures[0]).toMatchObject({ kind: 'error' });
        expect(r.failures[0]!.message).toMatch(message);
      }
    }
    for (const r of resultsOf(run, 'fails in teardown after its samples')) expect(r.failures[0]!.phase).toBe('teardown');
  });

  it('reports a process that exits with code 0 before answering as a failure, not a result', () => {
    for (const r of resultsOf(run, 'exits in setup with code 0')) {
      expect(r.status).toBe('failed');
      expect(r.failures[0]!.message).toMatch(/without a result/);
    }
  });

  it('fires the same-work check for a case whose value differs between rounds, and one that differs between runtimes', () => {
    expect(rounds.results.map((r) => r.variantId)).toEqual(['node FAULT_ENV=same']);
    for (const r of rounds.results) {
      expect(r.failures).toEqual([expect.objectContaining({ kind: 'digest-mismatch', message: expect.stringMatching(/^the case returned different values in different rounds .*: it is not deterministic; a brought file says a value is random by design with --random '.+'$/) })]);
    }
    expect(run.digestMismatches.map((m) => m.caseId)).toEqual(['differs between runtimes']);
    expect(Object.keys(run.digestMismatches.find((m) => m.caseId === 'differs between runtimes')!.digests)).toHaveLength(4);
    expect(cli.stdout).toMatch(/differs between runtimes[^\n]*\n?[^\n]*≠ work/);
    expect(cli.stdout).toMatch(/different work on "differs between runtimes"/);
    expect(cli.stdout).not.toMatch(/not cross-checked/);
  });
});

describe('memory that runs out: a heap limit, and the bound (--max-memory) in the heap and outside it', () => {
  const HEAP_LIMITED = ['node', 'deno', 'workerd'].map((r) => `${r} --max-old-space-size=32`);
  let cli: CliResult;
  let lines: string[];
  beforeAll(() => {
    // One run for both (start-up and bundles shared). A small bound, so the test takes little of a shared
    // machine: each process is stopped past 128 MiB (each page filled up to it costs the kernel's time: 256 MiB took
    // half as much CPU again). A 32 MB heap runs out first: node and deno peaked under 75 MB, and all three still
    // said "heap out of memory" under a 96 MiB bound.
    cli = runCli(['bench', fixture('out-of-memory'), '--runtime', [...HEAP_LIMITED, ...RUNTIMES].join(','), '--rounds', '1', '--max-memory', '128MiB', '--save', tempFile('oom.json'), ...QUICK]);
    // Each ✗ line with its continuation lines joined (notes wrap at the terminal's width), and what the process printed last.
    lines = cli.stdout.replace(/\n {2,}/g, ' ').split('\n').filter((l) => l.startsWith('✗'));
  });
  // A line names every variant that failed the case alike ("✗ node, deno · case: …").
  const said = (variant: string, caseId: string): string[] =>
    lines.filter((l) => {
      const at = l.indexOf(` · ${caseId}:`);
      return l.startsWith('✗ ') && at > 0 && l.slice(2, at).split(', ').includes(variant);
    });

  it('is a crash whose terminal line says "heap out of memory" under a heap limit (node, deno, workerd)', () => {
    expect(cli.status).toBe(1);
    for (const variant of HEAP_LIMITED) {
      expect(said(variant, 'fills the heap')).toEqual([expect.stringMatching(/crash: .* without a result: heap out of memory/)]);
    }
  });

  it('stops the process past the bound on all four runtimes with one line each, in the heap and outside it, and the run goes on', () => {
    // The peak the host read as it stopped the process (absent where the kernel's memory.max stopped it first).
    const stopped = (variant: string, caseId: string) => new RegExp(`^✗ (?:[^·]*, )?${variant}(?:, [^·]*)? · ${caseId}: crash: used more than 128 MiB( \\(peak [\\d.]+ [MG]iB\\))?; the process was stopped \\(--max-memory\\)`);
    for (const runtime of RUNTIMES) expect(said(runtime, 'fills the heap')).toEqual([expect.stringMatching(stopped(runtime, 'fills the heap'))]);
    // No heap limit covers ArrayBuffers: every variant, heap-limited or not, is stopped by the bound.
    for (const variant of [...HEAP_LIMITED, ...RUNTIMES]) {
      expect(said(variant, 'fills memory outside the heap')).toEqual([expect.stringMatching(stopped(variant, 'fills memory outside the heap'))]);
    }
  });
});
