/**
 * Output that backs up the pipe: a result line of more than 10,000 samples
 * (a long run's), after a case has flooded stdout in setup. Node's stdout
 * pipe is non-blocking, so a line written asynchronously and followed by the
 * entry's exit was cut off; every runtime must deliver the whole line.
 */
import { describe, expect, it } from 'vitest';
import type { Job } from '@rtbench/core/protocol';
import type { Runner } from '../../packages/runner-kit/src/index.ts';
import { nodeRunner } from '../../runners/node/src/runner.ts';
import { denoRunner } from '../../runners/deno/src/runner.ts';
import { bunRunner } from '../../runners/bun/src/runner.ts';
import { workerdRunner } from '../../runners/workerd/src/runner.ts';
import { bundleSuite } from '../../packages/cli/src/bundle.ts';
import { judgeOutcome } from '../../packages/runner-kit/src/job.ts';
import { fixture } from '../helpers/cli.ts';

const SAMPLES = 10_500;

describe.each<Runner>([nodeRunner, denoRunner, bunRunner, workerdRunner])('$runtime', (runner) => {
  it(`delivers a result of ${SAMPLES} samples after ~2 MB of case output`, async () => {
    const target = await runner.resolve(runner.runtime);
    const bundle = await bundleSuite(fixture('misbehaving'), 'misbehaving', runner.runtime, runner.bundle);
    // Samples as short as the clock allows: minSamples forces the count (workerd's 1 ms clock makes this ~10 s there).
    const job: Job = { protocol: 1, kind: 'measure', caseId: 'floods stdout in setup', options: { warmupMs: 5, timeMs: 1, minSamples: SAMPLES, maxSamples: SAMPLES, sampleMs: 0.001 } };
    const outcome = await runner.runJob({ target, flags: { args: [], env: {} }, bundlePath: bundle.path, job, timeoutMs: 120_000 });
    const verdict = judgeOutcome(outcome, runner.runtime, 120_000);
    expect(verdict.kind, JSON.stringify(verdict).slice(0, 300)).toBe('result');
    if (verdict.kind === 'result') expect(verdict.message.samples).toHaveLength(SAMPLES);
  });
});
