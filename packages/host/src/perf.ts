/**
 * Native profiles under Linux perf (`--profile native`): where perf is and
 * how to run a runtime under it. perf comes from Debian's `linux-perf`
 * package; RTBENCH_PERF names another binary. rtbench never installs it.
 */
import { toolBinary } from './host-tools.ts';

const PERF_INSTALL = 'install it with `sudo apt-get install -y linux-perf` (Debian; `linux-tools-generic` on Ubuntu), or name a perf binary with RTBENCH_PERF=/path/to/perf';

/** The perf binary, or an error whose message is one line saying how to get it. */
export function findPerf(env: NodeJS.ProcessEnv = process.env): string {
  return toolBinary({ name: 'perf', variable: 'RTBENCH_PERF', asker: '--profile native', install: PERF_INSTALL }, env).path;
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
 * `perf record` of the software CPU clock (a VM often exposes no hardware
 * counters), call stacks by frame pointers, started with sampling off (`-D -1`)
 * and switched on and off by the host through the control fifo around the
 * sampling phase. `--no-bpf-event` and `--no-buildid`/`--no-buildid-cache`
 * turn off two defaults that cost more than the sampling and give nothing
 * here: docs/native-profiles.md "How a profile is taken", step 1.
 */
export function perfRecordWrap(perf: string, o: PerfRecordOptions): { command: string; args: string[] } {
  return {
    command: perf,
    args: ['record', '-q', '-e', 'cpu-clock', '-c', String(Math.max(10_000, Math.round(o.periodNs))), '-g', '-D', '-1', '--no-bpf-event', '--no-buildid', '--no-buildid-cache', `--control=fifo:${o.controlFifo},${o.ackFifo}`, '-o', o.output, '--'],
  };
}
