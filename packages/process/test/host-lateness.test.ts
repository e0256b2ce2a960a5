/**
 * The host's own lateness (host-lateness.ts): a watch sees the event loop
 * blocked for a known time, and a measure job's reader carries what it saw
 * from the process's hello to its answer.
 */
import { describe, expect, it } from 'vitest';
import { encodeLine, type Job, type RuntimeMessage } from '@rtbench/core/protocol';
import { watchHostLateness } from '../src/host-lateness.ts';
import { sealJob } from '../src/job.ts';
import { ProtocolReader, Tail } from '../src/protocol-reader.ts';

const block = (ms: number): void => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};
const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('the host lateness watch', () => {
  it('reads a loop blocked for 150 ms as late by most of it, and keeps its reading once stopped', async () => {
    const watch = watchHostLateness();
    await tick(30);
    block(150);
    await tick(30);
    const late = watch.stop();
    expect(late).toBeGreaterThanOrEqual(130);
    await tick(30);
    expect(watch.stop()).toBe(late);
  });

  it('reads a loop blocked until it stops, with no timer run after the block, as late by most of it', async () => {
    const watch = watchHostLateness();
    await tick(30);
    // The answer read in the same turn that ends the block: the watch's timer has not run since.
    block(150);
    expect(watch.stop()).toBeGreaterThanOrEqual(130);
  });

  it("gives a measure job's reader the lateness between its hello and answer; a list job's none", async () => {
    const hello: RuntimeMessage = { type: 'hello', protocol: 1, facts: { runtime: 'node', version: '26.0.0', engine: 'v8', engineVersion: '14.0', gcExposed: false } };
    const answered = async (job: Job, answer: RuntimeMessage): Promise<ProtocolReader> => {
      const { token } = sealJob(job, {});
      const reader = new ProtocolReader({ token, job, other: new Tail() });
      reader.push(`${encodeLine(hello, token)}\n`);
      await tick(30);
      block(120);
      await tick(30);
      reader.push(`${encodeLine(answer, token)}\n`);
      reader.end();
      expect(reader.terminal?.type).toBe(answer.type);
      return reader;
    };
    const measure: Job = { protocol: 1, kind: 'measure', caseId: 'c', options: { warmupMs: 1, timeMs: 1, minSamples: 1, maxSamples: 10, sampleMs: 0 } };
    const measured = await answered(measure, { type: 'error', caseId: 'c', phase: 'run', message: 'x' });
    expect(measured.hostLateMs).toBeGreaterThanOrEqual(100);
    expect(measured.hostSpanMs).toBeGreaterThanOrEqual(120);
    const listed = await answered({ protocol: 1, kind: 'list' }, { type: 'cases', cases: [] });
    expect(listed.hostLateMs).toBeUndefined();
  });
});
