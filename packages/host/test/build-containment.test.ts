/**
 * A build step is the app's code: it reaches no network but its own
 * loopback, whatever it starts (a detached daemon included) ends with it,
 * and one that never finishes ends at its bound with one line. One node
 * process per test, a daemon each.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolation } from '@rtbench/process';
import { AppBuildFailed, runBuildStep } from '../src/app-build.ts';

/** A build step that records what it could reach and starts a daemon in its own session, then ends (or hangs). */
const STEP = `
const { spawn } = require('node:child_process');
const net = require('node:net');
const fs = require('node:fs');
// Named by its folder: inside a PID namespace its PID is not the host's.
spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', process.cwd()], { detached: true, stdio: 'ignore' }).unref();
const tried = (host, port) => new Promise((done) => {
  const s = net.connect(port, host);
  s.on('connect', () => { s.destroy(); done('connected'); });
  s.on('error', (e) => done(e.code));
});
(async () => {
  const own = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => own.once('listening', r));
  const reached = { host: await tried('127.0.0.1', Number(process.argv[2])), own: await tried('127.0.0.1', own.address().port) };
  own.close();
  fs.writeFileSync('reached.json', JSON.stringify(reached));
  if (process.argv[3] === 'hang') { console.log('error: still waiting for the config'); setInterval(() => {}, 1000); }
})();
`;

/** Processes whose command line names `dir` (the step's daemon). */
const namingDir = (dir: string): string[] =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(dir);
      } catch {
        return false;
      }
    });

const namespaces = isolation().prefix !== undefined;

describe('a build step', () => {
  let server: Server;
  let port = 0;
  let connections = 0;
  beforeAll(async () => {
    server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => server.close());

  const stepIn = (): string => {
    // Its real path: the step's daemon is named by its working folder.
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'rtbench-build-step-')));
    writeFileSync(join(dir, 'step.cjs'), STEP);
    return dir;
  };

  it.runIf(namespaces)("reaches its own loopback but not the host's, and leaves no process behind", () => {
    const dir = stepIn();
    runBuildStep('planted step', process.execPath, 'step.cjs', [String(port)], dir, join(dir, 'build.log'));
    const reached = JSON.parse(readFileSync(join(dir, 'reached.json'), 'utf8')) as { host: string; own: string };
    expect(reached).toEqual({ host: 'ECONNREFUSED', own: 'connected' });
    expect(connections).toBe(0);
    expect(namingDir(dir)).toEqual([]);
  });

  it('that never finishes ends at its bound in one line naming the step and the bound, its daemon ended', () => {
    const dir = stepIn();
    const log = join(dir, 'build.log');
    let failure: unknown;
    try {
      runBuildStep('planted step', process.execPath, 'step.cjs', [String(port), 'hang'], dir, log, {}, 4000);
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(AppBuildFailed);
    expect((failure as Error).message).toBe(
      `planted step did not finish within 4 s and was ended with every process it started (the bound on a build step; RTBENCH_BUILD_TIMEOUT=<seconds> sets another); its last line: error: still waiting for the config (its output: ${log})`,
    );
    expect(namingDir(dir)).toEqual([]);
  });

  it('leaves no process behind when the CLI running it is SIGKILLed mid-step', { timeout: 60_000 }, async () => {
    const dir = stepIn();
    const host = join(dir, 'host.ts');
    writeFileSync(host, `import { runBuildStep } from ${JSON.stringify(join(import.meta.dirname, '../src/app-build.ts'))};\nrunBuildStep('planted step', process.execPath, 'step.cjs', ['${port}', 'hang'], ${JSON.stringify(dir)}, 'build.log', {}, 120_000);\n`);
    const cli = spawn(process.execPath, ['--import', 'tsx', host], { stdio: 'ignore' });
    let gone = false;
    const exited = new Promise((resolve) => cli.once('exit', resolve)).then(() => (gone = true));
    await until(() => gone || namingDir(dir).length > 0);
    expect(gone).toBe(false);
    cli.kill('SIGKILL');
    await exited;
    // The warden ends the step's processes once it sees the CLI's pipe close.
    await until(() => namingDir(dir).length === 0);
    expect(namingDir(dir)).toEqual([]);
  });
});

/** Waits until `done` holds, checking every 50 ms; the test's own time-out bounds it. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 50));
}
