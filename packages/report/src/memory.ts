/**
 * The memory view's rows and cells: per case × variant, the peak resident set
 * while the case was open and how far it rose above what the process held as
 * the case opened (the host's /proc readings, saved with the run's results),
 * the heap in use and the bytes outside it when sampling ended (the engine's
 * own figures, where it tells them), the resident set's growth per call over
 * the samples and the leak mark (decided when the run was finished: run
 * record.ts). Pure: a run in, numbers and strings out. A figure nobody read is
 * n/a with its reason, never 0. A request case's row is its server process's.
 */
import type { CaseResult, MemorySummary, RunRecord } from '@rtbench/core/schema';
import { requestsOf } from '@rtbench/measurer-records/readers';
import { MIN_KEPT_SAMPLES, type MemoryChange } from '@rtbench/verdicts';
import { counted } from './text.ts';
import { formatBytes, NOT_AVAILABLE, summarizeMetrics } from './metrics.ts';

export interface MemoryRow {
  caseId: string;
  variantId: string;
  /** The host's readings (absent: none were made: a run saved before them, or not on Linux). */
  resident?: MemorySummary;
  heapUsedBytes?: number;
  externalBytes?: number;
  /** Why a part reads n/a. */
  reasons: string[];
}

const NOT_READ = 'no resident-memory readings (a run saved before rtbench read them, a measurer that does not, or a host without /proc)';
const REQUEST_NOT_READ = "no resident-memory readings: measured before rtbench read a request server's, or /proc could not be read";
/** Why a request row's heap reads n/a, said in a row's notes and once under a text table. */
const SERVER_FROM_OUTSIDE = 'the server is read from outside (/proc), its engine is not asked';
/** Why a request row's heap reads n/a: a server is read from outside only (a text table says it once, in REQUEST_ROWS). */
export const REQUEST_NO_HEAP = `heap, off-heap: ${SERVER_FROM_OUTSIDE}`;
/** What a request case's row is, said once under a table that has one (its heap's n/a included: a server is read from outside only). */
export const REQUEST_ROWS =
  `a request case's row is its server process: peak RSS while it served the round's requests (its peak reset as it began to listen), what serving added above the listening server, and the growth per request over its steady requests (the requests after its warm-up); a handler's figures (JavaScript thread, all threads, empty handler) share those servers; heap and off-heap read n/a: ${SERVER_FROM_OUTSIDE}`;
const NO_HEAP = 'the runtime reports no heap figures from inside';
const NO_EXTERNAL = 'not reported by the runtime (inside workerd the figures read zeros), or the run was saved before rtbench recorded them';
const LEAK_UNKNOWN = `kept growing: its rounds were too short for the resident set alone to tell a leak from a heap growing to its size, and the runtime does not say what it held (${MIN_KEPT_SAMPLES} samples a round tell it: a --time of a few seconds)`;

/** One row per case × variant with samples, in the run's order. */
export function memoryRows(run: Pick<RunRecord, 'results'>): MemoryRow[] {
  return run.results
    .filter((r) => r.rounds.some((round) => round.samples.length > 0))
    .map((r) => {
      const heap = summarizeMetrics(r).heap;
      const served = isRequestResult(r);
      // The runtime's own word for a part it cannot tell, where it gave one.
      const said = (part: 'heap' | 'external'): string | undefined => r.rounds.map((round) => round.metrics?.unavailable?.[part]).find((why) => why !== undefined);
      const reasons = [
        ...(r.memory ? [] : [served ? REQUEST_NOT_READ : NOT_READ]),
        ...(served ? [REQUEST_NO_HEAP] : []),
        ...(!served && heap?.heapUsedBytes === undefined ? [`heap: ${said('heap') ?? NO_HEAP}`] : []),
        ...(!served && heap?.externalBytes === undefined ? [`off-heap: ${said('external') ?? NO_EXTERNAL}`] : []),
        ...(r.memory?.growthPerCallBytes !== undefined && r.memory.leak === undefined ? [LEAK_UNKNOWN] : []),
      ];
      return {
        caseId: r.caseId,
        variantId: r.variantId,
        ...(r.memory ? { resident: r.memory } : {}),
        ...(heap?.heapUsedBytes !== undefined ? { heapUsedBytes: heap.heapUsedBytes } : {}),
        ...(heap?.externalBytes !== undefined ? { externalBytes: heap.externalBytes } : {}),
        reasons,
      };
    });
}

