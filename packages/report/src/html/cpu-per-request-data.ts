/**
 * CPU per request for the page: per case, each variant's samples as the
 * share of them above each CPU time (a request case's warm requests, every
 * process's after its first, pooled as the table's quantiles; a load case's
 * windows), with the run's --cpu-limit, and beside it the table's cells
 * under the page's columns of the one column list (cells/cpu-per-request.ts).
 * The curve is read off the saved samples; the figures are the view's
 * (views/cpu-per-request.ts), so the page and the table cannot disagree.
 */
import type { CaseResult } from '@rtbench/core/schema';
import { cpuCell, cpuColumns, overLimitText } from '../cells/cpu-per-request.ts';
import { pooledSamples, type CpuPerRequestSection } from '../views/cpu-per-request.ts';

/** One variant's samples: the curve, and the figures as the table prints them. */
export interface PageRequestCurve {
  variant: string;
  /**
   * [ms, share of the samples above it]: at each kept sample's CPU
   * (ascending), the share of samples at or above it, so drawn as steps
   * the curve's height at the limit is the share over the limit. The
   * highest samples are all kept; below them every k-th.
   */
  points: [number, number][];
  /** Its cells under PageCaseRequests' heads. */
  cells: string[];
  /** The share over the limit with its interval and count, for the chart's mark where the curve crosses the limit; absent without a limit. */
  overText?: string;
}

export interface PageCaseRequests {
  /** The run's --cpu-limit, ms; absent when none was asked. */
  limitMs?: number;
  /** The heads of the table beside the chart, after the runtime, and each column's class beside `num`. */
  heads: { text: string; class?: string }[];
  /** What one sample is: a request (or a wave's share of one), or a load window's CPU over its responses. */
  samples: 'requests' | 'windows';
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
 * The case's samples for its variants (`key`: the page's key of the
 * variant `variantId`), or undefined when the case has no CPU per request
 * or the view has no figures for it.
 */
export function caseRequests(section: CpuPerRequestSection | undefined, caseId: string, inputs: readonly { key: string; variantId: string; result: CaseResult }[]): PageCaseRequests | undefined {
  if (!section) return undefined;
  const columns = cpuColumns(section, 'page');
  const rows = inputs.flatMap(({ key, variantId, result }) => {
    const row = section.rows.find((r) => r.caseId === caseId && r.variantId === variantId);
    return row ? [{ key, row, result }] : [];
  });
  if (!rows.length) return undefined;
  const curves = rows.map(({ key, row, result }): PageRequestCurve => {
    const over = row.distribution?.overLimit;
    return { variant: key, points: exceedancePoints(pooledSamples(result)), cells: columns.map((c) => cpuCell(c, row)), ...(over ? { overText: overLimitText(over) } : {}) };
  });
  return {
    ...(section.limitMs !== undefined ? { limitMs: section.limitMs } : {}),
    heads: columns.map((c) => ({ text: c.head(section), ...(c.pageClass ? { class: c.pageClass } : {}) })),
    samples: rows.every(({ row }) => row.windows) ? 'windows' : 'requests',
    curves,
  };
}
