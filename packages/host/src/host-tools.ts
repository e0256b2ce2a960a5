/**
 * What rtbench asks of the host beside the runtimes, and where each works,
 * declared once: `rtbench runtimes --platform` lists it, a measurer or
 * profile that needs a tool the platform lacks is refused before anything
 * runs (with the tool's sentence), and docs/platforms.md holds the table.
 */
import { accessSync, constants } from 'node:fs';
import { whichOnPath, type Platform } from '@rtbench/process';
import { EVERY_PLATFORM, linuxOnly, type PlatformSupport } from './platform-support.ts';

export interface HostTool {
  /** What the tool is: "valgrind", "containment". */
  readonly name: string;
  /** What rtbench uses it for. */
  readonly usedFor: string;
  readonly support: PlatformSupport;
  /** Where it works, but with less than on Linux: how, in one sentence. */
  readonly lesser?: { readonly on: readonly Platform[]; readonly how: string };
}

/** Instruction counts run the runtime under valgrind's callgrind. */
export const VALGRIND_SUPPORT = linuxOnly(
  "instruction counts need valgrind, which rtbench runs on Linux only (upstream Valgrind supports macOS on x86/amd64 alone, and Apple silicon's counters need Apple's private kperf framework and root, which rtbench does not attempt); measure time instead, or count on a Linux machine",
);

/** Native profiles record the runtime under Linux perf. */
export const PERF_SUPPORT = linuxOnly('native profiles need Linux perf, which macOS does not have; use --profile cpu, or take the native profile on a Linux machine');

/** CPU per request is read from each thread's counter under /proc. */
export const THREAD_CPU_SUPPORT = linuxOnly(
  "CPU per request is read from each thread's counter in /proc/<pid>/task/<tid>/schedstat, and macOS has no per-thread CPU counter another process can read between requests; measure request-shaped cases on a Linux machine",
);

const MACOS: readonly Platform[] = ['darwin-arm64', 'darwin-x64'];

export const HOST_TOOLS: readonly HostTool[] = [
  { name: 'valgrind', usedFor: 'instruction counts', support: VALGRIND_SUPPORT },
  { name: 'perf', usedFor: 'native profiles', support: PERF_SUPPORT },
  { name: 'per-thread CPU counters (/proc)', usedFor: 'CPU per request of request-shaped cases', support: THREAD_CPU_SUPPORT },
  {
    name: 'containment',
    usedFor: 'ending every process a case starts',
    support: EVERY_PLATFORM,
    lesser: { on: MACOS, how: 'no cgroup and no /proc: processes are ended through their process tree, and one that left it is not found (docs/containment.md)' },
  },
  { name: 'load average, CPU model', usedFor: 'the saved run’s host record', support: EVERY_PLATFORM },
  { name: 'timers', usedFor: 'samples, by each runtime’s monotonic clock', support: EVERY_PLATFORM },
];

/**
 * A tool's binary: the one its variable names (RTBENCH_PERF), refused when
 * not executable, else the first on PATH; each refusal one line, for the
 * option that asked (`--profile native`), saying how to get the tool.
 */
export function toolBinary(tool: { name: string; variable: string; asker: string; install: string }, env: NodeJS.ProcessEnv): { path: string; named: boolean } {
  const named = env[tool.variable];
  if (named) {
    try {
      accessSync(named, constants.X_OK);
    } catch {
      throw new Error(`${tool.asker}: ${tool.variable}=${named} is not an executable file; ${tool.install}`);
    }
    return { path: named, named: true };
  }
  const found = whichOnPath(tool.name, env.PATH);
  if (!found) throw new Error(`${tool.asker} needs ${tool.name}, which is not on PATH: ${tool.install}`);
  return { path: found, named: false };
}
