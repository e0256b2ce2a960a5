/** What a job's outcome means: one clean answer is a result; anything else is a failure that says why. */
import { describe, expect, it } from 'vitest';
import type { RuntimeMessage } from '@rtbench/core/protocol';
import { crashCause, judgeOutcome, sealJob, stderrReason } from '../src/job.ts';
import type { JobOutcome } from '../src/job.ts';

const result: RuntimeMessage = {
  type: 'result',
  caseId: 'c',
  digest: { hash: '0123456789abcdef', summary: 'n' },
  clock: { name: 'c', resolutionNs: 1, readCostNs: 1, edgeAligned: false },
  samples: [1],
  iterationsPerSample: 1,
  warmupIterations: 0,
  async: false,
};
const outcome = (o: Partial<JobOutcome>): JobOutcome => ({ messages: [], exitCode: 0, exitSignal: null, timedOut: false, interrupted: false, stderr: '', protocolErrors: [], wallMs: 1, ...o });

describe('judgeOutcome', () => {
  it('accepts a result only as the clean answer of a process that kept the protocol', () => {
    expect(judgeOutcome(outcome({ messages: [result] }), 'node', 1000).kind).toBe('result');
    expect(judgeOutcome(outcome({ messages: [result], protocolErrors: ['a "result" message after the process\'s result'] }), 'node', 1000)).toMatchObject({
      kind: 'failure',
      message: expect.stringMatching(/broke rtbench's protocol: a "result" message after/),
    });
    expect(judgeOutcome(outcome({ messages: [result], exitCode: 134 }), 'deno', 1000)).toMatchObject({ kind: 'failure', failure: 'crash', message: 'the deno process exited with code 134 after its result' });
    expect(judgeOutcome(outcome({ messages: [result], timedOut: true }), 'bun', 1000)).toMatchObject({ failure: 'timeout' });
  });

  it('says the peak of a process stopped at the memory bound, where the host read one', () => {
    const MiB = 1024 ** 2;
    expect(judgeOutcome(outcome({ exitSignal: 'SIGKILL', exitCode: null, memoryExceeded: 512 * MiB, memoryPeak: 600 * MiB }), 'node', 1000)).toMatchObject({
      failure: 'crash',
      message: 'used more than 512 MiB (peak 600 MiB); the process was stopped (--max-memory)',
    });
    // The kernel's own limit stopped it: no reading, no peak.
    expect(judgeOutcome(outcome({ exitSignal: 'SIGKILL', exitCode: null, memoryExceeded: 512 * MiB }), 'node', 1000)).toMatchObject({ message: 'used more than 512 MiB; the process was stopped (--max-memory)' });
  });

  it('names the cause of a crash from the process output', () => {
    const stderr = '<--- Last few GCs --->\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n 1: 0xb0 node::Abort()\n';
    expect(judgeOutcome(outcome({ exitSignal: 'SIGABRT', exitCode: null, stderr }), 'node', 1000)).toMatchObject({
      message: 'the node process was killed by SIGABRT without a result: heap out of memory (FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory)',
    });
    expect(crashCause('RangeError: Maximum call stack size exceeded')).toBe('stack overflow');
    expect(crashCause('just some output')).toBeUndefined();
  });

  it('names what the case said it waited for when no answer came, in place of the advice to raise --timeout', () => {
    const waiting: RuntimeMessage = { type: 'waiting', caseId: 'c', on: 'main() to call bench.end()' };
    expect(judgeOutcome(outcome({ messages: [waiting], timedOut: true }), 'bun', 5000)).toMatchObject({
      failure: 'timeout',
      message: 'no result within 5000 ms while the case waited for main() to call bench.end(); the process was killed',
    });
    expect(judgeOutcome(outcome({ messages: [waiting], exitCode: 1, stderr: 'error: Top-level await promise never resolved' }), 'deno', 5000)).toMatchObject({
      failure: 'crash',
      message: 'the deno process exited with code 1 without a result while the case waited for main() to call bench.end()',
    });
    // Without a wait said, a timeout keeps its advice.
    expect(judgeOutcome(outcome({ timedOut: true }), 'bun', 5000)).toMatchObject({ message: expect.stringContaining('raise --timeout') });
    // A wait that ended in an answer changes nothing.
    expect(judgeOutcome(outcome({ messages: [waiting, result] }), 'bun', 5000).kind).toBe('result');
  });
});

describe('sealJob', () => {
  it('draws a fresh 128-bit token per process and lists the variant environment for the entry', () => {
    const job = { protocol: 1 as const, kind: 'list' as const };
    const a = sealJob(job, { NODE_ENV: 'production' });
    const b = sealJob(job, {});
    expect(a.token).toMatch(/^[0-9a-f]{32}$/);
    expect(a.token).not.toBe(b.token);
    expect(JSON.parse(a.text)).toEqual({ ...job, token: a.token, env: ['NODE_ENV'] });
  });
});

describe('stderrReason', () => {
  it("reads the error a process printed, not the version banner Node and Bun end their stderr with, nor a stack frame", () => {
    const node = "file:///x/bundle.mjs:12\n    throw new Error('broken');\n    ^\n\nError: broken\n    at Array.<anonymous> (file:///x/bundle.mjs:12:11)\n\nNode.js v26.10.0\n";
    expect(stderrReason(node)).toBe('Error: broken');
    expect(stderrReason('error: broken\n      at <anonymous> (/x.mjs:3:9)\nBun v1.4.5 (Linux x64)\n')).toBe('error: broken');
    expect(stderrReason('something odd happened\nNode.js v26.10.0\n')).toBe('something odd happened');
    expect(stderrReason('Node.js v26.10.0\n')).toBeUndefined();
  });
});
