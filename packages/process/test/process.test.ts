/** Processes from the host's side: the job on stdin, and a process that answers but never exits. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodeLine, type Job, type RuntimeMessage } from '@rtbench/core/protocol';
import { judgeOutcome, sealJob } from '../src/job.ts';
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as realTimeout } from 'node:timers';
import { EXIT_GRACE_MS, STDIO_GRACE_MS, exitedUnreaped, liveChildPids, spawnJob, spawnTracked, startJob, type RunningJob } from '../src/process.ts';

const alive = (pid: number): boolean => existsSync(`/proc/${pid}`) && !exitedUnreaped(pid);

/**
 * The host's timeouts and graces on a clock the test moves: each test below
 * waits for the state it needs (an answer, a read of stdin), then moves the
 * clock past the bound, so no test sleeps through a bound and none depends on
 * how fast a loaded machine starts the process. The pipes, the exit and the
 * host's reading of /proc stay real.
 */
function moveTimeouts(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
}
afterEach(() => {
  vi.useRealTimers();
});

/** Waits until `running` has taken `count` messages from its process. */
async function messagesTaken(running: RunningJob, count: number): Promise<void> {
  await vi.waitFor(() => expect(running.reader.messages).toHaveLength(count), { timeout: 60_000 });
}

/** Waits until the main thread of `pid` is blocked in read(2) on its stdin (x86-64 numbers: /proc/<pid>/syscall). */
async function readingStdin(pid: number): Promise<void> {
  await vi.waitFor(() => expect(readFileSync(`/proc/${pid}/syscall`, 'utf8')).toMatch(/^0 0x0 /), { timeout: 60_000 });
}

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

const answers = { LINES: JSON.stringify([encodeLine(hello, 'TOKEN'), encodeLine(result, 'TOKEN')]) };

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
  it('takes a timeout longer than a timer can hold as no sooner than that (not as 1 ms)', async () => {
    const outcome = await spawnJob({ command: process.execPath, args: ['-e', standIn('')], job: sealJob(job, {}), env: answers, timeoutMs: 2_400_000_000 });
    expect(outcome.timedOut).toBe(false);
    expect(judgeOutcome(outcome, 'node', 2_400_000_000).kind).toBe('result');
  });

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
    moveTimeouts();
    const running = startJob({
      command: process.execPath,
      args: ['-e', standIn('setInterval(() => {}, 1000);')],
      job: sealJob(job, {}),
      env: answers,
      timeoutMs: 60_000,
    });
    running.endInput();
    await messagesTaken(running, 2);
    vi.advanceTimersByTime(EXIT_GRACE_MS);
    const outcome = await running.outcome;
    expect(outcome.timedOut).toBe(false);
    expect(outcome.stoppedAfterAnswer).toBe(true);
    expect(judgeOutcome(outcome, 'node', 60_000)).toMatchObject({ kind: 'result' });
    expect(liveChildPids()).toEqual([]);
  });

  it('still fails a process that hangs before it answered (its timeout)', async () => {
    moveTimeouts();
    const running = startJob({
      command: process.execPath,
      args: ['-e', standIn('setInterval(() => {}, 1000);')],
      job: sealJob(job, {}),
      env: { LINES: JSON.stringify([encodeLine(hello, 'TOKEN')]) },
      timeoutMs: EXIT_GRACE_MS + 2_000,
    });
    running.endInput();
    // Its hello taken, past the grace an answer would have had, then to the timeout.
    await messagesTaken(running, 1);
    vi.advanceTimersByTime(EXIT_GRACE_MS + 2_000);
    const outcome = await running.outcome;
    expect(outcome.stoppedAfterAnswer).toBeUndefined();
    expect(judgeOutcome(outcome, 'node', EXIT_GRACE_MS + 2_000)).toMatchObject({ kind: 'failure', failure: 'timeout' });
  });

  // A --timeout of a minute that none of these waits for: without these rules each would end at it.
  it('ends the job when the process answers and exits, though a child it started still holds its stdout; the child is ended and named', async () => {
    const outcome = await spawnJob({
      command: process.execPath,
      args: ['-e', standIn(`require('node:child_process').spawn('sleep', ['2973'], { stdio: 'inherit', detached: true }).unref();`)],
      job: sealJob(job, {}),
      env: { ...answers, PATH: process.env.PATH },
      timeoutMs: 60_000,
    });
    expect(judgeOutcome(outcome, 'node', 60_000).kind).toBe('result');
    expect(outcome.timedOut).toBe(false);
    expect(outcome.leftBehind).toHaveLength(1);
    // SIGKILLed when the job ended; the kernel finishes it a moment later.
    await vi.waitFor(() => expect(alive(outcome.leftBehind![0]!)).toBe(false), { timeout: 30_000 });
  });

  it('ends a process that closes its stdout before answering, and says that is what happened', async () => {
    const outcome = await spawnJob({
      command: process.execPath,
      args: ['-e', standIn('fs.closeSync(1); setInterval(() => {}, 1000);')],
      job: sealJob(job, {}),
      env: { LINES: JSON.stringify([encodeLine(hello, 'TOKEN')]) },
      timeoutMs: 60_000,
    });
    expect(outcome).toMatchObject({ timedOut: false, stdoutClosed: true });
    expect(judgeOutcome(outcome, 'node', 60_000)).toEqual({
      kind: 'failure',
      failure: 'error',
      message: 'the node process closed its stdout, which carries its answer to rtbench, and was ended (a case must not close or redirect stdout)',
    });
  });

  it.runIf(process.arch === 'x64')('names stdin, not --timeout, when the process was blocked reading its stdin', async () => {
    // A lockstep job keeps stdin open for its commands: a case that reads it waits for ever.
    moveTimeouts();
    const running = startJob({
      command: process.execPath,
      args: ['-e', standIn('fs.readSync(0, Buffer.alloc(1), 0, 1, null);')],
      job: sealJob(job, {}),
      env: { LINES: JSON.stringify([encodeLine(hello, 'TOKEN')]) },
      timeoutMs: 5_000,
    });
    await messagesTaken(running, 1);
    await readingStdin(running.pid!);
    vi.advanceTimersByTime(5_000);
    const outcome = await running.outcome;
    expect(outcome).toMatchObject({ timedOut: true, blockedOnStdin: true });
    expect(judgeOutcome(outcome, 'node', 5_000)).toMatchObject({ kind: 'failure', message: expect.stringMatching(/blocked reading its stdin.*a case must not read stdin\)$/) });
  });
  it.runIf(process.arch === 'x64')('does not blame a case for reading stdin while its process waits for the host\'s next command', async () => {
    // A lockstep process that said "ready" and has no sample asked of it reads stdin for the host's next line:
    // a timeout then is the host's wait (a slow sibling), told as a timeout, not as a case that reads stdin.
    moveTimeouts();
    const ready: RuntimeMessage = { type: 'ready', caseId: 'c', iterationsPerSample: 1, warmupIterations: 1, batchNs: 1000 };
    const running = startJob({
      command: process.execPath,
      args: ['-e', standIn('fs.readSync(0, Buffer.alloc(1), 0, 1, null);')],
      job: sealJob({ ...job, kind: 'paced' } as Job, {}),
      env: { LINES: JSON.stringify([encodeLine(hello, 'TOKEN'), encodeLine(ready, 'TOKEN')]) },
      timeoutMs: 2_000,
    });
    await messagesTaken(running, 2);
    await readingStdin(running.pid!);
    vi.advanceTimersByTime(2_000);
    const outcome = await running.outcome;
    expect(outcome.timedOut).toBe(true);
    expect(outcome.blockedOnStdin).toBeUndefined();
    expect(judgeOutcome(outcome, 'node', 2_000)).toMatchObject({ kind: 'failure', failure: 'timeout' });
  });
});

