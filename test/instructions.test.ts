/**
 * Instruction counts (--measure instructions) on the four real runtimes
 * under valgrind's cachegrind. valgrind is installed from Debian's packages
 * when it is missing (test/helpers/debian-package.ts). No assertion is on time.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { cachegrindWrap, estimatedCycles, parseCachegrind, VALGRIND_INSTALL } from '../packages/runner-kit/src/index.ts';
import { ensureDebianProgram } from './helpers/debian-package.ts';
import { fixture, runCli, tempFile } from './helpers/cli.ts';

let valgrind: string;

beforeAll(() => {
  valgrind = ensureDebianProgram({
    path: process.env.RTBENCH_VALGRIND ?? '/usr/bin/valgrind',
    pkg: 'valgrind',
    howToInstall: VALGRIND_INSTALL,
    purpose: 'instruction-count tests',
    ...(process.env.RTBENCH_VALGRIND ? { named: 'RTBENCH_VALGRIND' } : {}),
  });
});

describe('--measure instructions', () => {
  it('counts instructions per operation on node, deno, bun and workerd, the same in every round', () => {
    const out = tempFile('run.json');
    const r = runCli(['bench', fixture('tiny'), '--filter', 'n=200', '--runtime', 'node,deno,bun,workerd', '--measure', 'instructions', '--rounds', '2', '--save', out, '--quiet', '--format', 'csv'], { RTBENCH_VALGRIND: valgrind });
    expect(r.status, r.stderr).toBe(0);
    const run = parseRun(JSON.parse(readFileSync(out, 'utf8')), out);
    expect(run.options.measurer).toBe('instructions');
    expect(run.cases[0]!.metric).toMatchObject({ unit: 'instructions', direction: 'lower-is-better' });
    expect(run.results.map((x) => x.variantId).sort()).toEqual(['bun', 'deno', 'node', 'workerd']);
    for (const res of run.results) {
      expect(res.status, `${res.variantId}: ${JSON.stringify(res.failures)}`).toBe('ok');
      expect(res.rounds).toHaveLength(2);
      const [a, b] = res.rounds.map((x) => x.samples[0]!);
      // A sum of 200 terms: hundreds to thousands of instructions per call, never zero.
      expect(a).toBeGreaterThan(200);
      // Two rounds, four processes: the count per call repeats to within 1% (measured: parts per million).
      expect(Math.abs(b! / a! - 1), `${res.variantId}: ${a} vs ${b}`).toBeLessThan(0.01);
      for (const round of res.rounds) {
        const counts = round.counts!;
        expect(counts.iterations[1]).toBeGreaterThan(counts.iterations[0]);
        expect(counts.instructions[1]).toBeGreaterThan(counts.instructions[0]);
        expect(round.samples[0]).toBeCloseTo((counts.instructions[1] - counts.instructions[0]) / (counts.iterations[1] - counts.iterations[0]), 6);
      }
    }
    expect(run.digestMismatches).toEqual([]);
    // The CSV names the measure and its unit: counts never sit in a time column.
    expect(r.stdout.split('\n')[1]).toContain(',instructions per operation,instructions,');
    // Sixteen processes under valgrind: ~190 s on a CI machine. The limit guards against a hang, not a slow machine.
  }, 900_000);

  it('says in one line how to get valgrind when it is missing', () => {
    const r = runCli(['bench', fixture('tiny'), '--filter', 'n=200', '--runtime', 'node', '--measure', 'instructions'], { RTBENCH_VALGRIND: '/nonexistent/valgrind' });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('apt-get install -y valgrind');
  });

  it('reads cachegrind\'s summary, with the cache simulation\'s misses and the estimated cycles', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-cachegrind-test-'));
    try {
      const log = join(dir, 'log');
      const wrap = cachegrindWrap(valgrind, log, true);
      const done = spawnSync(wrap.command, [...wrap.args, process.execPath, '-e', '0'], { encoding: 'utf8' });
      expect(done.status).toBe(0);
      const summary = parseCachegrind(readFileSync(log, 'utf8'))!;
      expect(summary.instructions).toBeGreaterThan(1e6);
      expect(summary.l1Misses).toBeGreaterThan(0);
      expect(summary.llMisses).toBeGreaterThan(0);
      expect(estimatedCycles(summary)).toBe(summary.instructions + 10 * summary.l1Misses! + 100 * summary.llMisses!);
      expect(parseCachegrind('==1== no summary here')).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
