/**
 * A request case's distribution for the page: per variant, the share of its
 * warm requests (every process's after its first, pooled, as the table's
 * quantiles) above each CPU time, with the run's --cpu-limit, and the
 * texts the terminal and markdown print beside it (cells/requests.ts). The
 * curve is read off the saved requests; the figures are the view's
 * (views/requests.ts), so the page and the table cannot disagree.
 */
import type { CaseResult } from '@rtbench/core/schema';
import { overLimitText, requestMs, withInterval } from '../cells/requests.ts';
import { servedRounds, type RequestsSection } from '../views/requests.ts';

/** One variant's requests: the curve, and the figures as the table prints them. */
export interface PageRequestCurve {
  variant: string;
  /**
   * [ms, share of the warm requests above it]: at each kept request's CPU
   * (ascending), the share of requests at or above it, so drawn as steps
   * the curve's height at the limit is the share over the limit. The
   * highest requests are all kept; below them every k-th.
   */
  points: [number, number][];
  p50Text: string;
  p99Text: string;
  /** The share over the limit with its interval and count; absent without a limit. */
  overText?: string;
  /** The client's latency p50 and p99 with their intervals; absent in runs saved before latency was kept. */
  latencyText?: { p50: string; p99: string };
  requests: number;
  processes: number;
}

export interface PageCaseRequests {
  /** The run's --cpu-limit, ms; absent when none was asked. */
  limitMs?: number;
  curves: PageRequestCurve[];
}

/** Requests kept one by one at the top of a curve (the tail a limit cuts), and about as many spread below. */
const TAIL_POINTS = 200;
const BODY_POINTS = 200;

/** A curve's points from a variant's requests: ascending, the share at or above each; thinned below the tail. */
export function exceedancePoints(requests: readonly number[]): [number, number][] {
  const sorted = Float64Array.from(requests).sort();
  const n = sorted.length;
  const body = Math.max(0, n - TAIL_POINTS);
  const step = Math.max(1, Math.ceil(body / BODY_POINTS));
  const points: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    // Where equal values repeat, only the first of them gives its share (the others would draw a vertical run).
    if (i > 0 && sorted[i] === sorted[i - 1]) continue;
    if (i < body && i % step !== 0) continue;
    // Six digits: a request just over a limit stays over it on the page.
    points.push([+sorted[i]!.toPrecision(6), (n - i) / n]);
  }
  return points;
}

/**
 * The case's distributions for its variants (`key`: the page's key of the
 * variant `variantId`), or undefined when the case is not a request case
 * or the view has no figures for it.
 */
export function caseRequests(section: RequestsSection | undefined, caseId: string, inputs: readonly { key: string; variantId: string; result: CaseResult }[]): PageCaseRequests | undefined {
  if (!section) return undefined;
  const curves = inputs.flatMap(({ key, variantId, result }): PageRequestCurve[] => {
    const row = section.rows.find((r) => r.caseId === caseId && r.variantId === variantId);
    if (!row) return [];
    const d = row.distribution;
    return [
      {
        variant: key,
        points: exceedancePoints(servedRounds(result).flatMap((r) => r.samples.slice(1))),
        p50Text: withInterval(d.quantiles.p50, requestMs),
        p99Text: withInterval(d.quantiles.p99, requestMs),
        ...(d.overLimit ? { overText: overLimitText(d.overLimit) } : {}),
        ...(row.latency ? { latencyText: { p50: withInterval(row.latency.p50, requestMs), p99: withInterval(row.latency.p99, requestMs) } } : {}),
        requests: d.requests,
        processes: d.processes,
      },
    ];
  });
  if (!curves.length) return undefined;
  return { ...(section.limitMs !== undefined ? { limitMs: section.limitMs } : {}), curves };
}