describe('exitedUnreaped', () => {
  it.runIf(process.platform === 'linux')('tells a child that exited but whose exit the host has not taken yet from one still running', async () => {
    const sleeping = spawnTracked({ command: '/bin/sleep', args: ['30'], env: {} });
    const quick = spawnTracked({ command: '/bin/true', args: [], env: {} });
    // The host's loop is held here, so it cannot reap `true`: its end shows only as state Z.
    const deadline = Date.now() + 20_000;
    while (!exitedUnreaped(quick.child.pid!) && Date.now() < deadline);
    expect(exitedUnreaped(quick.child.pid!)).toBe(true);
    expect(exitedUnreaped(sleeping.child.pid!)).toBe(false);
    sleeping.child.kill('SIGKILL');
    await Promise.all([sleeping.exited, quick.exited]);
  });
});

describe('spawnTracked', () => {
  it('reads a process\'s last output though the host was busy for longer than the pipe grace after the exit', async () => {
    // More than the stream's buffer takes while paused and less than that and the pipe together: part of the output
    // waits in the pipe at the exit, as it does when the host is slow to read.
    const size = 120 << 10;
    moveTimeouts();
    const { child, exited } = spawnTracked({ command: process.execPath, args: ['-e', `require('node:fs').writeSync(1, 'v'.repeat(${size}))`], env: {} });
    let out = '';
    child.stdout!.pause();
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.once('exit', () => {
      // The host busy for longer than the grace (a scan of a large binary, a loaded machine): in the loop's next
      // turn the grace has passed when timers run, and timers come before I/O. The host's clock is moved past the
      // grace by a timer that is due when that turn begins (it is held here for longer than its 1 ms).
      realTimeout(() => vi.advanceTimersByTime(STDIO_GRACE_MS), 1);
      const until = performance.now() + 5;
      while (performance.now() < until);
      child.stdout!.resume();
    });
    const exit = await exited;
    expect(exit.pipeHeld).toBeUndefined();
    expect(out.length).toBe(size);
  });
});
