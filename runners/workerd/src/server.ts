/**
 * One workerd process serving one config. It is started as the leader of its
 * own process group through @rtbench/process's spawnTracked, so liveChildPids() and
 * killAllChildren() (Ctrl-C, the host's exit) cover it like any other
 * runtime; its port comes from --control-fd; it is stopped by PID.
 */
import type { Readable } from 'node:stream';
import { killTree, spawnTracked, Tail, TraceFile, wrapped, type ChildExit, type TraceFilter } from '@rtbench/process';
import { SOCKET_NAME } from './config.ts';

/** The inspector on a port the kernel picks; it comes back on the control fd (`listen-inspector`). */
export const INSPECTOR_OPTION = '--inspector-addr=127.0.0.1:0';

export interface WorkerdProcess {
  /** The process's PID (it leads its own process group). */
  readonly pid: number | undefined;
  /** The bound port, or undefined if workerd ended before listening (bad config or flag). */
  listening: Promise<number | undefined>;
  /** The inspector's port when started with --inspector-addr (its `listen-inspector` event on the control fd); undefined otherwise or if workerd ended first. */
  inspector: Promise<number | undefined>;
  /** workerd's stdout and stderr: its own errors, the worker's console, V8 traces. */
  output: Tail;
  /** Resolves when the process has ended. */
  exited: Promise<ChildExit>;
  /** Kill the process group now (SIGKILL: there is nothing to flush). */
  kill(): void;
  /** Ask workerd to exit (SIGTERM: it shuts down and flushes stdio); kill it if it has not within graceMs. */
  terminate(graceMs: number): Promise<ChildExit>;
  /** True once kill() has been called. */
  readonly killed: boolean;
  /** True when kill() found the process still running: its SIGKILL exit was ours. */
  readonly killedWhileRunning: boolean;
}

export function startWorkerd(
  binary: string,
  configPath: string,
  env: Record<string, string | undefined>,
  cwd: string,
  outputLimit = 8_000,
  /** Takes V8's GC trace out of stdout (see gc-trace.ts): stdout then goes to a file, filtered into output at the exit. */
  stdoutFilter?: TraceFilter,
  /** More `workerd serve` options, e.g. --experimental. */
  serveOptions: readonly string[] = [],
  /** Run workerd under this program (runtime-kit JobRequest.wrap). */
  wrap?: { command: string; args: string[] },
): WorkerdProcess {
  const traceFile = stdoutFilter ? new TraceFile() : undefined;
  // fd 3 is the control pipe: workerd writes {"event":"listen","socket":…,"port":…} when bound.
  const spawned = spawnTracked({
    ...wrapped(wrap, binary, ['serve', ...serveOptions, configPath, 'config', '--control-fd', '3']),
    env,
    cwd,
    extraPipes: 1,
    ...(traceFile ? { stdoutFd: traceFile.fd } : {}),
  });
  const { child } = spawned;
  const output = new Tail(outputLimit);
  // With a trace file, stdout reaches output (and the filter) once the process has ended.
  const exited = traceFile && stdoutFilter ? spawned.exited.then((exit) => (traceFile.drain(stdoutFilter, (text) => output.push(text)), exit)) : spawned.exited;
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => output.push(chunk));
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => output.push(chunk));

  let resolveInspector!: (port: number | undefined) => void;
  const inspector = new Promise<number | undefined>((resolve) => (resolveInspector = resolve));
  void exited.then(() => resolveInspector(undefined));
  const listening = new Promise<number | undefined>((resolve) => {
    const control = child.stdio[3] as Readable | null | undefined;
    let buffered = '';
    control?.setEncoding('utf8');
    control?.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        try {
          const event = JSON.parse(line) as { event?: string; socket?: string; port?: unknown };
          if (event.event === 'listen' && event.socket === SOCKET_NAME && typeof event.port === 'number') resolve(event.port);
          if (event.event === 'listen-inspector' && typeof event.port === 'number') resolveInspector(event.port);
        } catch {
          /* not ours to interpret */
        }
      }
    });
    control?.on('error', () => {});
    void exited.then(() => resolve(undefined));
  });

  let killed = false;
  let killedWhileRunning = false;
  const kill = (): void => {
    if (!killed) killedWhileRunning = child.exitCode === null && child.signalCode === null;
    killed = true;
    killTree(child);
  };
  return {
    pid: child.pid,
    listening,
    inspector,
    output,
    exited,
    kill,
    async terminate(graceMs) {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          /* already gone */
        }
      }
      const timer = setTimeout(kill, graceMs);
      const exit = await exited;
      clearTimeout(timer);
      return exit;
    },
    get killed() {
      return killed;
    },
    get killedWhileRunning() {
      return killedWhileRunning;
    },
  };
}
