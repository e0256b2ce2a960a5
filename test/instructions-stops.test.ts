/**
 * How a count run (--measure instructions, node under valgrind's callgrind)
 * stops short: a signal while a vgdb command is in flight, a case refused
 * because a thread it started runs in every sample. Apart from the four
 * runtimes' counts (instructions.test.ts) so that vitest runs them on its
 * other worker. No assertion is on time. valgrind missing is said before any
 * runtime starts: packages/cli/test/faults-wording.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { program } from './helpers/system-programs.ts';
import { fixture, runCliAsync, spawnCli, tempFile } from './helpers/cli.ts';

let valgrind: string;

beforeAll(async () => {
  valgrind = await program('valgrind');
});

// Side by side: each run is one process under valgrind, which uses one core and counts the same whatever runs beside it.
describe.concurrent('--measure instructions stopping short', () => {
  it('SIGTERM while the counts are taken ends the job at once and says so: exit 143, the case interrupted, no vgdb or ptrace advice', async () => {
    const out = tempFile('run.json');
    const cli = spawnCli(['bench', fixture('tiny'), '--filter', 'n=200', '--runtime', 'node', '--measure', 'instructions', '--fixed-warmup', '--rounds', '1', '--save', out], { RTBENCH_VALGRIND: valgrind });
    let stderr = '';
    cli.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => cli.on('close', (code) => resolve(code)));
    // The signal lands while a vgdb command of this CLI (zero, dump, instrumentation on) is in flight. Polled every 2 ms
    // for seconds: the CLI's children are read from the kernel's list of its main thread's (vgdb is one), not every
    // process's command line (a third of a core); every process only where the kernel keeps no such list.
    const candidates = (): string[] => {
      try {
        return readFileSync(`/proc/${cli.pid}/task/${cli.pid}/children`, 'utf8').split(' ').filter(Boolean);
      } catch {
        return readdirSync('/proc').filter((p) => /^\d+$/.test(p));
      }
    };
    const vgdbInFlight = (): boolean =>
      candidates().some((p) => {
        try {
          const argv = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
          return argv[0]!.endsWith('vgdb') && argv.some((a) => a.includes(`rtbench-callgrind-${cli.pid}-`));
        } catch {
          return false;
        }
      });
    while (!vgdbInFlight() && cli.exitCode === null) await new Promise((r) => setTimeout(r, 2));
    cli.kill('SIGTERM');
    expect(await exited, stderr).toBe(143);
    expect(stderr).toContain('terminated (SIGTERM): stopping the current job and saving what was measured');
    expect(stderr).not.toMatch(/ptrace|vgdb .*: no answer/);
    expect(parseRun(JSON.parse(readFileSync(out, 'utf8')), out).status).toBe('interrupted');
    // Beside other valgrind processes (the four runtimes' counts, the busy worker's): the limit guards against a hang.
  }, 600_000);

  it('refuses the counts of a case whose code starts a busy worker thread, whose work would fall into samples at random', async () => {
    const out = tempFile('run.json');
    const r = await runCliAsync(['bench', fixture('busy-worker'), '--runtime', 'node', '--measure', 'instructions', '--fixed-warmup', '--rounds', '1', '--save', out, '--quiet'], { RTBENCH_VALGRIND: valgrind });
    expect(r.status).toBe(1);
    const failure = parseRun(JSON.parse(readFileSync(out, 'utf8')), out).results[0]!.failures[0]!;
    expect(failure.message).toMatch(/^other threads than the case's ran [\d,]+ instructions or more in every sample of no calls: something the case's code started \(a Worker\?\) runs beside it/);
    expect(r.stderr).toMatch(/^nothing was measured: every case was unsupported or failed on every variant \(the run failed: "str concat" on node failed \(error: other threads than the case's ran/m);
  }, 600_000);
});
