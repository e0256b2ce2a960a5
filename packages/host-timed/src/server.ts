/**
 * A server's life, whichever round starts it (load, request, start-up): a
 * fresh server on the variant (127.0.0.1, a port the kernel picks and the
 * server reports: printed first as "listening <port>" by a runtime that runs
 * programs as processes, reported by one that serves them), its end named
 * from its exit and its last words, and its stop by PID.
 */
import type { ServerPermissions } from '@rtbench/core/server-permissions';
import type { WorkersCompatibility } from '@rtbench/core/request';
import { firstLine } from '@rtbench/core/words';
import { endedHow, exitOf, killTree, spawnTracked, stderrReason, Tail, type ChildExit } from '@rtbench/process';
import { fail, within, type RoundFailure } from './outcome.ts';
import type { RunnableVariant } from './variant.ts';
import { programCommand } from './variant.ts';

export interface RunningServer {
  port: number | undefined;
  pid: number | undefined;
  output: Tail;
  exited: Promise<ChildExit>;
  alive(): boolean;
  stop(): Promise<void>;
  /** Asks the server to exit (SIGTERM: rtbench's servers then exit on their own, writing what a runtime writes at exit) and stops it if it has not within `graceMs`; a runtime that serves programs is stopped. */
  end(graceMs: number): Promise<void>;
  cleanup?(): void;
  /** The inspector's port, when served with `inspector` by a runtime that serves programs. */
  inspector?: Promise<number | undefined>;
}

/** A server's first line, the port it reports (`listening <port>`): never the reason it ended. */
const LISTENING = /^listening (\d+)\s*$/m;

/** The most of the server's own words a cause quotes: one line, not a handler's whole message. */
export const SAID_CHARS = 200;

/** What naming a server's end reads of it: its output and its exit. */
export type EndedServer = Pick<RunningServer, 'output' | 'exited'>;

/**
 * How a server ended, once it has, and the error it printed last (its stderr
 * past the "listening" line, the runtime's version banner and stack frames;
 * one line, cut to SAID_CHARS): "the node server exited with code 1 under
 * load (Error: …)", `when` saying at what point. A load round and a request
 * round name a server's end alike.
 */
export async function serverExit(v: RunnableVariant, server: EndedServer, when = ''): Promise<string> {
  const exit = await within(server.exited, 1_000, undefined);
  return `the ${v.plugin.name} server ${exit ? endedHow(exitOf(exit)) : 'exited'}${when}${lastSaid(server.output.toString())}`;
}

/** A server's answer that fails its round, as a failure quotes it: the runtime, the status, the request, its body's first line. */
export function answeredWith(v: RunnableVariant, status: number, request: string, body: string): string {
  const said = firstLine(body.trim(), SAID_CHARS);
  return `the ${v.plugin.name} server answered ${status} to ${request}${said ? ` (${said})` : ''}`;
}

/** The error a process printed last, as a failure quotes it: " (Error: …)", one line cut to SAID_CHARS; empty when it said nothing. */
export function lastSaid(output: string): string {
  const said = stderrReason(output.replace(LISTENING, ''));
  return said ? ` (${firstLine(said, SAID_CHARS)})` : '';
}

/**
 * A round whose server gave no port: a crash, named by how it ended, when it has; else a time-out after
 * `timeoutMs`, with what a server run as a process is expected to print (a brought one may not know).
 * Load, request and start-up rounds word it alike.
 */
export async function notListening(v: RunnableVariant, server: EndedServer & Pick<RunningServer, 'alive'>, timeoutMs: number): Promise<RoundFailure> {
  if (!server.alive()) return fail('crash', await serverExit(v, server, ' before it listened'), server.output.toString());
  const hint = v.plugin.programs.kind === 'process' ? ' (a server run as a process prints "listening <port>" first)' : '';
  return fail('timeout', `the ${v.plugin.name} server did not report a port within ${timeoutMs} ms${hint}`, server.output.toString());
}

function startProgramServer(v: RunnableVariant, serverPath: string, timeoutMs: number, permissions?: ServerPermissions): Promise<RunningServer> {
  const cmd = programCommand(v, serverPath, { net: true, ...(permissions ? { permissions } : {}) });
  const { child, exited } = spawnTracked({ command: cmd.command, args: cmd.args, env: cmd.env });
  const output = new Tail();
  let ended = false;
  void exited.then(() => (ended = true));
  const stop = async (): Promise<void> => {
    killTree(child);
    await within(exited, 5_000, undefined);
  };
  const server = (port: number | undefined): RunningServer => ({
    port,
    pid: child.pid,
    output,
    exited,
    alive: () => !ended,
    stop,
    async end(graceMs) {
      if (!ended && child.pid !== undefined) {
        try {
          process.kill(child.pid, 'SIGTERM');
        } catch {
          /* already gone */
        }
        await within(exited, graceMs, undefined);
      }
      await stop();
    },
  });
  return new Promise((resolve) => {
    let stdout = '';
    let settled = false;
    const settle = (port: number | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(server(port));
    };
    const timer = setTimeout(() => settle(undefined), timeoutMs);
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      output.push(chunk);
      if (settled) return;
      stdout += chunk;
      const nl = stdout.indexOf('\n');
      if (nl < 0) return;
      const m = LISTENING.exec(stdout.slice(0, nl));
      settle(m ? Number(m[1]) : undefined);
      if (!m) output.push(`(the first line was not "listening <port>")\n`);
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => output.push(chunk));
    void exited.then(() => settle(undefined));
  });
}

/** A server on a runtime whose plug-in serves programs: it binds and reports the port itself. */
async function startServedProgram(v: RunnableVariant, serverPath: string, timeoutMs: number, options: ServeOptions): Promise<RunningServer> {
  if (v.plugin.programs.kind !== 'server') throw new Error(`${v.plugin.displayName} runs programs as processes`);
  const w = v.plugin.programs.serve(v.target, v.flags, serverPath, { ...(options.compatibility ? { compatibility: options.compatibility } : {}), ...(options.inspector ? { inspector: true } : {}) });
  let ended = false;
  void w.exited.then(() => (ended = true));
  const port = await within(w.listening, timeoutMs, undefined);
  const stop = async (): Promise<void> => {
    w.kill();
    await within(w.exited, 5_000, undefined);
  };
  return {
    port,
    pid: w.pid,
    output: w.output,
    exited: w.exited,
    alive: () => !ended,
    stop,
    end: stop,
    cleanup: () => w.cleanup(),
    ...(w.inspector ? { inspector: w.inspector } : {}),
  };
}

/** What a server is served with: the Workers compatibility (a runtime that serves modules), the permissions a brought server declares (one that runs programs). */
export interface ServeOptions {
  compatibility?: WorkersCompatibility;
  permissions?: ServerPermissions;
  /** With the inspector on (a runtime that serves programs: a CPU profile over it). */
  inspector?: boolean;
}

/** A fresh server of `serverPath` on the variant, however its runtime runs programs; its port undefined when it did not report one in time. */
export function startServer(v: RunnableVariant, serverPath: string, timeoutMs: number, options: ServeOptions = {}): Promise<RunningServer> {
  return v.plugin.programs.kind === 'server' ? startServedProgram(v, serverPath, timeoutMs, options) : startProgramServer(v, serverPath, timeoutMs, options.permissions);
}
