/**
 * A request run in brief: per request, one row per runtime with the
 * handler's CPU per request on its JavaScript thread net of the server's
 * own cost (the empty handler served by the same process), its p50 and p99
 * with intervals over processes, the server's own cost beside it, and the
 * verdict on the net figure against the baseline. The full tables stay
 * where they are (the bench table, views/cpu-per-request.ts); the terminal
 * leads with this and keeps them behind --explain.
 */
import { HANDLER_CPU, pooledFrom } from './cpu-per-request.ts';
import type { CaseResult, RunRecord } from '@rtbench/core/schema';
import { requestsOf } from '@rtbench/measurer-records/readers';
import { median, netDistribution, type NetDistribution } from '@rtbench/stats';
import { adjustAll, pairedCase, type PairedCase, type RatioComparison, type RatioOptions } from '@rtbench/verdicts';

export interface RequestSummaryRow {
  variantId: string;
  isBaseline: boolean;
  net: NetDistribution;
  /** The net p50's ratio to the baseline's, paired by process (absent: the baseline, or no ratio could be formed). */
  relative?: RatioComparison;
  /** Why there is no ratio. */
  relativeNote?: string;
}

interface RequestSummaryCase {
  /** The request as the run names it ("GET /"). */
  label: string;
  /** The case whose figures the rows net (the JavaScript thread's). */
  caseId: string;
  /** The runtimes' responses differ: no ratio compares the same work. */
  differentWork: boolean;
  rows: RequestSummaryRow[];
}

export interface RequestSummary {
  cases: RequestSummaryCase[];
  /** The level of every interval shown: the ratios' level once adjusted for their number, which the net figures take too. */
  confidence: number;
  /** The ratios that level was adjusted for, and the level over them all. */
  ratios: number;
  tableConfidence: number;
  /** Of `ratios`, those of the tables behind the lines (--explain's), adjusted in the same family: one level a screen. */
  behind: number;
}

/** A summary and the ratios adjusted beside its own, in their order. */
export interface RequestSummaryFamily {
  summary: RequestSummary;
  alongside: (RatioComparison | undefined)[];
}

/** Per process (the same process serving both), the handler's requests and the empty handler's, and where the handler's pooled requests begin. */
interface Processes {
  handler: number[][];
  empty: number[][];
  from: number[];
}

/** A case's request: its params less `cpu`, after its name. */
function requestKey(c: RunRecord['cases'][number]): string {
  const rest = Object.entries(c.params).filter(([k]) => k !== 'cpu');
  return rest.length ? `${c.name} ${rest.map(([k, v]) => `${k}=${String(v)}`).join(' ')}` : c.name;
}

/** Rounds that served requests beyond the first, by round index. */
function servedByRound(result: CaseResult | undefined): Map<number, CaseResult['rounds'][number]> {
  return new Map((result?.rounds ?? []).filter((r) => requestsOf(r) && r.samples.length > 1).map((r) => [r.round, r]));
}

/** One process's net figure: the median of its pooled handler requests less the median of its empty handler's. */
function processNet(handler: CaseResult['rounds'][number], empty: CaseResult['rounds'][number]): number {
  return median(handler.samples.slice(pooledFrom(handler))) - median(empty.samples.slice(1));
}

/** The handler's result with each round's samples its process's net figure: what the paired ratio is taken of. */
function netResult(handler: CaseResult, empty: Map<number, CaseResult['rounds'][number]>): CaseResult {
  const rounds = [...servedByRound(handler).values()].flatMap((r) => {
    const e = empty.get(r.round);
    if (!e) return [];
    const { requests: _requests, ...round } = r;
    return [{ ...round, samples: [processNet(r, e)] }];
  });
  return { ...handler, rounds };
}

/**
 * The summary of a run whose cases are request cases with an empty handler
 * beside each handler's JavaScript thread; undefined for any other run (a
 * load case, a case without its empty handler: their tables say it all).
 * `alongside`: the ratios of the tables shown with it (the bench table's),
 * adjusted in one family with its own, so every interval of a screen that
 * shows both is read at one level.
 */
