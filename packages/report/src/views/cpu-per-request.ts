/**
 * CPU per request as plain data, whichever measurer read it (core's
 * cpu-per-request.ts declares the figure): per case × variant one row.
 * Request cases give a distribution of their processes' requests (stats'
 * requestDistribution: quantiles of the warm requests, the first request,
 * the share over the run's CPU limit, each with an interval over
 * processes), the client's latency over the same requests (p50 and p99,
 * read the same way: with requests in flight together it grows with the
 * queue while CPU per request holds), how the handler's requests ended and
 * which thread ran the JavaScript. HTTP load cases give one figure per
 * round's measured window, and the row their median over rounds. The
 * reporters lay it out (reporters/cpu-per-request.ts).
 */
import { CPU_THREADS, loadCpuThreads, requestCpuThreads, steadyStart, type CpuPerRequestFigure, type CpuThreads } from '@rtbench/core/cpu-per-request';
import type { CaseResult, RunRecord } from '@rtbench/core/schema';
import type { RequestsRound } from '@rtbench/measurer-records';
import { loadOf, requestsOf } from '@rtbench/measurer-records/readers';
import { median, requestDistribution, type Estimate, type RequestDistribution } from '@rtbench/stats';

type Outcomes = RequestsRound['outcomes'];
type SameWorkRule = NonNullable<RequestsRound['sameWork']>;

/** The client's latency of the requests CPU per request pools (each process's after its first), ms. */
interface RequestLatency {
  p50: Estimate;
  p99: Estimate;
}

/** A load case's windows: the median over rounds of each window's figure, and what it was over. */
interface LoadWindows {
  median: number;
  rounds: number;
  /** Responses counted over all rounds (absent in older runs, which did not keep them). */
  responses?: number;
  /** Its rounds' figures are of their steady windows (absent in older runs: one measured window after a fixed warm-up). */
  phased?: true;
}

export interface CpuPerRequestRow {
  caseId: string;
  variantId: string;
  figure: CpuPerRequestFigure;
  /** Request and wave samples: the distribution over processes. */
  distribution?: RequestDistribution;
  /** Window samples (HTTP load): one figure a round. */
  windows?: LoadWindows;
  /** The client's latency (absent: a run saved before it was kept, the empty handler's requests, a load case). */
  latency?: RequestLatency;
  /** How the handler's requests ended, summed over the rounds (request cases). */
  outcomes?: Outcomes;
  /** The JavaScript thread's names over the processes, and whether it was always the main thread (request cases). */
  jsThread?: { names: string[]; main: boolean };
  /** The runtime's own thread clock against the host's reading, median over requests of their ratio (absent: no thread clock). */
  threadClockRatio?: number;
  /** The processes' warm-up (absent: a run saved before phases were told apart, the empty handler, a load case). */
  phases?: RequestPhasesRow;
  /** The CPU the threads ran after each pooled request until the next began, mean per request, median over processes, ms (absent: not kept). */
  after?: number;
}

/** A row's warm-up: what its processes spent before their steady point, and how many never reached one. */
interface RequestPhasesRow {
  /** Median over the processes that became steady: requests before the steady point (the first included), and their CPU, ms. */
  warmupRequests?: number;
  warmupMs?: number;
  /** Processes that never became steady (their later half is pooled), of `processes`. */
  unsteady: number;
  processes: number;
}

export interface CpuPerRequestSection {
  /** The run's CPU limit, ms (absent: none asked). */
  limitMs?: number;
  /** Requests kept in flight to each server by the request cases (1: one at a time). */
  concurrency: number;
  /** How the responses proved the same work (absent: no request cases, or a run saved before the rule was recorded). */
  sameWork?: SameWorkRule;
  rows: CpuPerRequestRow[];
  /** How the figures were made, in one sentence. */
  method: string;
}

