/** Processes from the host's side: the job on stdin, and a process that answers but never exits. */
import { describe, expect, it } from 'vitest';
import { encodeLine, type Job, type RuntimeMessage } from '@rtbench/core/protocol';
import { judgeOutcome, sealJob } from '../src/job.ts';
import { EXIT_GRACE_MS, liveChildPids, spawnJob } from '../src/index.ts';

const job: Job = { protocol: 1, kind: 'measure', caseId: 'c', options: { warmupMs: 1, timeMs: 1, minSamples: 1, maxSamples: 10, sampleMs: 0 } };
const hello: RuntimeMessage = { type: 'hello', protocol: 1, facts: { runtime: 'node', version: '26', engine: 'v8', engineVersion: '14', gcExposed: false } };
const result: RuntimeMessage = {
  type: 'result',
  caseId: 'c',
  digest: { hash: '0123456789abcdef', summary: '1' },
  clock: { name: 'c', resolutionNs: 1, readCostNs: 1, edgeAligned: false },
  samples: [1, 2, 3],
  iterationsPerSample: 1,
  warmupIterations: 0,
  async: false,
};

/** A stand-in runtime: reads the job's first line from stdin, prints `lines` with the job's token, then does `then`. */
function standIn(then: string): string {
  return `
    const fs = require('node:fs');
    const buf = Buffer.alloc(65536);
    let text = '';
    while (!text.includes('\\n')) { const n = fs.readSync(0, buf, 0, buf.length, null); if (n <= 0) break; text += buf.toString('utf8', 0, n); }
    const job = JSON.parse(text.slice(0, text.indexOf('\\n')));
    for (const line of JSON.parse(process.env.LINES)) fs.writeSync(1, line.replace('TOKEN', job.token) + '\\n');
    ${then}
  `;
}

describe('spawnJob', () => {
  it('hands the job over stdin, not the command line', async () => {
    const sealed = sealJob(job, {});
    const outcome = await spawnJob({
      command: process.execPath,
      args: ['-e', standIn('fs.writeSync(1, require("node:fs").readFileSync("/proc/self/cmdline", "utf8").includes(job.token) ? "LEAK\\n" : "clean\\n");')],
      job: sealed,
      env: { LINES: JSON.stringify([encodeLine(hello, 'TOKEN'), encodeLine(result, 'TOKEN')]) },
      timeoutMs: 30_000,
    });
    expect(judgeOutcome(outcome, 'node', 30_000).kind).toBe('result');
    expect(outcome.stderr).toContain('clean');
  });

  it(`ends a process that answered but does not exit within ${EXIT_GRACE_MS} ms, and keeps its answer`, async () => {
    const sealed = sealJob(job, {});
    const outcome = await spawnJob({
      command: process.execPath,
      args: ['-e', standIn('setInterval(() => {}, 1000);')],
      job: sealed,
      env: { LINES: JSON.stringify([encodeLine(hello, 'TOKEN'), encodeLine(result, 'TOKEN')]) },
      timeoutMs: 60_000,
    });
    expect(outcome.timedOut).toBe(false);
    expect(outcome.stoppedAfterAnswer).toBe(true);
    expect(judgeOutcome(outcome, 'node', 60_000)).toMatchObject({ kind: 'result' });
    expect(liveChildPids()).toEqual([]);
  });

  it('still fails a process that hangs before it answered (its timeout)', async () => {
    const sealed = sealJob(job, {});
    const outcome = await spawnJob({
      command: process.execPath,
      args: ['-e', standIn('setInterval(() => {}, 1000);')],
      job: sealed,
      env: { LINES: JSON.stringify([encodeLine(hello, 'TOKEN')]) },
      timeoutMs: EXIT_GRACE_MS + 2_000,
    });
    expect(outcome.stoppedAfterAnswer).toBeUndefined();
    expect(judgeOutcome(outcome, 'node', EXIT_GRACE_MS + 2_000)).toMatchObject({ kind: 'failure', failure: 'timeout' });
  });
});
