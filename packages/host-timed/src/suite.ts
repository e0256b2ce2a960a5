/**
 * Host-timed suites: cases timed by the host from outside the runtime, beside
 * the in-runtime loop: start-up (spawn to first output or first response) and
 * load (a server under a load generator). Each measurement becomes one case
 * per metric it yields, so every metric gets the table's statistics and
 * `--compare`'s paired verdicts, and the suite is a SuiteDefinition like any
 * other, so listing and `--filter` work unchanged.
 */
import { caseId, type CaseSpec } from '@rtbench/core/suite';
import { CPU_THREADS } from '@rtbench/core/cpu-per-request';
import { type Params, type SuiteDefinition } from '@rtbench/core';
import type { Metric } from '@rtbench/core/schema';
import type { GeneratedModules } from './generated.ts';

/** Why a measurement cannot run on a runtime: reported as unsupported, never timed. */
export interface Unsupported {
  unsupported: string;
}

export function isUnsupported(value: unknown): value is Unsupported {
  return typeof value === 'object' && value !== null && typeof (value as Unsupported).unsupported === 'string';
}

/** A load measurement's server. */
export type LoadServer =
  | {
      /**
       * A module whose default export is the fetch handler (`{ fetch }`): a
       * runtime that serves modules serves it as it is; one that runs programs
       * serves it with the fetch server its plug-in declares, or, declaring
       * none, on node:http through a fetch adapter (load-server.ts).
       */
      handler: string;
      /** A node:http program as its users write it (binds 127.0.0.1 port 0, prints `listening <port>` first), served instead where the plug-in declares no fetch server. */
      nodeHttp?: string;
    }
  /** A program that binds 127.0.0.1 port 0 and prints `listening <port>` first: runtimes that run programs only. */
  | { program: string };

export interface StartupMeasurement {
  kind: 'startup';
  group?: string;
  name: string;
  params: Params;
  /**
   * A module whose default export is a string computed at its top level: the
   * work start-up includes. Bundled per runtime by esbuild; the string is the
   * first line printed (workerd: the response body) and is digested.
   * A function is called once per run (e.g. to generate the module, written where it is handed).
   */
  program: string | ((generated: GeneratedModules) => string);
  /**
   * 'none': every process compiles from source. 'warm': the runtime's own
   * cache between runs is filled by an untimed run first (node: compile cache,
   * deno: V8 code cache, bun: runtime transpiler cache; workerd has none).
   */
  cache: 'none' | 'warm';
  /** 'process': a new runtime process. 'isolate': a new worker in a running workerd (its worker loader). */
  start: 'process' | 'isolate';
}