/** Whether a case's figures are CPU per request: a request case's, or a load case's CPU metric (other views leave such a case to this one). */
export function isCpuPerRequestCase(c: RunRecord['cases'][number]): boolean {
  return c.metric !== undefined && (requestCpuThreads(c.metric.name) !== undefined || loadCpuThreads(c.metric.name) !== undefined);
}

/** A row's median, whatever its samples: the p50 of its requests (with its interval), or the median over its windows. */
export function cpuMedian(row: CpuPerRequestRow): Estimate | undefined {
  return row.distribution?.quantiles.p50 ?? (row.windows ? { value: row.windows.median } : undefined);
}

const METHOD =
  "CPU per request in ms, read by the host from the runtime's threads; p50…max and the share over the limit pool every process's requests after its first, first is the median of the processes' first requests; intervals: percentile bootstrap over processes (a process's requests are not independent)";

const PHASED_METHOD =
  "CPU per request in ms, read by the host from the runtime's threads, in three phases: first, the median of the processes' first requests; warm-up, the requests before each process's steady point (two windows of its requests one level, none later lower) and the CPU they spent, medians over processes; p50…max and the share over the limit, the steady phase: every process's requests from its steady point, pooled (a process never steady is counted under warm-up and its later half pooled); intervals: percentile bootstrap over processes (a process's requests are not independent)";

const AFTER =
  "after: the CPU the same threads ran after each of those requests, from the host's read once they were idle to the next request's start (the empty handler's requests taken out): work a request left to run later, in no request's figure; the mean per request, the median over processes";

const WAVES = "with requests in flight together the host reads the server's threads around each wave of them and gives each request the wave's CPU over the requests answered in it, so the quantiles are of wave shares";

const WINDOWS =
  "CPU per request in ms of HTTP load, read by the host from the server's threads over each round's measured window, over the responses counted in it; the window follows an unmeasured warm-up run of the same load, and is not split at a steady point (the load generator counts only the window's totals: no request-by-request series); p50: the median over rounds (each a fresh server), no interval; requests: responses counted in rounds";

const PHASED_WINDOWS =
  "CPU per request in ms of HTTP load, read by the host from the server's threads over each round's steady windows (consecutive windows of the load, those from the round's steady point: HTTP load's table says how it is found and how long the warm-up before it took), over the responses counted in them; p50: the median over rounds (each a fresh server), no interval; requests: responses counted in the rounds' steady windows";

function sumOutcomes(result: CaseResult): Outcomes {
  const sum = { ok: 0, serverError: 0, threw: 0, notAResponse: 0, timedOut: 0, tooLong: 0 };
  for (const r of result.rounds) for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += requestsOf(r)?.outcomes[k] ?? 0;
  const { tooLong, ...rest } = sum;
  return tooLong ? sum : rest;
}

/** Where a round's pooled requests begin (core steadyStart): its steady point, or after its first in a run saved before phases. */
export const pooledFrom = (r: CaseResult['rounds'][number]): number => steadyStart(r.samples.length, requestsOf(r)?.phases);

/** Where each round's pooled requests begin. */
const startsOf = (rounds: CaseResult['rounds']): number[] => rounds.map(pooledFrom);

/** The `cpu` parameter of a request case's JavaScript thread, and of its empty handler beside it. */
export const HANDLER_CPU = { jsThread: CPU_THREADS.jsThread.label, emptyHandler: CPU_THREADS.emptyHandler.label } as const;

/** The rounds' warm-up, when they were saved with phases. */
function phasesOf(rounds: CaseResult['rounds']): RequestPhasesRow | undefined {
  const phased = rounds.filter((r) => requestsOf(r)?.phases);
  if (phased.length === 0) return undefined;
  const steady = phased.flatMap((r) => {
    const from = requestsOf(r)!.phases!.steadyFrom;
    return from !== undefined ? [{ samples: r.samples, from }] : [];
  });
  const warm = steady.length ? { warmupRequests: median(steady.map((r) => r.from)), warmupMs: median(steady.map((r) => r.samples.slice(0, r.from).reduce((a, b) => a + b, 0))) } : {};
  return { ...warm, unsteady: phased.length - steady.length, processes: phased.length };
}

