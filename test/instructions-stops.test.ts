/**
 * How a count run (--measure instructions, node under valgrind's callgrind)
 * stops short: a signal while a vgdb command is in flight (a stand-in
 * valgrind and vgdb), a case refused because a thread it started runs in
 * every sample (the real valgrind). Apart from the four
 * runtimes' counts (instructions.test.ts) so that vitest runs them on its
 * other worker. No assertion is on time. valgrind missing is said before any
 * runtime starts: packages/cli/test/faults-wording.test.ts.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseRun } from '@rtbench/core/schema';
import { program } from './helpers/system-programs.ts';
import { fixture, runCliAsync, spawnCli, tempFile } from './helpers/cli.ts';

let valgrind: string;

beforeAll(async () => {
  valgrind = await program('valgrind');
});

// Side by side: the refused case's run is one process under valgrind, which uses one core and counts the same whatever runs beside it.
describe.concurrent('--measure instructions stopping short', () => {
  it('SIGTERM while the counts are taken ends the job at once and says so: exit 143, the case interrupted, no vgdb or ptrace advice', async () => {
    // A stand-in valgrind that runs node unmeasured, beside a vgdb that never answers: the signal always lands while a
    // vgdb command of this CLI is in flight (with the real pair it lands there only when a poll catches one), and no
    // node starts under valgrind (~3.5 CPU-s). That the real pair counts is instructions.test.ts's.
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-fake-valgrind-'));
    const inFlight = join(dir, 'vgdb-in-flight');
    const script = (name: string, body: string): string => {
      writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
      chmodSync(join(dir, name), 0o755);
      return join(dir, name);
    };
    const fakeValgrind = script('valgrind', 'if [ "$1" = --version ]; then echo valgrind-3.19.0; exit 0; fi\nwhile [ $# -gt 0 ]; do case "$1" in --*) shift ;; *) break ;; esac; done\nexec "$@"');
    script('vgdb', `echo $$ > '${inFlight}'\nexec sleep 600`);
    const out = tempFile('run.json');
    const cli = spawnCli(['bench', fixture('tiny'), '--filter', 'n=200', '--runtime', 'node', '--measure', 'instructions', '--fixed-warmup', '--rounds', '1', '--save', out], { RTBENCH_VALGRIND: fakeValgrind });
    let stderr = '';
    cli.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => cli.on('close', (code) => resolve(code)));
    while (!(existsSync(inFlight) && readFileSync(inFlight, 'utf8').endsWith('\n')) && cli.exitCode === null) await new Promise((r) => setTimeout(r, 10));
    cli.kill('SIGTERM');
    expect(await exited, stderr).toBe(143);
    expect(stderr).toContain('terminated (SIGTERM): stopping the current job and saving what was measured');
    expect(stderr).not.toMatch(/ptrace|vgdb .*: no answer/);
    expect(parseRun(JSON.parse(readFileSync(out, 'utf8')), out).status).toBe('interrupted');
    // The command in flight was ended with the job (the CLI waits for it to exit), not left to its sleep.
    const vgdb = Number(readFileSync(inFlight, 'utf8'));
    expect(() => process.kill(vgdb, 0)).toThrow();
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
