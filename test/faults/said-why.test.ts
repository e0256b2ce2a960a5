/**
 * Failures whose cause rtbench can read are said as that cause, not as the
 * symptom it caused: a runtime process stopped by SIGSTOP (not a slow case
 * to raise --timeout for), perf refusing to record (not "exited with 255"),
 * RTBENCH_VALGRIND naming something that is not valgrind (not "exited with
 * code 0 without a result"). No assertion is on time.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { fixture, runCliAsync, tempFile } from '../helpers/cli.ts';

/** An executable script at a temporary path. */
function script(name: string, body: string): string {
  const path = tempFile(name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe.concurrent('said as its cause', () => {
  it('a runtime process that stops itself: reported as stopped and killed, not as a timeout to raise', async () => {
    const out = tempFile('run.json');
    const r = await runCliAsync(['bench', fixture('stops-itself'), '--runtime', 'node', '--rounds', '1', '--time', '20ms', '--warmup', '5ms', '--fixed-warmup', '--timeout', '3s', '--save', out, '--quiet']);
    expect(r.status).toBe(1);
    const run = JSON.parse(readFileSync(out, 'utf8')) as RunRecord;
    const failure = run.results[0]!.failures[0]!;
    expect(failure.message).toBe('no result within 3000 ms: the node process was stopped (SIGSTOP or SIGTSTP) and never resumed, and was killed (a case must not stop its own process)');
  });

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
