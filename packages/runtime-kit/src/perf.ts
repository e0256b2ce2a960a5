/**
 * Native profiles under Linux perf (`--profile native`): where perf is and
 * how to run a runtime under it. perf comes from Debian's `linux-perf`
 * package; RTBENCH_PERF names another binary. rtbench never installs it.
 */
import { accessSync, constants } from 'node:fs';
import { whichOnPath } from './binary.ts';

const PERF_INSTALL = 'install it with `sudo apt-get install -y linux-perf` (Debian; `linux-tools-generic` on Ubuntu), or name a perf binary with RTBENCH_PERF=/path/to/perf';

/** The perf binary, or an error whose message is one line saying how to get it. */
export function findPerf(env: NodeJS.ProcessEnv = process.env): string {
  const named = env.RTBENCH_PERF;
  if (named) {
    try {
      accessSync(named, constants.X_OK);
    } catch {
      throw new Error(`--profile native: RTBENCH_PERF=${named} is not an executable file; ${PERF_INSTALL}`);
    }
    return named;
  }
  const found = whichOnPath('perf', env.PATH);
  if (!found) throw new Error(`--profile native needs perf, which is not on PATH: ${PERF_INSTALL}`);
  return found;
}

export interface PerfRecordOptions {
  /** perf.data written here. */
  output: string;
  /** The control and acknowledgement fifos (mkfifo'd by the caller): the host enables and disables sampling. */
  controlFifo: string;
  ackFifo: string;
  /** Sampling period of the software clock, ns. */
  periodNs: number;
}

/**
 * `perf record` of the software CPU clock (no hardware counters needed: a
 * VM often exposes none), call stacks by frame pointers (V8's and JSC's JIT
 * code keeps them; so do the node, workerd, deno and bun binaries measured
 * here), started with sampling off (`-D -1`) and switched on and off by the
 * host through the control fifo around the sampling phase. Two of perf's
 * defaults cost more than the sampling itself and buy nothing here:
 * `--no-bpf-event` (perf would read every BPF program loaded on the host at
 * start-up, ~0.9 s on this machine even for `perf record -- true`) and
 * `--no-buildid`/`--no-buildid-cache` (perf would re-read every sample at the
 * end to find the binaries hit and copy them, node's 100 MB included, into
 * ~/.debug; perf script finds them by path).
 */
export function perfRecordWrap(perf: string, o: PerfRecordOptions): { command: string; args: string[] } {
  return {
    command: perf,
    args: ['record', '-q', '-e', 'cpu-clock', '-c', String(Math.max(10_000, Math.round(o.periodNs))), '-g', '-D', '-1', '--no-bpf-event', '--no-buildid', '--no-buildid-cache', `--control=fifo:${o.controlFifo},${o.ackFifo}`, '-o', o.output, '--'],
  };
}
