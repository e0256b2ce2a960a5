/**
 * CPU per request, declared once. Two measurers read it from a server's
 * threads: request-shaped cases per request (or, with requests in flight
 * together, per wave), and HTTP load cases per measured window over the
 * responses counted in it. A figure is whose threads it reads and what one
 * of its samples is, always in ms; the names each measurer saves it under
 * are here too, so a saved case is recognised as the figure it is whichever
 * measurer made it, in runs old and new.
 */

/** Whose CPU a figure reads, and the names its cases are saved under. */
export const CPU_THREADS = {
  /** The thread that runs the handler's JavaScript. */
  jsThread: { label: 'js thread', metricName: 'CPU per request, JavaScript thread', load: { label: 'cpu/req js', metricName: 'server CPU per request (JavaScript thread)' } },
  /** Every thread of the runtime's process (the engine's helper threads: GC, compilers). */
  allThreads: { label: 'all threads', metricName: 'CPU per request, all threads', load: { label: 'cpu/req', metricName: 'server CPU per request (all threads)' } },
  /** The JavaScript thread serving an empty handler in the same process: the server's own cost per request (request cases only). */
  emptyHandler: { label: 'empty handler', metricName: 'CPU per request of an empty handler (the server alone), JavaScript thread', load: undefined },
} as const;
export type CpuThreads = keyof typeof CPU_THREADS;

/** What one sample of a figure is. */
export type CpuSample =
  /** One request's CPU, read before it is sent and after its response, once the threads are idle. */
  | 'request'
  /** A wave's CPU (requests in flight together) over the requests answered in it. */
  | 'wave'
  /** A load round's measured window's CPU over the responses counted in it. */
  | 'window';

/** One figure of CPU per request. */
export interface CpuPerRequestFigure {
  readonly threads: CpuThreads;
  readonly sample: CpuSample;
  readonly unit: 'ms';
}

const THREADS = Object.keys(CPU_THREADS) as CpuThreads[];

/** The threads a request case's metric reads; undefined for any other metric. */
export function requestCpuThreads(metricName: string): CpuThreads | undefined {
  return THREADS.find((t) => CPU_THREADS[t].metricName === metricName);
}

/** The threads a load case's metric reads; undefined for any other metric (requests/s, latency, wake-ups). */
export function loadCpuThreads(metricName: string): CpuThreads | undefined {
  return THREADS.find((t) => CPU_THREADS[t].load?.metricName === metricName);
}

/**
 * A request round's phases as saved: the index of its first steady sample
 * (absent: the process never became steady). A round saved without them
 * reads as before phases were told apart: every request after the first.
 */
export interface RequestPhases {
  readonly steadyFrom?: number;
}

/**
 * Where the samples a figure pools begin in a round of `samples` requests:
 * its steady point; for a process that never became steady, its later half
 * (the nearest it came); for a run saved before phases, after the first.
 * Never 0: the first request is its own phase.
 */
export function steadyStart(samples: number, phases: RequestPhases | undefined): number {
  if (!phases) return 1;
  return Math.max(1, Math.min(phases.steadyFrom ?? Math.ceil(samples / 2), samples - 1));
}

/**
 * The samples a request round's headline is read from where a figure takes
 * every sample of a round (its median): the steady phase when the round was
 * saved with phases, else every sample, as such runs always read.
 */
export function headlineSamples(samples: readonly number[], phases: RequestPhases | undefined): readonly number[] {
  return phases ? samples.slice(steadyStart(samples.length, phases)) : samples;
}
