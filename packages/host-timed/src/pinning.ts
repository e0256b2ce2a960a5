/**
 * Pinning with taskset (util-linux): the server gets core 0 and the load
 * generator core 1, so they do not compete for one CPU. What that can show:
 * the server's throughput on one core with a generator that is not stealing
 * its cycles. What it cannot: the machine's other load, a generator that
 * saturates its own core (then the figure is its limit), or a server's
 * multi-threaded scaling (its helper threads share its one core).
 */
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';

export interface Pinning {
  server?: number;
  generator?: number;
  /** Why the processes are not pinned, when they are not. */
  reason?: string;
}

let cached: Pinning | undefined;

export function choosePinning(): Pinning {
  if (cached) return cached;
  const probe = spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) cached = { reason: 'taskset (util-linux) is not available: server and load generator share the cores' };
  else if (cpus().length < 2) cached = { reason: 'one core: server and load generator share it' };
  else cached = { server: 0, generator: 1 };
  return cached;
}

/** Pins every thread of a running process to one core (a load round: its generator has the other); false if taskset refused. */
export function pinProcess(pid: number, core: number): boolean {
  return taskset(pinArgs(pid, core, 'every'));
}

/**
 * Pins a running process's main thread alone to one core (a request round,
 * whose host sends one request or wave at a time and leaves the other core
 * idle): the engine's helper threads, started before it (concurrent
 * marking, sweeping, compilers), keep every core, as a real server's do,
 * rather than queueing behind the JavaScript thread on its core. Threads
 * the main thread starts later inherit its core. False if taskset refused.
 */
export function pinMainThread(pid: number, core: number): boolean {
  return taskset(pinArgs(pid, core, 'main'));
}

/** taskset's arguments that pin a running process's main thread, or every thread it has (-a), to one core. */
export function pinArgs(pid: number, core: number, threads: 'main' | 'every'): string[] {
  return [...(threads === 'every' ? ['-a'] : []), '-p', '-c', String(core), String(pid)];
}

function taskset(args: string[]): boolean {
  const r = spawnSync('taskset', args, { stdio: 'ignore' });
  return !r.error && r.status === 0;
}
