/**
 * A runtime process that stops itself (SIGSTOP) is not a slow case: at the
 * timeout rtbench reads the process's state and says it was stopped, rather
 * than advising a longer --timeout. No assertion is on time.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@rtbench/core/schema';
import { fixture, runCliAsync, tempFile } from '../helpers/cli.ts';

describe('a stopped runtime process', () => {
  it('is reported as stopped and killed, not as a timeout to raise', async () => {
    const out = tempFile('run.json');
    const r = await runCliAsync(['bench', fixture('stops-itself'), '--runtime', 'node', '--rounds', '1', '--time', '20ms', '--warmup', '5ms', '--timeout', '3s', '--save', out, '--quiet']);
    expect(r.status).toBe(1);
    const run = JSON.parse(readFileSync(out, 'utf8')) as RunRecord;
    const failure = run.results[0]!.failures[0]!;
    expect(failure.message).toBe('no result within 3000 ms: the node process was stopped (SIGSTOP or SIGTSTP) and never resumed, and was killed (a case must not stop its own process)');
    expect(failure.message).not.toContain('raise --timeout');
  });
});
