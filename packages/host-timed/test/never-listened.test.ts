/**
 * A server that never listens, in one wording for start-up, request and
 * load rounds (server.ts notListening): how it ended with its last error, or
 * the runtime, the wait for its port and the time-out; and a start-up
 * server that answers an error, said as the other rounds say it. On
 * stand-ins: no process is started.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { ServedProgram } from '@rtbench/runtime-kit';
import { Tail, type ChildExit } from '@rtbench/process';
import { notListening } from '../src/server.ts';
import { runRequestRound } from '../src/request/round.ts';
import { timeFirstResponse } from '../src/startup.ts';
import type { RunnableVariant } from '../src/variant.ts';

/** A served program that ends on its own with `exit` after printing `said`, or (exit undefined) runs until killed; listening on `port` when given. */
function standIn(said: string, exit: ChildExit | undefined, port?: number): ServedProgram {
  const output = new Tail();
  output.push(said);
  let end!: (exit: ChildExit) => void;
  const exited = new Promise<ChildExit>((resolve) => (end = resolve));
  let killed = false;
  if (exit) end(exit);
  return {
    pid: undefined,
    listening: port === undefined ? exited.then(() => undefined) : Promise.resolve(port),
    output,
    exited,
    kill() {
      killed = true;
      end({ code: null, signal: 'SIGKILL' });
    },
    get killed() {
      return killed;
    },
    cleanup() {},
  };
}

const workerd = (program: () => ServedProgram): RunnableVariant =>
  ({ id: 'workerd', plugin: { name: 'workerd', displayName: 'workerd', programs: { kind: 'server', serve: program } }, target: {}, flags: { args: [], env: {} } }) as unknown as RunnableVariant;

/** A runtime that runs programs as processes (none is started here). */
const node = { id: 'node', plugin: { name: 'node', displayName: 'Node.js', programs: { kind: 'process' } }, target: {}, flags: { args: [], env: {} } } as unknown as RunnableVariant;

describe('a served start-up program that never listens', () => {
  it("is a crash that names how the server ended and its last error line, in the load round's words", async () => {
    const said = 'workerd/server/server.c++:1234: error: script startup threw: Error: no config for this region\n    at top (program.js:3:9)\n';
    const outcome = await timeFirstResponse(workerd(() => standIn(said, { code: 1, signal: null })), 'program.js', { timeoutMs: 60_000 });
    expect(outcome).toMatchObject({ ok: false, kind: 'crash', message: 'the workerd server exited with code 1 before it listened (workerd/server/server.c++:1234: error: script startup threw: Error: no config for this region)' });
  });

  it('that is still running when its time runs out is a time-out, said as the other rounds say it', async () => {
    const outcome = await timeFirstResponse(workerd(() => standIn('', undefined)), 'program.js', { timeoutMs: 20 });
    expect(outcome).toMatchObject({ ok: false, kind: 'timeout', message: 'the workerd server did not report a port within 20 ms' });
  });
});

describe('a request server that prints nothing and never listens', () => {
  it('is a time-out in one line naming the runtime, the wait for its port and the time-out', async () => {
    const outcome = await runRequestRound(workerd(() => standIn('', undefined)), { serverPath: 'handler.js', requests: [], emptyRequests: 0, requestTimeoutMs: 1_000, timeoutMs: 20 });
    expect(outcome).toMatchObject({ ok: false, kind: 'timeout', message: 'the workerd server did not report a port within 20 ms' });
  });

  it('run as a process, says what it was expected to print (a brought server may not know)', async () => {
    const silent = { output: new Tail(), exited: new Promise<ChildExit>(() => {}), alive: () => true };
    const failure = await notListening(node, silent, 20_000);
    expect(failure).toMatchObject({ kind: 'timeout', message: 'the node server did not report a port within 20000 ms (a server run as a process prints "listening <port>" first)' });
    expect(failure.message).not.toContain('\n');
  });
});

describe('a served start-up program that answers an error', () => {
  it('fails in the words a request round uses: the runtime, the status, the request, the body\'s first line', async () => {
    // The server in this process stands in for the runtime's: it answers every request with an error page.
    const server = createServer((_, res) => res.writeHead(500).end('Error: the template is missing\n    at render (program.js:9:3)\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const outcome = await timeFirstResponse(workerd(() => standIn('', undefined, port)), 'program.js', { timeoutMs: 60_000 });
      expect(outcome).toMatchObject({ ok: false, kind: 'error', message: 'the workerd server answered 500 to its first request, GET / (Error: the template is missing)' });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
