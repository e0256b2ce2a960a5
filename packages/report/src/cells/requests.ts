/**
 * The texts of CPU per request (views/requests.ts) that every layout
 * shares: a figure in ms, a share of requests, each with its interval over
 * processes. The terminal, markdown and the HTML page print the same words.
 */
import type { Estimate } from '@rtbench/stats';
import { formatDuration, formatPercent } from '../format.ts';

/** ms with three significant digits. */
export const requestMs = (v: number): string => (v >= 100 ? v.toFixed(0) : v.toPrecision(3));

/** A CPU limit as a duration in its own unit: "10 ms", "500 µs", "1.5 s". */
export const limitText = (ms: number): string => formatDuration(ms * 1e6);

/** A share of requests, two decimals of a percent. */
export const requestShare = (v: number): string => formatPercent(v, 2);

/** "1.16 [1.10–1.22]": the figure and its interval over processes (none with too few processes). */
export function withInterval(e: Estimate, text: (v: number) => string): string {
  return e.ci ? `${text(e.value)} [${text(e.ci[0])}–${text(e.ci[1])}]` : text(e.value);
}

/** The share over the limit with its interval and how many requests: "0.80% [0.50%–1.20%] (12)". */
export function overLimitText(over: Estimate & { count: number }): string {
  return `${withInterval(over, requestShare)} (${over.count})`;
}
