/**
 * HTTP load as plain data: per load measurement × variant, one line of its
 * metrics' medians over the rounds (requests/s, the latency line, the
 * server's wake-ups and preemptions per request) and how its requests
 * ended, summed over the rounds. A load measurement's metrics are cases of
 * their own (one per `metric` parameter); here they sit side by side, so
 * latency that grows with the connections reads along a column. Its CPU
 * per request is not here: it is CPU per request's view
 * (views/cpu-per-request.ts), as a request case's is.
 */
import { caseId } from '@rtbench/core/suite';
import { type Params } from '@rtbench/core';
import type { CaseResult, Metric, RunRecord } from '@rtbench/core/schema';
import type { LoadOutcomes } from '@rtbench/measurer-records';
import { loadOf } from '@rtbench/measurer-records/readers';
import { median } from '@rtbench/stats';
import { isCpuPerRequestCase } from './cpu-per-request.ts';

/** One metric of the load measurements, a column: its label (the case's `metric` parameter) and its unit. */
export interface LoadColumn {
  label: string;
  metric: Metric;
}

export interface LoadRow {
  /** The measurement's case id without its metric: "hello world [load=c100]". */
  measurement: string;
  variantId: string;
  /** Connections and pipelining of its rounds (absent in older runs). */
  connections?: number;
  pipelining?: number;
  /** The median over rounds, by column label (absent: no figure). */
  medians: Record<string, number>;
  /** Summed over the rounds (absent in older runs, where an error failed the round). */
  outcomes?: LoadOutcomes;
  rounds: number;
  /** The rounds' warm-up, when they were served in phases (absent in older runs). */
  warmup?: LoadWarmup;
}

/** The windows before each round's steady point: their time and requests/s (medians over rounds), and the rounds that never settled. */
interface LoadWarmup {
  ms: number;
  requestsPerSecond?: number;
  unsettled: number;
}

export interface LoadSection {
  columns: LoadColumn[];
  rows: LoadRow[];
  /** How the figures were made, in one sentence. */
  method: string;
}

const PHASED_METHOD =
  "each round: a fresh server under consecutive windows of the load (about 250 ms each, one generator run each); a round's figures are of its windows from its steady point (two stretches of its windows one level, none later lower, in time per response, latency p50 and the JavaScript thread's CPU per response), medians over rounds; warm-up: the windows before that point, their time and requests/s, medians over rounds (a round that never settled gives its later half and counts its first under warm-up); latencies as the generator timed them in each window, their median over the windows (wrk: corrected for coordinated omission; pipelined, the max only: the slowest batch); wake-ups per request (voluntary context switches: the thread blocked and was woken) and preemptions per request (nonvoluntary ones) read by the host from the server's threads over the windows, over the responses counted; errors: error statuses, socket errors and timeouts, counted over the rounds' steady windows";

const METHOD =
  "medians over rounds (each round: a fresh server under the load generator's measured window); latencies as the generator timed them (wrk: corrected for coordinated omission; pipelined, the max only: the slowest batch); wake-ups per request (voluntary context switches: the thread blocked and was woken) and preemptions per request (nonvoluntary ones) read by the host from the server's threads over the window, over the responses counted; errors: error statuses, socket errors and timeouts, counted over all rounds";

/** Requests that ended in error over all requests tried. */
export function errorRate(o: LoadOutcomes): number {
  const errors = o.errorStatus + o.socketErrors + o.timeouts;
  const tried = o.responses + o.socketErrors + o.timeouts;
  return tried > 0 ? errors / tried : 0;
}

function sumOutcomes(result: CaseResult): LoadOutcomes | undefined {
  const all = result.rounds.map((r) => loadOf(r)?.outcomes).filter((o): o is LoadOutcomes => o !== undefined);
  if (all.length === 0) return undefined;
  return all.reduce((a, b) => ({ responses: a.responses + b.responses, errorStatus: a.errorStatus + b.errorStatus, socketErrors: a.socketErrors + b.socketErrors, timeouts: a.timeouts + b.timeouts }));
}

/** The rounds' warm-up (undefined: saved before rounds were phased); requests/s from the rounds' own req/s case, when it is this one. */
function warmupOf(result: CaseResult, metric: Metric): LoadWarmup | undefined {
  const phases = result.rounds.flatMap((r) => loadOf(r)?.phases ?? []);
  if (phases.length === 0) return undefined;
  const rates = metric.unit === 'req/s' ? phases.flatMap((p) => (p.warmup === undefined ? [] : [p.warmup])) : [];
  return { ms: median(phases.map((p) => p.warmupMs)), ...(rates.length ? { requestsPerSecond: median(rates) } : {}), unsettled: phases.filter((p) => p.steadyFrom === undefined).length };
}

const withoutMetric = (params: Params): Params => Object.fromEntries(Object.entries(params).filter(([k]) => k !== 'metric'));

/** The measurement a case is one metric of, by its id without the `metric` parameter ("hello world [load=c10]"); a case without one is its own. */
export const measurementId = (c: RunRecord['cases'][number]): string => caseId(c.group, c.name, withoutMetric(c.params));

/** The section of a run with load rounds; undefined for any other run. */
export function loadSection(run: RunRecord): LoadSection | undefined {
  const columns = new Map<string, LoadColumn>();
  const rows = new Map<string, LoadRow>();
  for (const c of run.cases) {
    const label = c.params.metric;
    // CPU per request has its own view, whichever measurer read it.
    if (typeof label !== 'string' || !c.metric || isCpuPerRequestCase(c)) continue;
    const measurement = measurementId(c);
    for (const v of run.variants) {
      const result = run.results.find((r) => r.caseId === c.id && r.variantId === v.id);
      const load = result?.rounds.map(loadOf).find((x) => x);
      if (!result || !load) continue;
      if (!columns.has(label)) columns.set(label, { label, metric: c.metric });
      const key = `${measurement}\u0000${v.id}`;
      let row = rows.get(key);
      if (!row) {
        const outcomes = sumOutcomes(result);
        row = { measurement, variantId: v.id, ...(load.connections !== undefined ? { connections: load.connections } : {}), ...(load.pipelining !== undefined ? { pipelining: load.pipelining } : {}), medians: {}, ...(outcomes ? { outcomes } : {}), rounds: result.rounds.length };
        rows.set(key, row);
      }
      const samples = result.rounds.flatMap((r) => r.samples);
      if (samples.length) row.medians[label] = median(samples);
      const warmup = warmupOf(result, c.metric);
      if (warmup && (!row.warmup || warmup.requestsPerSecond !== undefined)) row.warmup = warmup;
    }
  }
  const phased = [...rows.values()].some((r) => r.warmup);
  return rows.size ? { columns: [...columns.values()], rows: [...rows.values()], method: phased ? PHASED_METHOD : METHOD } : undefined;
}
