/** A warm process from the host's side, over a scripted process: cases one after another, each with its own outcome. */
import { describe, expect, it } from 'vitest';
import { caseCommand, COLLECT_COMMAND, encodeLine, FINISH_COMMAND, SAMPLE_COMMAND, type Job, type RuntimeMessage } from '@rtbench/core/protocol';
import { ProtocolReader, Tail } from '../src/protocol-reader.ts';
import { sealJob } from '../src/job.ts';
import type { RunningJob } from '../src/process.ts';
import { warmProcess } from '../src/session.ts';
import type { JobOutcome } from '../src/job.ts';

const serve: Job = { protocol: 1, kind: 'serve', options: { warmupMs: 1, timeMs: 1, minSamples: 1, maxSamples: 10, sampleMs: 0 } };
const hello: RuntimeMessage = { type: 'hello', protocol: 1, facts: { runtime: 'node', version: '26', engine: 'v8', engineVersion: '14', gcExposed: false } };

/** A process that answers the host's lines by `script`; `exit` ends it. */
function scripted(script: (line: string, say: (m: RuntimeMessage) => void) => void, { helloLater = false } = {}) {
  const { token } = sealJob(serve, {});
  const reader = new ProtocolReader({ token, job: serve, other: new Tail() });
  let end!: (o: JobOutcome) => void;
  const outcome = new Promise<JobOutcome>((resolve) => (end = resolve));
  const sent: string[] = [];
  const say = (m: RuntimeMessage): void => queueMicrotask(() => reader.push(`${encodeLine(m, token)}\n`));
  const exit = (exitCode: number | null, exitSignal: string | null = null): void =>
    end({ messages: reader.messages, exitCode, exitSignal, timedOut: false, interrupted: false, stderr: 'the tail', protocolErrors: reader.protocolErrors, wallMs: 1 });
  const running: RunningJob = {
    reader,
    send: (line) => {
      sent.push(line);
      script(line, say);
    },
    endInput: () => exit(0),
    kill: () => exit(null, 'SIGKILL'),
    outcome,
  };
  const sayHello = (): void => reader.push(`${encodeLine(hello, token)}\n`);
  if (!helloLater) sayHello();
  return { running, sent, exit, sayHello };
}

function honest(line: string, say: (m: RuntimeMessage) => void, state: { caseId?: string; n: number }): void {
  if (line.startsWith('case ')) {
    state.caseId = JSON.parse(line.slice(5)) as string;
    state.n = 0;
    say({ type: 'ready', caseId: state.caseId, iterationsPerSample: 1, warmupIterations: 1, batchNs: 1000 });
  } else if (line === SAMPLE_COMMAND || line === COLLECT_COMMAND) say({ type: 'sample', caseId: state.caseId!, index: state.n++, ns: 1000, spanNs: 1200 });
  else if (line === FINISH_COMMAND)
    say({ type: 'result', caseId: state.caseId!, digest: { hash: '0123456789abcdef', summary: '1' }, clock: { name: 'c', resolutionNs: 1, readCostNs: 1, edgeAligned: false }, samples: Array(state.n).fill(1000), iterationsPerSample: 1, warmupIterations: 1, async: false });
}