/** Whether a result's rounds are a request server's (request-shaped cases). */
export const isRequestResult = (r: Pick<CaseResult, 'rounds'>): boolean => r.rounds.some((round) => requestsOf(round) !== undefined);

/** Whether any result of the run has resident-memory readings. */
export function hasMemoryReadings(run: Pick<RunRecord, 'results'>): boolean {
  return run.results.some((r) => r.memory !== undefined);
}

/** A signed size per call: "+4.0 KB", "−12 B", "0 B". */
function formatGrowth(bytes: number | undefined): string {
  if (bytes === undefined) return NOT_AVAILABLE;
  const sign = bytes > 0 ? '+' : bytes < 0 ? '−' : '';
  return `${sign}${formatBytes(Math.abs(bytes))}`;
}

/**
 * The leak mark: when every process kept growing, what the engine held more per call where it said ("held": what
 * the case kept, without the runtime's own growth the resident set carries), the resident set's growth otherwise;
 * "no" when not; n/a when too few readings.
 */
function leakCell(resident: MemorySummary | undefined): string {
  if (resident?.leak === undefined) return NOT_AVAILABLE;
  if (!resident.leak) return 'no';
  return resident.heldPerCallBytes !== undefined ? `LEAK ${formatGrowth(resident.heldPerCallBytes)}/call held` : `LEAK ${formatGrowth(resident.growthPerCallBytes)}/call`;
}

const ratioText = (x: number): string => `${x.toFixed(x >= 10 ? 1 : 2)}×`;

/** "peak RSS 1.32× [1.25–1.40] (99.2% CI, 6 process pairs); time 0.80×": a candidate's peak over the baseline's beside its time. */
export function memoryChangeText(change: MemoryChange | undefined, confidence: number, timeRatio: number | undefined): string {
  const time = timeRatio === undefined ? '' : `; time ${ratioText(timeRatio)}`;
  if (!change) return `peak RSS ${NOT_AVAILABLE} (no set with both peaks read)${time}`;
  const interval = change.interval ? `[${ratioText(change.interval[0]).slice(0, -1)}–${ratioText(change.interval[1])}] (${+(confidence * 100).toFixed(2)}% CI, ` : '(no interval: ';
  return `peak RSS ${ratioText(change.ratio)} ${interval}${counted(change.units, 'process pair')})${time}`;
}

/**
 * Each column's head, named for the question it answers (so a heap of many MB beside 0 B added, or a growth beside
 * "no", reads as two answers, not a contradiction): two short lines for a terminal, joined where a line has room.
 */
export const MEMORY_COLUMNS = [
  { head: 'peak RSS', under: 'while open' },
  { head: 'case added', under: 'at peak' },
  { head: 'heap held', under: 'at end' },
  { head: 'off-heap', under: 'at end' },
  { head: 'RSS grew', under: 'per call' },
  { head: 'kept growing', under: 'every round' },
] as const;

export const MEMORY_HEADERS = MEMORY_COLUMNS.map((c) => `${c.head} ${c.under}`);

export function memoryRowCells(row: MemoryRow): string[] {
  const r = row.resident;
  return [
    r ? formatBytes(r.peakBytes) : NOT_AVAILABLE,
    r ? formatBytes(r.peakAboveOpenBytes) : NOT_AVAILABLE,
    formatBytes(row.heapUsedBytes),
    formatBytes(row.externalBytes),
    formatGrowth(r?.growthPerCallBytes),
    leakCell(r),
  ];
}

export const MEMORY_LEGEND =
  'peak RSS while open: the most resident memory of the runtime process (and what it started) while the case was open, read by the host from /proc (VmHWM, reset as the case opened), median over rounds; ' +
  'case added at peak: that peak less what the process already held as the case opened (over rounds where the case came after another in its process, where any did); ' +
  'heap held / off-heap at end: what the engine said it held when sampling ended (off-heap: ArrayBuffers and other external memory); ' +
  'RSS grew per call: the slope of the resident set over the calls while the case ran warm (the later half of its samples). ' +
  'kept growing every round, the leak rule: LEAK only when every round kept growing from warm to its last sample, past the collections forced at both ends, ' +
  'by more than the runtime\'s own growth (rounds too short alone: where the engine held more in every one, read together); it gives what the engine held more per call between those collections ("held") where it says, the RSS growth otherwise; "no" when a round did not. ' +
  'So a growth per call beside "no" is a rise that did not go on in every round (a runtime growing its heap once, say), not a leak; ' +
  'a heap of many MB beside 0 B added is memory the process already held as the case opened, not memory the case took. n/a: nobody could say (reasons below).';