export interface HttpRequestSpec {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

/**
 * How the load generator loads a server: connections kept open, and requests
 * written on each before the first answer (pipelining; 1: one at a time).
 */
export interface LoadProfile {
  /** Its name in the case id: `[load=c100-p10]`. */
  name: string;
  connections: number;
  pipelining: number;
}

/**
 * The named profiles: one connection (no queueing), 10 (one core busy on
 * loopback), and the two profiles of the widely cited HTTP server
 * comparisons, `-c 100` and `-c 100 -p 10`, where requests queue in the server.
 */
export const LOAD_PROFILES = {
  c1: { name: 'c1', connections: 1, pipelining: 1 },
  c10: { name: 'c10', connections: 10, pipelining: 1 },
  c100: { name: 'c100', connections: 100, pipelining: 1 },
  'c100-p10': { name: 'c100-p10', connections: 100, pipelining: 10 },
} as const satisfies Record<string, LoadProfile>;

export interface LoadMeasurement {
  kind: 'load';
  group?: string;
  name: string;
  params: Params;
  /** The server, one declaration for every runtime (served.ts picks the program by what the runtime's plug-in declares). */
  server: LoadServer;
  request: HttpRequestSpec;
  /** How the generator loads the server; its name becomes the case id's `load` parameter. */
  load: LoadProfile;
}

export type HostMeasurement = StartupMeasurement | LoadMeasurement;

/** What one round of a measurement yields, by metric key. */
export type MetricKey =
  | 'startupMs'
  | 'topLevelMs'
  | 'requestsPerSecond'
  | 'latencyP2_5Ms'
  | 'latencyP50Ms'
  | 'latencyP97_5Ms'
  | 'latencyP99Ms'
  | 'latencyMaxMs'
  | 'serverCpuJsMs'
  | 'serverCpuMs'
  | 'serverWakeupsJs'
  | 'serverWakeups'
  | 'serverPreemptions';

const METRICS: Record<MetricKey, Metric> = {
  startupMs: { name: 'start-up time', unit: 'ms', direction: 'lower-is-better' },
  // Timed inside the runtime: from the bundle's first statement to the end of its top level. Start-up minus this is
  // everything before execution (process and runtime start, reading, parsing and compiling the bundle).
  topLevelMs: { name: 'top-level execution (in-runtime clock)', unit: 'ms', direction: 'lower-is-better' },
  requestsPerSecond: { name: 'requests/s', unit: 'req/s', direction: 'higher-is-better' },
  latencyP2_5Ms: { name: 'latency p2.5', unit: 'ms', direction: 'lower-is-better' },
  latencyP50Ms: { name: 'latency p50', unit: 'ms', direction: 'lower-is-better' },
  latencyP97_5Ms: { name: 'latency p97.5', unit: 'ms', direction: 'lower-is-better' },
  latencyP99Ms: { name: 'latency p99', unit: 'ms', direction: 'lower-is-better' },
  latencyMaxMs: { name: 'latency max', unit: 'ms', direction: 'lower-is-better' },
  // Read by the host from the server's threads over the measured window, over the responses counted in it.
  serverCpuJsMs: { name: CPU_THREADS.jsThread.load.metricName, unit: 'ms', direction: 'lower-is-better' },
  serverCpuMs: { name: CPU_THREADS.allThreads.load.metricName, unit: 'ms', direction: 'lower-is-better' },
  // Voluntary context switches (the thread blocked and was woken) over the same window and responses: the loop's turns behind the CPU.
  serverWakeupsJs: { name: 'server wake-ups per request (JavaScript thread)', unit: 'switches', direction: 'lower-is-better' },
  serverWakeups: { name: 'server wake-ups per request (all threads)', unit: 'switches', direction: 'lower-is-better' },
  // Nonvoluntary switches (the core taken from a thread that could run), kept apart from the wake-ups.
  serverPreemptions: { name: 'server preemptions per request (all threads)', unit: 'switches', direction: 'lower-is-better' },
};

/** The metric parameter each load case carries in its id: "hello [load=c10, metric=req/s]". */
const LOAD_METRICS: { key: MetricKey; label: string }[] = [
  { key: 'requestsPerSecond', label: 'req/s' },
  { key: 'latencyP2_5Ms', label: 'p2.5' },
  { key: 'latencyP50Ms', label: 'p50' },
  { key: 'latencyP97_5Ms', label: 'p97.5' },
  { key: 'latencyP99Ms', label: 'p99' },
  { key: 'latencyMaxMs', label: 'max' },
  { key: 'serverCpuJsMs', label: CPU_THREADS.jsThread.load.label },
  { key: 'serverCpuMs', label: CPU_THREADS.allThreads.load.label },
  { key: 'serverWakeupsJs', label: 'wake/req js' },
  { key: 'serverWakeups', label: 'wake/req' },
  { key: 'serverPreemptions', label: 'preempt/req' },
];

/** One case of a host-timed suite: one metric of one measurement. */
export interface HostCaseSpec extends CaseSpec {
  readonly hostTimed: true;
  readonly measurement: HostMeasurement;
  readonly metricKey: MetricKey;
  readonly metric: Metric;
}

export function isHostCaseSpec(c: { readonly id: string }): c is HostCaseSpec {
  return (c as Partial<HostCaseSpec>).hostTimed === true;
}

export interface HostTimedSuite extends SuiteDefinition {
  readonly measurements: readonly HostMeasurement[];
}

function notInRuntime(): never {
  throw new Error('a host-timed case is measured by the host, not run inside a runtime');
}

function casesOf(m: HostMeasurement): HostCaseSpec[] {
  const metrics =
    m.kind === 'startup'
      ? [
          { key: 'startupMs' as const, params: m.params },
          { key: 'topLevelMs' as const, params: { ...m.params, metric: 'top level' } },
        ]
      : LOAD_METRICS.map((x) => ({ key: x.key, params: { ...m.params, load: m.load.name, metric: x.label } }));
  return metrics.map(({ key, params }) => ({
    id: caseId(m.group, m.name, params),
    name: m.name,
    group: m.group,
    params,
    body: notInRuntime,
    hostTimed: true,
    measurement: m,
    metricKey: key,
    metric: METRICS[key],
  }));
}

export function hostTimedSuite(name: string, measurements: readonly HostMeasurement[]): HostTimedSuite {
  for (const m of measurements) {
    if (m.kind !== 'load') continue;
    // A profile of no connections sends nothing: every figure would be a generator's error, not the server's.
    for (const key of ['connections', 'pipelining'] as const) {
      const n = m.load[key];
      if (!Number.isInteger(n) || n < 1) throw new Error(`suite "${name}": "${m.name}" loads with ${key} ${String(n)} (profile ${m.load.name}): ${key} is a whole number of at least 1`);
    }
  }
  const ids = new Set<string>();
  for (const c of measurements.flatMap(casesOf)) {
    if (ids.has(c.id)) throw new Error(`suite "${name}" declares the case "${c.id}" twice`);
    ids.add(c.id);
  }
  return { kind: 'rtbench.suite', name, measurements, cases: () => measurements.flatMap(casesOf) };
}