/** Per process the mean CPU after its pooled requests (requests.afterMs), the median over processes; absent unless every round kept one per request. */
function afterOf(rounds: CaseResult['rounds']): number | undefined {
  const starts = startsOf(rounds);
  const means = rounds.map((r, i) => {
    const after = requestsOf(r)?.afterMs;
    const pooled = after && after.length === r.samples.length ? after.slice(starts[i]) : [];
    return pooled.length ? pooled.reduce((a, b) => a + b, 0) / pooled.length : undefined;
  });
  return means.every((m) => m !== undefined) ? median(means as number[]) : undefined;
}

/** Per request after the first, the thread clock's reading over the host's (both cover the same request). */
function clockRatio(result: CaseResult): number | undefined {
  const ratios = result.rounds.flatMap((r) => (requestsOf(r)?.threadClockMs ?? []).map((clock, i) => clock / r.samples[i + 1]!).filter((x) => Number.isFinite(x)));
  return ratios.length ? median(ratios) : undefined;
}

/** The latency's p50 and p99, pooled and bootstrapped as CPU per request is; absent unless every round kept one per request. */
function latencyOf(rounds: CaseResult['rounds'], seed: number, confidence: number): RequestLatency | undefined {
  const latencies = rounds.map((r) => requestsOf(r)?.latencyMs);
  if (!latencies.every((l, i) => l && l.length === rounds[i]!.samples.length && l.length > 1)) return undefined;
  const d = requestDistribution(latencies as number[][], { seed, confidence, from: startsOf(rounds) });
  return { p50: d.quantiles.p50, p99: d.quantiles.p99 };
}

/** The rounds of a result that served requests and more than the first: those whose requests the distribution pools. */
function servedRounds(result: CaseResult): CaseResult['rounds'] {
  return result.rounds.filter((r) => requestsOf(r) && r.samples.length > 1);
}

/** The samples a row's figures pool, as the page draws them: warm requests (each process's after its first), or every load window. */
export function pooledSamples(result: CaseResult): number[] {
  const served = servedRounds(result);
  const starts = startsOf(served);
  return served.length ? served.flatMap((r, i) => r.samples.slice(starts[i])) : result.rounds.filter((r) => r.load).flatMap((r) => r.samples);
}

/** The threads a request case reads: by its metric's name, else by its `cpu` parameter (the label). */
function requestThreads(c: RunRecord['cases'][number] | undefined): CpuThreads {
  const byName = c?.metric ? requestCpuThreads(c.metric.name) : undefined;
  const byLabel = (Object.keys(CPU_THREADS) as CpuThreads[]).find((t) => CPU_THREADS[t].label === c?.params.cpu);
  return byName ?? byLabel ?? 'jsThread';
}

function requestRow(result: CaseResult, c: RunRecord['cases'][number] | undefined, limitMs: number | undefined, seed: number, confidence: number): CpuPerRequestRow | undefined {
  const rounds = servedRounds(result);
  if (rounds.length === 0) return undefined;
  const distribution = requestDistribution(
    rounds.map((r) => r.samples),
    { ...(limitMs !== undefined ? { limit: limitMs } : {}), seed, confidence, from: startsOf(rounds) },
  );
  const phases = phasesOf(rounds);
  const names = [...new Set(rounds.map((r) => requestsOf(r)!.jsThread.name))];
  const ratio = clockRatio(result);
  const latency = latencyOf(rounds, seed, confidence);
  const after = afterOf(rounds);
  const inFlight = Math.max(1, ...rounds.map((r) => requestsOf(r)!.concurrency ?? 1));
  return {
    caseId: result.caseId,
    variantId: result.variantId,
    figure: { threads: requestThreads(c), sample: inFlight > 1 ? 'wave' : 'request', unit: 'ms' },
    distribution,
    ...(latency ? { latency } : {}),
    outcomes: sumOutcomes(result),
    jsThread: { names, main: rounds.every((r) => requestsOf(r)!.jsThread.main) },
    ...(ratio !== undefined ? { threadClockRatio: ratio } : {}),
    ...(phases ? { phases } : {}),
    ...(after !== undefined ? { after } : {}),
  };
}

