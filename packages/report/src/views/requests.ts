/**
 * CPU per request as plain data: per request case × variant, the
 * distribution of its processes' requests (stats' requestDistribution:
 * quantiles of the warm requests, the first request, the share over the
 * run's CPU limit, each with an interval over processes), the client's
 * latency over the same requests (p50 and p99, read the same way: with
 * requests in flight together it grows with the queue while CPU per request
 * holds), how the handler's requests ended, and which thread ran the
 * JavaScript. The reporters lay it out (reporters/requests.ts).
 */
import type { CaseResult, RunRecord } from '@rtbench/core/schema';
import { median, requestDistribution, type Estimate, type RequestDistribution } from '@rtbench/stats';

type RequestsRecord = NonNullable<RunRecord['results'][number]['rounds'][number]['requests']>;
type Outcomes = RequestsRecord['outcomes'];
type SameWorkRule = NonNullable<RequestsRecord['sameWork']>;

/** The client's latency of the requests CPU per request pools (each process's after its first), ms. */
interface RequestLatency {
  p50: Estimate;
  p99: Estimate;
}

export interface RequestRow {
  caseId: string;
  variantId: string;
  distribution: RequestDistribution;
  /** The client's latency (absent: a run saved before it was kept, or the empty handler's requests). */
  latency?: RequestLatency;
  /** Summed over the rounds. */
  outcomes: Outcomes;
  /** The JavaScript thread's names over the processes, and whether it was always the main thread. */
  jsThread: { names: string[]; main: boolean };
  /** The runtime's own thread clock against the host's reading, median over requests of their ratio (absent: no thread clock). */
  threadClockRatio?: number;
}

export interface RequestsSection {
  /** The run's CPU limit, ms (absent: none asked). */
  limitMs?: number;
  /** Requests kept in flight to each server (1: one at a time). */
  concurrency: number;
  /** How the responses proved the same work (absent: a run saved before the rule was recorded). */
  sameWork?: SameWorkRule;
  rows: RequestRow[];
  /** How the figures were made, in one sentence. */
  method: string;
}

const METHOD =
  "CPU per request in ms, read by the host from the runtime's threads; p50…max and the share over the limit pool every process's requests after its first, first is the median of the processes' first requests; intervals: percentile bootstrap over processes (a process's requests are not independent)";

function sumOutcomes(result: CaseResult): Outcomes {
  const sum: Outcomes = { ok: 0, serverError: 0, threw: 0, notAResponse: 0, timedOut: 0 };
  for (const r of result.rounds) for (const k of Object.keys(sum) as (keyof Outcomes)[]) sum[k] += r.requests?.outcomes[k] ?? 0;
  return sum;
}

/** Per request after the first, the thread clock's reading over the host's (both cover the same request). */
function clockRatio(result: CaseResult): number | undefined {
  const ratios = result.rounds.flatMap((r) => (r.requests?.threadClockMs ?? []).map((clock, i) => clock / r.samples[i + 1]!).filter((x) => Number.isFinite(x)));
  return ratios.length ? median(ratios) : undefined;
}

/** The latency's p50 and p99, pooled and bootstrapped as CPU per request is; absent unless every round kept one per request. */
function latencyOf(rounds: CaseResult['rounds'], seed: number): RequestLatency | undefined {
  const latencies = rounds.map((r) => r.requests?.latencyMs);
  if (!latencies.every((l, i) => l && l.length === rounds[i]!.samples.length && l.length > 1)) return undefined;
  const d = requestDistribution(latencies as number[][], { seed });
  return { p50: d.quantiles.p50, p99: d.quantiles.p99 };
}

/** The rounds of a result that served requests and more than the first: those whose requests the distribution pools. */
export function servedRounds(result: CaseResult): CaseResult['rounds'] {
  return result.rounds.filter((r) => r.requests && r.samples.length > 1);
}

function rowOf(result: CaseResult, limitMs: number | undefined, seed: number): RequestRow | undefined {
  const rounds = servedRounds(result);
  if (rounds.length === 0) return undefined;
  const distribution = requestDistribution(
    rounds.map((r) => r.samples),
    { ...(limitMs !== undefined ? { limit: limitMs } : {}), seed },
  );
  const names = [...new Set(rounds.map((r) => r.requests!.jsThread.name))];
  const ratio = clockRatio(result);
  const latency = latencyOf(rounds, seed);
  return {
    caseId: result.caseId,
    variantId: result.variantId,
    distribution,
    ...(latency ? { latency } : {}),
    outcomes: sumOutcomes(result),
    jsThread: { names, main: rounds.every((r) => r.requests!.jsThread.main) },
    ...(ratio !== undefined ? { threadClockRatio: ratio } : {}),
  };
}

/** The section of a run with request cases, with the share over the CPU limit when one is given (--cpu-limit); undefined for any other run. */
export function requestsSection(run: RunRecord, limitMs?: number): RequestsSection | undefined {
  const order = new Map(run.cases.map((c, i) => [c.id, i]));
  const rows = run.results
    .filter((r) => r.rounds.some((x) => x.requests))
    .sort((a, b) => (order.get(a.caseId) ?? 0) - (order.get(b.caseId) ?? 0))
    .flatMap((r) => rowOf(r, limitMs, run.options.seed) ?? []);
  if (!rows.length) return undefined;
  const handlerRounds = run.results.flatMap((r) => r.rounds.flatMap((x) => (x.requests?.kinds ? [x.requests] : [])));
  const concurrency = Math.max(1, ...handlerRounds.map((x) => x.concurrency ?? 1));
  const sameWork = sameWorkOf(handlerRounds);
  return { ...(limitMs !== undefined ? { limitMs } : {}), concurrency, ...(sameWork ? { sameWork } : {}), rows, method: concurrency > 1 ? `${METHOD}; ${WAVES}` : METHOD };
}

const WAVES = "with requests in flight together the host reads the server's threads around each wave of them and gives each request the wave's CPU over the requests answered in it, so the quantiles are of wave shares";

/** The rule the handler's rounds were proven by, when they say (a run saved before it was recorded does not). */
function sameWorkOf(rounds: readonly RequestsRecord[]): SameWorkRule | undefined {
  const rules = new Set(rounds.map((r) => r.sameWork));
  return rules.size === 1 ? [...rules][0] : undefined;
}