export function requestSummary(run: RunRecord, options: RatioOptions, alongside: readonly PairedCase[] = []): RequestSummaryFamily | undefined {
  const byKey = new Map<string, Partial<Record<string, RunRecord['cases'][number]>>>();
  for (const c of run.cases) {
    const cpu = c.params.cpu;
    if (typeof cpu !== 'string') return undefined;
    byKey.set(requestKey(c), { ...byKey.get(requestKey(c)), [cpu]: c });
  }
  const results = new Map(run.results.map((r) => [`${r.caseId}\u0000${r.variantId}`, r]));
  const variants = run.variants.filter((v) => !v.unavailable);
  const baseline = variants[0];
  if (!baseline || byKey.size === 0) return undefined;
  // Pair first, so that each net figure's interval is read at the level the ratios were adjusted to: one level a screen.
  type Pending = { variantId: string; processes: Processes; relativeNote?: string; pair?: PairedCase };
  const pendingCases: { label: string; caseId: string; rows: Pending[] }[] = [];
  for (const [key, threads] of byKey) {
    const handler = threads[HANDLER_CPU.jsThread];
    const empty = threads[HANDLER_CPU.emptyHandler];
    if (!handler || !empty) return undefined;
    const nets = new Map<string, CaseResult>();
    const rows: Pending[] = [];
    for (const v of variants) {
      const h = results.get(`${handler.id}\u0000${v.id}`);
      const e = servedByRound(results.get(`${empty.id}\u0000${v.id}`));
      const paired = [...servedByRound(h).values()].filter((r) => e.has(r.round));
      if (!h || paired.length === 0) continue;
      const row: Pending = { variantId: v.id, processes: { handler: paired.map((r) => r.samples), empty: paired.map((r) => e.get(r.round)!.samples), from: paired.map(pooledFrom) } };
      nets.set(v.id, netResult(h, e));
      const base = nets.get(baseline.id);
      const positive = (r: CaseResult | undefined): boolean => (r?.rounds ?? []).every((x) => x.samples[0]! > 0);
      if (v.id !== baseline.id && base && !(positive(base) && positive(nets.get(v.id)))) row.relativeNote = "a process's handler cost no more than its empty handler: no ratio of net figures";
      else if (v.id !== baseline.id && base) {
        row.pair = pairedCase(base, nets.get(v.id), options, undefined, handler.metric);
        if (!row.pair.raw && row.pair.note) row.relativeNote = row.pair.note;
      }
      rows.push(row);
    }
    pendingCases.push({ label: key, caseId: handler.id, rows });
  }
  const pairs = pendingCases.flatMap((c) => c.rows.flatMap((r) => (r.pair ? [r.pair] : [])));
  const adjusted = adjustAll([...pairs, ...alongside], options);
  const relative = new Map(pairs.map((p, i) => [p, adjusted[i]]));
  const confidence = adjusted.find((a) => a)?.confidence ?? options.confidence;
  const counted = (list: readonly PairedCase[]): number => list.filter((p) => p.raw && !p.digests).length;
  const cases = pendingCases.map((c) => ({
    label: c.label,
    caseId: c.caseId,
    differentWork: run.digestMismatches.some((m) => m.caseId === c.caseId) || c.rows.some((r) => r.pair?.digests),
    rows: c.rows.map((r): RequestSummaryRow => {
      const ratio = r.pair ? relative.get(r.pair) : undefined;
      const net = netDistribution(r.processes.handler, r.processes.empty, { seed: run.options.seed, confidence, from: r.processes.from });
      return { variantId: r.variantId, isBaseline: r.variantId === baseline.id, net, ...(ratio ? { relative: ratio } : {}), ...(r.relativeNote ? { relativeNote: r.relativeNote } : {}) };
    }),
  }));
  return {
    summary: { cases, confidence, ratios: counted(pairs) + counted(alongside), tableConfidence: options.confidence, behind: counted(alongside) },
    alongside: adjusted.slice(pairs.length),
  };
}
