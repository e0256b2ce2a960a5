/**
 * CPU per request as plain data: per request case × variant, the
 * distribution of its processes' requests (stats' requestDistribution:
 * quantiles of the warm requests, the first request, the share over the
 * run's CPU limit, each with an interval over processes), how the handler's
 * requests ended, and which thread ran the JavaScript. The reporters lay it
 * out (reporters/requests.ts).
 */
import type { CaseResult, RunRecord } from '@rtbench/core/schema';
import { median, requestDistribution, type RequestDistribution } from '@rtbench/stats';

type Outcomes = NonNullable<RunRecord['results'][number]['rounds'][number]['requests']>['outcomes'];

export interface RequestRow {
  caseId: string;
  variantId: string;
  distribution: RequestDistribution;
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
  return {
    caseId: result.caseId,
    variantId: result.variantId,
    distribution,
    outcomes: sumOutcomes(result),
    jsThread: { names, main: rounds.every((r) => r.requests!.jsThread.main) },
    ...(ratio !== undefined ? { threadClockRatio: ratio } : {}),
  };
}

/** The section of a run with request cases; undefined for any other run. */
export function requestsSection(run: RunRecord): RequestsSection | undefined {
  const limitMs = run.options.cpuLimitMs;
  const order = new Map(run.cases.map((c, i) => [c.id, i]));
  const rows = run.results
    .filter((r) => r.rounds.some((x) => x.requests))
    .sort((a, b) => (order.get(a.caseId) ?? 0) - (order.get(b.caseId) ?? 0))
    .flatMap((r) => rowOf(r, limitMs, run.options.seed) ?? []);
  return rows.length ? { ...(limitMs !== undefined ? { limitMs } : {}), rows, method: METHOD } : undefined;
}
