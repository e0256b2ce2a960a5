/**
 * The CLI killed hard (SIGKILL: no handler runs) in the middle of a job that
 * never ends: the runtime process, workerd's port and its job directory must
 * not outlive it. Linux only (reads /proc).
 */
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { fixture, spawnCli, tempFile } from '../helpers/cli.ts';
import { JOB_DIR_PREFIX } from '../../runners/workerd/src/run-job.ts';

interface Proc {
  pid: number;
  ppid: number;
  cmdline: string;
}

function processes(): Proc[] {
  const out: Proc[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      out.push({ pid: Number(entry), ppid, cmdline });
    } catch {
      /* exited meanwhile */
    }
  }
  return out;
}

const alive = (pid: number): boolean => existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');

/** TCP ports a process listens on (its socket inodes matched against /proc/net/tcp). */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      /* closed meanwhile */
    }
  }
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f[3] === '0A' && inodes.has(f[9]!))
    .map((f) => parseInt(f[1]!.split(':')[1]!, 16));
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.on('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', () => resolve(true));
  });
}

/** `f`'s value once it has one, asked every `everyMs`: a scan of /proc costs a few ms of CPU, a process's own file far less. */
async function until<T>(what: string, f: () => T | undefined, ms = 120_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = f();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
/** Until the process `pid` has ended (gone, or a zombie), asked often: one file read. */
const ended = (what: string, pid: number): Promise<true> => until(what, () => (alive(pid) ? undefined : true), 30_000, 10);

// One after the other: side by side, four CLIs starting at once took more CPU and no less time on a busy machine.
describe.each(['node', 'deno', 'bun', 'workerd'])('the CLI SIGKILLed during a hanging job on %s', (runtime) => {
  it('leaves no runtime process, no listening port and no job directory behind', async () => {
    const cli = spawnCli(['bench', fixture('hang'), '--runtime', runtime, '--rounds', '1', '--time', '10ms', '--warmup', '5ms', '--fixed-warmup', '--timeout', '10m', '--save', tempFile('hang.json'), '--quiet']);
    let stderr = '';
    cli.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<void>((resolve) => cli.on('close', () => resolve()));
    const cliPid = cli.pid!;
    // This run's runtime processes: its bundle for this runtime, or (workerd) its job directory.
    const ofThisRun = (p: Proc): boolean => p.cmdline.includes(`fixtures/hang/index.ts/${runtime}-`) || p.cmdline.includes(`${JOB_DIR_PREFIX}${cliPid}-`);
    try {
      // The hanging job: a child of the CLI running the hang bundle (or, for workerd, serving its job config).
      const job = await until(`a ${runtime} job (${stderr})`, () => processes().find((p) => p.ppid === cliPid && ofThisRun(p)));
      const warden = processes().find((p) => p.ppid === cliPid && p.cmdline.includes('warden.mjs'));
      expect(warden, 'the warden runs beside the CLI').toBeDefined();
      let port: number | undefined;
      let jobDir: string | undefined;
      if (runtime === 'workerd') {
        port = await until('workerd to listen', () => listeningPorts(job.pid)[0]);
        jobDir = /(\S*rtbench-workerd-\d+-\w+)\/config\.capnp/.exec(job.cmdline)?.[1];
        expect(jobDir && existsSync(jobDir)).toBe(true);
      }
      // Kill the CLI without giving it a chance to clean up. At once: the warden is told of a runtime's process group as
      // it is spawned (process/src/warden.ts), so where in its job the kill lands changes nothing but the CPU it spins.
      process.kill(cliPid, 'SIGKILL');
      await exited;

      await ended(`the ${runtime} process ${job.pid} to end`, job.pid);
      await ended('the warden to end', warden!.pid);
      expect(processes().filter(ofThisRun)).toEqual([]);
      if (port !== undefined) expect(await refused(port)).toBe(true);
      if (jobDir !== undefined) expect(existsSync(jobDir)).toBe(false);
      // bun's and workerd's GC traces go through a file in a directory of the CLI's: the warden removes it too.
      expect(readdirSync(tmpdir()).filter((name) => name.startsWith(`rtbench-trace-${cliPid}-`))).toEqual([]);
    } finally {
      if (alive(cliPid)) process.kill(cliPid, 'SIGKILL');
    }
  });
});

describe('the CLI killed by SIGHUP (its terminal closed) during a hanging job', () => {
  it('leaves no runtime process behind', async () => {
    const cli = spawnCli(['bench', fixture('hang'), '--runtime', 'node', '--rounds', '1', '--time', '10ms', '--warmup', '5ms', '--fixed-warmup', '--timeout', '10m', '--save', tempFile('hang.json'), '--quiet']);
    const exited = new Promise<void>((resolve) => cli.on('close', () => resolve()));
    const cliPid = cli.pid!;
    try {
      const job = await until('a node job', () => processes().find((p) => p.ppid === cliPid && p.cmdline.includes('fixtures/hang/index.ts/')));
      process.kill(cliPid, 'SIGHUP');
      await exited;
      await ended(`the node process ${job.pid} to end`, job.pid);
    } finally {
      if (alive(cliPid)) process.kill(cliPid, 'SIGKILL');
    }
  });
});

