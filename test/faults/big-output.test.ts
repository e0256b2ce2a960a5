/**
 * Output that backs up the pipe: a result line of more than 10,000 samples
 * (a long run's), after a case has flooded stdout in setup. Node's stdout
 * pipe is non-blocking, so a line written asynchronously and followed by the
 * entry's exit was cut off; every runtime must deliver the whole line.
 */
import { describe, expect, it } from 'vitest';
import type { Job } from '@rtbench/core/protocol';
import type { RuntimePlugin } from '../../packages/runtime-kit/src/index.ts';
import { bundleSuite } from '@rtbench/suite-loader';
import { judgeOutcome } from '../../packages/process/src/job.ts';
import { fixture } from '../helpers/cli.ts';
import { pluginNamed } from '@rtbench/runtime-registry';

const nodeRuntime = pluginNamed('node')!;
const denoRuntime = pluginNamed('deno')!;
const bunRuntime = pluginNamed('bun')!;
const workerdRuntime = pluginNamed('workerd')!;

/**
 * A long run's result line on the runtimes that write it to stdout behind the case's output. workerd answers in its
 * HTTP response, apart from its stdout (a file read after the exit): its run shows the result arriving whole after
 * the flood with a tenth of the samples, since each of its samples spins to the next edge of its 1 ms clock (core
 * clock.ts EdgeTimer: 10,500 of them were ~9 CPU-s).
 */
const samplesFor = (plugin: RuntimePlugin): number => (plugin === workerdRuntime ? 1_050 : 10_500);

// Side by side; the two 600 MB runs below take the cores meanwhile.
describe.concurrent.each<RuntimePlugin>([nodeRuntime, denoRuntime, bunRuntime, workerdRuntime])('$runtime', (plugin) => {
  it(`delivers a result of ${samplesFor(plugin)} samples after ~2 MB of case output`, async () => {
    const target = await plugin.resolve(plugin.name);
    const bundle = await bundleSuite(fixture('misbehaving'), 'misbehaving', plugin.name, plugin.bundle);
    // Samples as short as the clock allows: minSamples forces the count (workerd's 1 ms clock makes this ~1 s there).
    const samples = samplesFor(plugin);
    const job: Job = { protocol: 1, kind: 'measure', caseId: 'floods stdout in setup', options: { warmupMs: 5, timeMs: 1, minSamples: samples, maxSamples: samples, sampleMs: 0.001 } };
    const outcome = await plugin.runJob({ target, flags: { args: [], env: {} }, bundlePath: bundle.path, job, timeoutMs: 120_000 });
    const verdict = judgeOutcome(outcome, plugin.name, 120_000);
    expect(verdict.kind, JSON.stringify(verdict).slice(0, 300)).toBe('result');
    if (verdict.kind === 'result') expect(verdict.message.samples).toHaveLength(samples);
  });
});

/** The 600 MB runs, one after the other: each judges the host's memory, which the other's would add to. */
let hugeRunsBefore: Promise<unknown> = Promise.resolve();
function afterTheOtherHugeRun<T>(run: () => Promise<T>): Promise<T> {
  const mine = hugeRunsBefore.then(run);
  hugeRunsBefore = mine.catch(() => undefined);
  return mine;
}

// bun's stderr and workerd's stdout go through a file shared with the engine's GC trace, read after the exit.
// Beside the runs above (concurrent), but one after the other (afterTheOtherHugeRun).
describe.concurrent.each<RuntimePlugin>([bunRuntime, workerdRuntime])('$runtime, ~600 MB of output', (plugin) => {
  it('is read in bounded memory (more than one string can hold), and the result still arrives with the output\'s tail', () => afterTheOtherHugeRun(async () => {
    const target = await plugin.resolve(plugin.name);
    const bundle = await bundleSuite(fixture('huge-output'), 'huge-output', plugin.name, plugin.bundle);
    const job: Job = { protocol: 1, kind: 'measure', caseId: 'writes 600 MB of output in setup', options: { warmupMs: 5, timeMs: 10, minSamples: 5, maxSamples: 50, sampleMs: 0 } };
    const rssBefore = process.memoryUsage().rss;
    const outcome = await plugin.runJob({ target, flags: { args: [], env: {} }, bundlePath: bundle.path, job, timeoutMs: 300_000 });
    const verdict = judgeOutcome(outcome, plugin.name, 300_000);
    expect(verdict.kind, JSON.stringify(verdict).slice(0, 300)).toBe('result');
    expect(outcome.stderr.length).toBeLessThanOrEqual(8_001);
    expect(outcome.stderr).toContain('z'.repeat(1000));
    // The host held a bounded share of it, not the 600 MB (a string that long cannot even exist).
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(300e6);
  }), 600_000);
});
