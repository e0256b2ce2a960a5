/**
 * Why results hold no resident-memory readings, in one line: what the memory
 * view says of a run without them and a peak-memory claim of a case without
 * them. Pure: a run's results, host and measurer in, a sentence out.
 */
import type { RunRecord } from '@rtbench/core/schema';
import { loadOf, requestsOf } from '@rtbench/measurer-records/readers';

/** What it reads of a run: its results, and its host and measurer where it has them (a comparison of two runs pools results alone). */
export type UnreadRun = Pick<RunRecord, 'results'> & { host?: Pick<RunRecord['host'], 'os'>; options?: Pick<RunRecord['options'], 'measurer'> };

/** Why these results hold no resident-memory readings: nothing measured, the host, the kind of their cases, or their age. */
export function whyNoReadings(run: UnreadRun): string {
  const rounds = run.results.flatMap((r) => r.rounds);
  if (!rounds.some((round) => round.samples.length > 0)) return 'no case was measured';
  const os = run.host?.os;
  if (os !== undefined && os !== 'Linux') return `it was measured on ${os}, and rtbench reads resident memory from /proc, on Linux only`;
  if (rounds.some((round) => loadOf(round) !== undefined)) return "its cases are load cases, whose server rtbench does not read for memory (a request case's server it does)";
  if (rounds.some((round) => requestsOf(round) !== undefined)) return "its request cases were measured before rtbench read a request server's resident memory";
  const measurer = run.options?.measurer;
  return `it was saved before rtbench read resident memory${measurer ? ` (measured by ${measurer})` : ''}, or /proc could not be read`;
}
