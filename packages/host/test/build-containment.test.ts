/**
 * A build step is the app's code: it reaches no network but its own
 * loopback nor a host service's socket file, writes nowhere but its folder (and a /tmp of its own, where its tools'
 * config and cache folders are), whatever it starts (a detached daemon included) ends with it,
 * and one that never finishes or writes past its bound ends with one line. One node
 * process per test, a daemon each.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolation } from '@rtbench/process';
import { AppBuildFailed, runBuildStep } from '../src/app-build.ts';
import { appWithVersions } from '../src/app-versions.ts';

/** A build step that records what it could reach and starts a daemon in its own session, then ends (or hangs). */
const STEP = `
const { spawn } = require('node:child_process');
if (process.argv[3] === 'loud') {
  // It exits at once after its flood: through a pipe node would still hold most of it, its last line with it.
  const mib = 'x'.repeat((1 << 20) - 1) + '\\n';
  for (let i = 0; i < 8; i++) process.stdout.write(mib);
  console.error('error: the config printed too much');
  process.exit(1);
}
if (process.argv[3] === 'fill') {
  const fs = require('node:fs');
  // Its /tmp is a tmpfs of the bound's size (given as argv[4] in MiB): a file past it does not fit.
  try { fs.writeFileSync('/tmp/fill.bin', Buffer.alloc((Number(process.argv[4]) + 1) << 20)); console.log('tmp: written'); } catch (e) { console.log('tmp: ' + e.code); }
  console.log('error: still filling its folder');
  const quarter = Buffer.alloc(1 << 18, 1);
  setInterval(() => fs.appendFileSync('fill.bin', quarter), 20);
  return;
}
const net = require('node:net');
const fs = require('node:fs');
// Named by its folder: inside a PID namespace its PID is not the host's.
spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', process.cwd()], { detached: true, stdio: 'ignore' }).unref();
const tried = (host, port) => new Promise((done) => {
  const s = host === undefined ? net.connect(port) : net.connect(port, host);
  s.on('connect', () => { s.destroy(); done('connected'); });
  s.on('error', (e) => done(e.code));
});
(async () => {
  const own = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => own.once('listening', r));
  const reached = { host: await tried('127.0.0.1', Number(process.argv[2])), own: await tried('127.0.0.1', own.address().port) };
  own.close();
  // A host service's Unix socket under /run (a file, not an address: the network namespace does not hold it).
  if (process.argv[6]) reached.run = await tried(undefined, process.argv[6]);
  // One in the user's home (an agent's, a container daemon's): a read-only bind does not stop a connect either.
  if (process.argv[7]) reached.homeSocket = await tried(undefined, process.argv[7]);
  // Others beside the host's folders (a service's under /srv, a container's under /var/lib).
  for (const [i, name] of [[8, 'srvSocket'], [9, 'varLibSocket']]) if (process.argv[i]) reached[name] = await tried(undefined, process.argv[i]);
  // Outside its folder: the user's home (read-only to it) and /tmp (its own, dropped when it ends).
  const attempt = (file) => { try { fs.writeFileSync(file, 'x'); return 'written'; } catch (e) { return e.code; } };
  // A tool's own log under its config folder (wrangler's ~/.config/.wrangler), its folders made as it goes.
  const path = require('node:path');
  const configDir = path.join(process.env.XDG_CONFIG_HOME || path.join(require('node:os').homedir(), '.config'), '.' + path.basename(process.cwd()));
  const toolLog = () => { fs.mkdirSync(configDir, { recursive: true }); fs.writeFileSync(path.join(configDir, 'log'), 'x'); return 'written'; };
  const wrote = { home: attempt(process.argv[4]), tmp: attempt(process.argv[5]), config: (() => { try { return toolLog(); } catch (e) { return e.code; } })() };
  fs.writeFileSync('reached.json', JSON.stringify({ ...reached, wrote }));
  if (process.argv[3] === 'write') fs.writeFileSync(process.argv[4], 'x');
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

/**
 * The processes naming `dir` once those ended with the step are gone: a
 * SIGKILLed daemon may take a moment to leave /proc on a loaded machine, one
 * that was never ended stays past the wait.
 */
function leftNamingDir(dir: string): string[] {
  const deadline = Date.now() + 3000;
  while (namingDir(dir).length > 0 && Date.now() < deadline) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  return namingDir(dir);
}

/** Two registries answering 404 to everything: their ports as a line, then each request as `<name> <url>` (on SIGTERM, what was asked). */
const REGISTRIES = `
const http = require('node:http');
const asked = [];
const ports = {};
let open = 2;
for (const name of ['planted', 'configured']) {
  const s = http.createServer((q, a) => { asked.push(name + ' ' + q.url); a.writeHead(404, { 'content-type': 'application/json' }).end('{}'); });
  s.listen(0, '127.0.0.1', () => { ports[name] = s.address().port; if (--open === 0) process.stdout.write(JSON.stringify(ports) + '\\n'); });
}
process.on('SIGTERM', () => process.stdout.write(asked.join('\\n') + '\\n', () => process.exit(0)));
`;

const namespaces = isolation().unshare !== undefined;

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

  // A host service on a socket file under /run, where a container daemon's or a session bus's lives (where this user may make one).
  let runSocket = '';
  let runConnections = 0;
  const runServer = createServer((socket) => {
    runConnections++;
    socket.destroy();
  });
  beforeAll(async () => {
    const path = `/run/rtbench-build-step-${process.pid}.sock`;
    try {
      await new Promise<void>((resolve, reject) => runServer.once('error', reject).listen(path, resolve));
      runSocket = path;
    } catch {
      // Not this user's to write: the step is not asked to try.
    }
  });
  afterAll(() => runServer.close());

  // Host services on socket files under /srv and /var/lib, each in a folder of its own (where this user may make one).
  const elsewhere: Record<'srvSocket' | 'varLibSocket', string> = { srvSocket: '', varLibSocket: '' };
  let elsewhereConnections = 0;
  const elsewhereServers: Server[] = [];
  beforeAll(async () => {
    for (const [name, root] of [['srvSocket', '/srv'], ['varLibSocket', '/var/lib']] as const) {
      const folder = join(root, `rtbench-build-step-${process.pid}`);
      const server = createServer((socket) => {
        elsewhereConnections++;
        socket.destroy();
      });
      try {
        mkdirSync(folder, { recursive: true });
        await new Promise<void>((resolve, reject) => server.once('error', reject).listen(join(folder, 'sock'), resolve));
        elsewhere[name] = join(folder, 'sock');
        elsewhereServers.push(server);
      } catch {
        // Not this user's to write: the step is not asked to try.
      }
    }
  });
  afterAll(() => {
    for (const server of elsewhereServers) server.close();
    for (const root of ['/srv', '/var/lib']) rmSync(join(root, `rtbench-build-step-${process.pid}`), { recursive: true, force: true });
  });

  // A host service on a socket file in the user's home (removed with the home files below).
  const homeSocket = join(homedir(), `.rtbench-build-step-${process.pid}.sock`);
  let homeConnections = 0;
  const homeServer = createServer((socket) => {
    homeConnections++;
    socket.destroy();
  });
  beforeAll(() => new Promise<void>((resolve) => homeServer.listen(homeSocket, resolve)));
  afterAll(() => homeServer.close());

  const stepIn = (): string => {
    // Its real path: the step's daemon is named by its working folder.
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'rtbench-build-step-')));
    writeFileSync(join(dir, 'step.cjs'), STEP);
    return dir;
  };

  /** Files outside a step's folder it tries to write: in the user's home, and in /tmp. */
  const outside = (dir: string): [string, string] => [join(homedir(), `.${basename(dir)}`), `${dir}.tmp`];
  /** Where a step in `dir` keeps its tool's log when nothing holds its writes: the user's config folder. */
  const toolConfig = (dir: string): string => join(homedir(), '.config', `.${basename(dir)}`);
  afterAll(() => {
    for (const file of readdirSync(homedir()).filter((f) => f.startsWith('.rtbench-build-step-'))) rmSync(join(homedir(), file), { force: true });
    const config = join(homedir(), '.config');
    if (existsSync(config)) for (const f of readdirSync(config).filter((f) => f.startsWith('.rtbench-build-step-'))) rmSync(join(config, f), { recursive: true, force: true });
  });

  it.runIf(namespaces)("reaches its own loopback but not the host's, writes only its folder, and leaves no process behind", () => {
    const dir = stepIn();
    const [home, tmp] = outside(dir);
    runBuildStep('planted step', process.execPath, 'step.cjs', [String(port), 'end', home, tmp, runSocket, homeSocket, elsewhere.srvSocket, elsewhere.varLibSocket], dir, join(dir, 'build.log'));
    const reached = JSON.parse(readFileSync(join(dir, 'reached.json'), 'utf8')) as { host: string; own: string };
    // With its writes held, the step's /run is a tmpfs of its own: the host's socket files there are not in it.
    const run = runSocket ? { run: isolation().writesHeld ? 'ENOENT' : 'connected' } : {};
    // Its home is a read-only overlay, where a socket file refuses a connect; any other the host bound is covered by /dev/null.
    const refused = isolation().writesHeld ? 'ECONNREFUSED' : 'connected';
    const others = Object.fromEntries(Object.entries(elsewhere).flatMap(([name, path]) => (path ? [[name, refused]] : [])));
    // A tool's log in its config folder is written (in the step's own /tmp, where XDG_CONFIG_HOME points) and dropped.
    expect(reached).toEqual({ host: 'ECONNREFUSED', own: 'connected', ...run, homeSocket: refused, ...others, wrote: { home: isolation().writesHeld ? 'EROFS' : 'written', tmp: 'written', config: 'written' } });
    expect(connections).toBe(0);
    if (isolation().writesHeld) expect([runConnections, homeConnections, elsewhereConnections]).toEqual([0, 0, 0]);
    expect(leftNamingDir(dir)).toEqual([]);
    if (isolation().writesHeld) expect([existsSync(home), existsSync(tmp), existsSync(toolConfig(dir))]).toEqual([false, false, false]);
  });

  it.runIf(isolation().writesHeld)('that writes outside its folder fails in one line naming the write', () => {
    const dir = stepIn();
    const [home, tmp] = outside(dir);
    const log = join(dir, 'build.log');
    expect(() => runBuildStep('planted step', process.execPath, 'step.cjs', [String(port), 'write', home, tmp], dir, log)).toThrow(
      `planted step failed (exit 1): Error: EROFS: read-only file system, open '${home}' (its output: ${log})`,
    );
    expect(existsSync(home)).toBe(false);
  });

  it('that prints 8 MiB fails in its own line, its log holding its first and last MiB and saying what it left out', () => {
    const dir = stepIn();
    const log = join(dir, 'build.log');
    try {
      // 8 lines of 1 MiB and the error's line of 35 bytes, less the two MiB kept.
      const dropped = 8 * 2 ** 20 + 35 - 2 * 2 ** 20;
      expect(() => runBuildStep('planted step', process.execPath, 'step.cjs', [String(port), 'loud'], dir, log)).toThrow(
        `planted step failed (exit 1): error: the config printed too much (its output: ${log}, 6 MiB of its middle left out (its first 1 MiB and last 1 MiB kept))`,
      );
      const text = readFileSync(log, 'utf8');
      expect(text.length).toBeLessThan(3 * 2 ** 20);
      expect(text).toContain(`\n[rtbench: ${dropped} bytes of this output left out here; the first 1048576 and the last 1048576 bytes are kept]\n`);
      expect(text.endsWith('x\nerror: the config printed too much\n')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('that writes past its bound is stopped in one line saying so, and its /tmp holds no more than the bound', () => {
    const dir = stepIn();
    const log = join(dir, 'build.log');
    try {
      let failure: unknown;
      try {
        runBuildStep('planted step', process.execPath, 'step.cjs', [String(port), 'fill', '2'], dir, log, {}, 120_000, 2 * 2 ** 20);
      } catch (error) {
        failure = error;
      }
      expect(failure).toBeInstanceOf(AppBuildFailed);
      expect((failure as Error).message).toMatch(
        /^planted step wrote \d+(\.\d)? MiB into its build folder, over the bound of 2 MiB on what a build step writes, and was stopped \(RTBENCH_BUILD_WRITES=<size> sets another\); its last line: error: still filling its folder \(its output: .*build\.log\)$/,
      );
      if (isolation().writesHeld) expect(readFileSync(log, 'utf8')).toContain('tmp: ENOSPC');
      expect(leftNamingDir(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes its write bound from RTBENCH_BUILD_WRITES when none is passed, and refuses one that is not a size in one line', () => {
    const dir = stepIn();
    const log = join(dir, 'build.log');
    // RTBENCH_BUILD_TIMEOUT too: were the write bound not read, the step would end at 20 s, not at 4 GiB.
    const run = (size: string): unknown => {
      const given = { ...process.env };
      Object.assign(process.env, { RTBENCH_BUILD_WRITES: size, RTBENCH_BUILD_TIMEOUT: '20' });
      try {
        runBuildStep('planted step', process.execPath, 'step.cjs', [String(port), 'fill', '3'], dir, log);
        return undefined;
      } catch (error) {
        return error;
      } finally {
        process.env = given;
      }
    };
    try {
      const stopped = run('3MiB');
      expect(stopped).toBeInstanceOf(AppBuildFailed);
      expect((stopped as Error).message).toMatch(/^planted step wrote \d+(\.\d)? MiB into its build folder, over the bound of 3 MiB on what a build step writes, and was stopped /);
      expect(leftNamingDir(dir)).toEqual([]);
      const refused = run('lots');
      expect(refused).toBeInstanceOf(AppBuildFailed);
      expect((refused as Error).message).toMatch(/^RTBENCH_BUILD_WRITES=lots is not a size above 0: /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
    expect(leftNamingDir(dir)).toEqual([]);
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
    expect(leftNamingDir(dir)).toEqual([]);
  });
});

describe("an arm's install", () => {
  /**
   * Runs `install` with the two registries up (in a process of their own: the install is synchronous and
   * holds this one's event loop) and npm's settings only as `install` sets them; what they were asked.
   */
  async function askedDuring(install: (url: (name: 'planted' | 'configured') => string) => void): Promise<string> {
    const registries = spawn(process.execPath, ['-e', REGISTRIES], { stdio: ['ignore', 'pipe', 'inherit'] });
    const ports = await new Promise<{ planted: number; configured: number }>((resolve) => registries.stdout.once('data', (line: Buffer) => resolve(JSON.parse(String(line)))));
    const saved = { ...process.env };
    // The user's own npm settings, as npm finds them: nothing else names a registry.
    for (const key of Object.keys(process.env)) if (/^npm_config_/i.test(key)) delete process.env[key];
    try {
      install((name) => `http://127.0.0.1:${ports[name]}/`);
    } finally {
      process.env = saved;
      registries.kill();
    }
    return new Promise<string>((resolve) => {
      let text = '';
      registries.stdout.on('data', (chunk: Buffer) => (text += String(chunk))).on('end', () => resolve(text));
    });
  }

  const installIn = (app: string, pins: Readonly<Record<string, string>>): unknown => appWithVersions(app, { copies: join(app, 'copies'), installs: join(app, 'installs') }, pins);

  it("asks the registry the user configured, never one the app's .npmrc names, and quotes npm's cause", { timeout: 90_000 }, async () => {
    const app = realpathSync(mkdtempSync(join(tmpdir(), 'rtbench-arm-install-')));
    const asked = await askedDuring((url) => {
      writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', dependencies: { '@planted/lib': '1.0.0' } }));
      writeFileSync(join(app, '.npmrc'), `registry=${url('planted')}\n@planted:registry=${url('planted')}\nlegacy-peer-deps=true\n`);
      const userconfig = join(app, 'user.npmrc');
      writeFileSync(userconfig, `registry=${url('configured')}\nfetch-retries=0\n`);
      process.env.npm_config_userconfig = userconfig;
      expect(() => installIn(app, { '@planted/lib': '2.0.0' })).toThrow(`npm install of @planted/lib@2.0.0 failed (exit 1): 404 Not Found - GET ${url('configured')}@planted%2flib`);
    });
    expect(asked).not.toContain('planted ');
    expect(asked).toContain('configured /@planted%2flib');
  });

  it('fetches no dependency named by its git repository, saying so in one line', { timeout: 90_000 }, async () => {
    const app = realpathSync(mkdtempSync(join(tmpdir(), 'rtbench-arm-install-')));
    const asked = await askedDuring((url) => {
      writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', dependencies: { lib: `git+${url('planted')}lib.git` } }));
      process.env.npm_config_registry = url('configured');
      expect(() => installIn(app, {})).toThrow(
        /^npm install of {2}failed \(exit 128\): a dependency is fetched from a git repository \(over http\), which an arm's install does not reach: it asks the configured registry alone$/,
      );
    });
    expect(asked).not.toContain('planted ');
  });
});

/** Waits until `done` holds, checking every 50 ms; the test's own time-out bounds it. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 50));
}