/** A load case's row when its metric is CPU per request (undefined for requests/s, latency, wake-ups), as the load table once took it: the median of its rounds' samples. */
function windowRow(result: CaseResult, c: RunRecord['cases'][number] | undefined): CpuPerRequestRow | undefined {
  const threads = c?.metric ? loadCpuThreads(c.metric.name) : undefined;
  const rounds = result.rounds.filter((r) => r.load);
  const samples = rounds.flatMap((r) => r.samples);
  if (!threads || samples.length === 0) return undefined;
  const counted = rounds.every((r) => loadOf(r)!.outcomes);
  return {
    caseId: result.caseId,
    variantId: result.variantId,
    figure: { threads, sample: 'window', unit: 'ms' },
    windows: { median: median(samples), rounds: rounds.length, ...(counted ? { responses: rounds.reduce((n, r) => n + loadOf(r)!.outcomes!.responses, 0) } : {}), ...(rounds.every((r) => loadOf(r)!.phases) ? { phased: true as const } : {}) },
  };
}

/** The section of a run with CPU per request (request cases, HTTP load cases), with the share over the CPU limit when one is given (--cpu-limit); undefined for any other run. */
/** `confidence`: the level of every interval, the screen's one (a request summary's, when the run has one). */
export function cpuPerRequestSection(run: RunRecord, limitMs?: number, confidence = 0.95): CpuPerRequestSection | undefined {
  const cases = new Map(run.cases.map((c) => [c.id, c]));
  const order = new Map(run.cases.map((c, i) => [c.id, i]));
  const rows = run.results
    .filter((r) => r.rounds.some((x) => requestsOf(x) || x.load))
    .sort((a, b) => (order.get(a.caseId) ?? 0) - (order.get(b.caseId) ?? 0))
    .flatMap((r) => (r.rounds.some((x) => requestsOf(x)) ? requestRow(r, cases.get(r.caseId), limitMs, run.options.seed, confidence) : windowRow(r, cases.get(r.caseId))) ?? []);
  if (!rows.length) return undefined;
  const handlerRounds = run.results.flatMap((r) => r.rounds.map(requestsOf)).filter((x): x is RequestsRound => x?.kinds !== undefined);
  const concurrency = Math.max(1, ...handlerRounds.map((x) => x.concurrency ?? 1));
  const sameWork = sameWorkOf(handlerRounds);
  const method = rows.some((r) => r.phases) ? PHASED_METHOD : METHOD;
  const requestMethod = [method, ...(rows.some((r) => r.after !== undefined) ? [AFTER] : []), ...(concurrency > 1 ? [WAVES] : [])].join('; ');
  const methods = [...(rows.some((r) => r.distribution) ? [requestMethod] : []), ...(rows.some((r) => r.windows && !r.windows.phased) ? [WINDOWS] : []), ...(rows.some((r) => r.windows?.phased) ? [PHASED_WINDOWS] : [])];
  return { ...(limitMs !== undefined ? { limitMs } : {}), concurrency, ...(sameWork ? { sameWork } : {}), rows, method: methods.join('; ') };
}

/** The rule the handler's rounds were proven by, when they say (a run saved before it was recorded does not). */
function sameWorkOf(rounds: readonly RequestsRound[]): SameWorkRule | undefined {
  const rules = new Set(rounds.map((r) => r.sameWork));
  return rules.size === 1 ? [...rules][0] : undefined;
}