describe('warmProcess', () => {
  it('serves cases one after another, each outcome holding the hello and that case\'s messages only', async () => {
    const state = { n: 0 };
    const { running, sent } = scripted((line, say) => honest(line, say, state));
    const warm = warmProcess(running);
    for (const id of ['a', 'b/"quoted"']) {
      const c = warm.open(id, 1000);
      expect(await c.ready).toMatchObject({ caseId: id });
      const reading = await c.sample();
      expect(reading).toMatchObject({ ns: 1000, spanNs: 1200 });
      expect(reading!.receivedMs).toBeGreaterThanOrEqual(reading!.sentMs);
      const outcome = await c.finish();
      expect(outcome.exitCode).toBe(0);
      expect(outcome.messages.map((m) => m.type)).toEqual(['hello', 'ready', 'result']);
      expect(outcome.messages[2]).toMatchObject({ caseId: id });
      expect(warm.usable).toBe(true);
    }
    expect(sent).toEqual([caseCommand('a'), SAMPLE_COMMAND, FINISH_COMMAND, caseCommand('b/"quoted"'), SAMPLE_COMMAND, FINISH_COMMAND]);
    expect(warm.served).toEqual(['a', 'b/"quoted"']);
    expect((await warm.close()).exitCode).toBe(0);
  });

  it('sends the first case only once the runtime said hello, so its memory is not the runtime\'s start-up', async () => {
    const state = { n: 0 };
    const { running, sent, sayHello } = scripted((line, say) => honest(line, say, state), { helloLater: true });
    const warm = warmProcess(running);
    const c = warm.open('a', 1000);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(sent).toEqual([]);
    sayHello();
    expect(await c.ready).toMatchObject({ caseId: 'a' });
    expect(sent).toEqual([caseCommand('a')]);
    expect(await c.sample()).toMatchObject({ ns: 1000 });
    const outcome = await c.finish();
    expect(outcome.messages.map((m) => m.type)).toEqual(['hello', 'ready', 'result']);
  });

  it('gives a first case whose process ended before its hello that end, its command never sent', async () => {
    const { running, sent, exit } = scripted(() => undefined, { helloLater: true });
    const warm = warmProcess(running);
    const c = warm.open('a', 1000);
    exit(1);
    expect(await c.ready).toBeUndefined();
    expect((await c.finish()).exitCode).toBe(1);
    expect(sent).toEqual([]);
    expect(warm.usable).toBe(false);
  });

  it('asks for a collection between samples, answered in the samples\' numbering, and none once the case answered', async () => {
    const state = { n: 0 };
    const { running, sent } = scripted((line, say) => honest(line, say, state));
    const warm = warmProcess(running);
    const c = warm.open('a', 1000);
    await c.ready;
    expect(await c.collect()).toBe(true);
    expect(await c.sample()).toBeDefined();
    expect(await c.collect()).toBe(true);
    const outcome = await c.finish();
    expect(outcome.protocolErrors).toEqual([]);
    expect(await c.collect()).toBe(false);
    expect(sent).toEqual([caseCommand('a'), COLLECT_COMMAND, SAMPLE_COMMAND, COLLECT_COMMAND, FINISH_COMMAND]);
  });

  it('gives a case that the process died in the process\'s own end, and is no longer usable', async () => {
    const state = { n: 0 };
    let exit!: (code: number | null) => void;
    const s = scripted((line, say) => (line === SAMPLE_COMMAND && state.n === 1 ? queueMicrotask(() => exit(134)) : honest(line, say, state)));
    exit = s.exit;
    const warm = warmProcess(s.running);
    const c = warm.open('a', 1000);
    await c.ready;
    expect(await c.sample()).toBeDefined();
    expect(await c.sample()).toBeUndefined();
    const outcome = await c.finish();
    expect(outcome.exitCode).toBe(134);
    expect(outcome.stderr).toBe('the tail');
    expect(warm.usable).toBe(false);
  });

  it('does not send finish for a case that already answered (it failed before ready)', async () => {
    const { running, sent } = scripted((line, say) => {
      if (line.startsWith('case ')) say({ type: 'error', caseId: 'a', phase: 'setup', message: 'no' });
    });
    const warm = warmProcess(running);
    const c = warm.open('a', 1000);
    expect(await c.ready).toBeUndefined();
    const outcome = await c.finish();
    expect(outcome.messages.map((m) => m.type)).toEqual(['hello', 'error']);
    expect(sent).toEqual([caseCommand('a')]);
    expect(warm.usable).toBe(true);
  });

  it('kills the process when one case runs past its timeout', async () => {
    const { running } = scripted(() => {});
    const warm = warmProcess(running);
    const c = warm.open('a', 20);
    expect(await c.ready).toBeUndefined();
    const outcome = await c.finish();
    expect(outcome.timedOut).toBe(true);
    expect(warm.usable).toBe(false);
  });
});
