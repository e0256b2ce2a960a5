/**
 * Failures whose cause rtbench can read are said as that cause, not as the
 * symptom it caused: perf refusing to record (not "exited with 255"),
 * RTBENCH_VALGRIND naming something that is not valgrind (not "exited with
 * code 0 without a result"). A runtime process stopped by SIGSTOP (not a slow
 * case to raise --timeout for) is test/interrupt.test.ts's: its run waits out
 * its --timeout, idle, beside that file's signalled runs.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixture, runCliAsync, tempFile } from '../helpers/cli.ts';

/** An executable script at a temporary path. */
function script(name: string, body: string): string {
  const path = tempFile(name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe.concurrent('said as its cause', () => {
  it("a native profile perf refuses to record: perf's reason (the paranoid level), not its exit code", async () => {
    // What perf writes before it exits 255 when kernel.perf_event_paranoid forbids recording.
    const perf = script('perf', `printf 'Error:\\nAccess to performance monitoring and observability operations is limited.\\nperf_event_paranoid setting is 4:\\n' >&2; exit 255`);
    const r = await runCliAsync(['bench', fixture('tiny'), '--runtime', 'node', '--filter', 'n=200', '--rounds', '1', '--time', '20ms', '--warmup', '5ms', '--fixed-warmup', '--profile', 'native', '--save', tempFile('run.json')], { RTBENCH_PERF: perf });
    expect(r.stdout + r.stderr).toContain('no native profile (failed: perf refused to record: kernel.perf_event_paranoid is 4, and this process lacks CAP_PERFMON');
    expect(r.stdout + r.stderr).not.toContain('exited with 255');
  });

  it('RTBENCH_VALGRIND naming a binary that is not valgrind: refused before anything runs, naming the variable', async () => {
    const r = await runCliAsync(['bench', fixture('tiny'), '--runtime', 'node', '--filter', 'n=200', '--measure', 'instructions', '--quiet'], { RTBENCH_VALGRIND: script('valgrind', 'echo "not valgrind 1.0"') });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: --measure instructions: RTBENCH_VALGRIND=\/.*valgrind is not valgrind \(`--version` printed "not valgrind 1\.0", valgrind prints "valgrind-3\.…"\)/)]);
  });
});
