/**
 * A start-up round whose served program never listens: worded as a load or
 * request round words it (load.ts notListening), with the server's last
 * error, on a served program that is a stand-in (no process is started).
 */
import { describe, expect, it } from 'vitest';
import type { ServedProgram } from '@rtbench/runtime-kit';
import { Tail, type ChildExit } from '@rtbench/process';
import { timeFirstResponse } from '../src/startup.ts';
import type { RunnableVariant } from '../src/variant.ts';

/** A served program that ends on its own with `exit` after printing `said`, or (exit undefined) runs until killed. */
function standIn(said: string, exit: ChildExit | undefined): ServedProgram {
  const output = new Tail();
  output.push(said);
  let end!: (exit: ChildExit) => void;
  const exited = new Promise<ChildExit>((resolve) => (end = resolve));
  let killed = false;
  if (exit) end(exit);
  return {
    pid: undefined,
    listening: exited.then(() => undefined),
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
