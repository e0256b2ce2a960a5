/**
 * Running one Job in a child process and reading the protocol from its
 * stdout. Every child is started in its own process group and recorded, so a
 * timeout, an interrupt or the host's exit can end it (and anything it
 * started) by PID; nothing is left behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { LINE_MARKER } from '@rtbench/core/protocol';
import { parseRuntimeMessage } from '@rtbench/core/schema';
import type { RuntimeMessage } from '@rtbench/core/protocol';
import type { JobOutcome } from './types.ts';

const live = new Set<ChildProcess>();

/** Kill a child's whole process group (it leads one: spawned detached). */
export function killTree(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    try {
      child.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

/** Ends every child this host started that is still running. */
export function killAllChildren(): void {
  for (const child of live) killTree(child);
}

/** PIDs of children still running (tests use it to prove nothing leaks). */
export function liveChildPids(): number[] {
  return [...live].flatMap((c) => (c.pid === undefined ? [] : [c.pid]));
}

process.once('exit', killAllChildren);

/** Keeps the last `limit` characters of a stream. */
class Tail {
  private text = '';
  constructor(private readonly limit = 8_000) {}
  push(chunk: string): void {
    this.text += chunk;
    if (this.text.length > this.limit * 2) this.text = this.text.slice(-this.limit);
  }
  toString(): string {
    return this.text.length > this.limit ? `…${this.text.slice(-this.limit)}` : this.text;
  }
}

export interface SpawnJobOptions {
  command: string;
  args: string[];
  env: Record<string, string | undefined>;
  cwd?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called for each validated message as it arrives. */
  onMessage?: (message: RuntimeMessage) => void;
}

export function spawnJob(options: SpawnJobOptions): Promise<JobOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const messages: RuntimeMessage[] = [];
    const protocolErrors: string[] = [];
    const stderr = new Tail();
    let timedOut = false;
    let interrupted = false;
    let buffered = '';

    const child = spawn(options.command, options.args, {
      env: options.env,
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    live.add(child);

    const handleLine = (line: string): void => {
      if (!line.startsWith(LINE_MARKER)) {
        if (line.length) stderr.push(`${line}\n`);
        return;
      }
      try {
        const message = parseRuntimeMessage(JSON.parse(line.slice(LINE_MARKER.length)));
        messages.push(message);
        options.onMessage?.(message);
      } catch (error) {
        protocolErrors.push(error instanceof Error ? error.message : String(error));
      }
    };

    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      buffered += chunk;
      let newline = buffered.indexOf('\n');
      while (newline !== -1) {
        handleLine(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf('\n');
      }
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => stderr.push(chunk));

    const timer = setTimeout(() => {
      timedOut = true;
      killTree(child);
    }, options.timeoutMs);
    const onAbort = (): void => {
      interrupted = true;
      killTree(child);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();

    let spawnError: Error | undefined;
    child.on('error', (error) => {
      spawnError = error;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      live.delete(child);
      // The process is gone; make sure nothing it started outlives it.
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* group already empty */
        }
      }
      if (buffered.length) handleLine(buffered);
      if (spawnError) stderr.push(`failed to start ${options.command}: ${spawnError.message}\n`);
      resolve({
        messages,
        exitCode: code,
        exitSignal: signal,
        timedOut,
        interrupted,
        stderr: stderr.toString(),
        protocolErrors,
        wallMs: performance.now() - started,
      });
    });
  });
}
