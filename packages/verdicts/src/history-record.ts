/**
 * A run as a history reads it: what its view and change points need of each
 * case × variant (the figure recomputed from the samples, the process
 * medians, the arm an unpaired comparison reads) and of the run (its order
 * keys, machine, variants and claims), without the samples. A history of
 * runs read from files makes these from each record; a results store keeps
 * them, so a history of thousands of runs never holds a whole one.
 */
import { createHash } from 'node:crypto';
import type { CaseResult, CaseStats, Metric, RunRecord, Variant, VerdictBasis } from '@rtbench/core/schema';
import { metricOf, TIME_PER_OP } from '@rtbench/core/metric';
import { summarizeArm } from '@rtbench/stats';
import { pairable, requestsOf } from '@rtbench/measurer-records/readers';
import { machineText, summarizeMachine } from './machine-state.ts';
import { armSummary, roundMedians, unpairedArm, type ArmSummary } from './ratios.ts';
import type { SavedRun } from './runs.ts';

/** What a history says of one case × variant of a run. */
export interface HistoryResult {
  caseId: string;
  variantId: string;
  /** The figure: median of process medians with its interval, recomputed from the samples (absent: none, see `note`). */
  figure?: Pick<CaseStats, 'median' | 'ci'>;
  /** Why there is no figure (absent when there is one). */
  note?: string;
  processMedians: number[];
  /** The first round's digest: a point whose digest changed computed another result. */
  digest?: string;
  /** What a comparison with a neighbouring run reads (present with a figure): a few numbers, not the rounds. */
  arm?: ArmSummary;
}

/** What a history says of a run's variant: its binary, for the points that mark a new one. */
export type HistoryVariant = Pick<Variant, 'id' | 'runtime' | 'version' | 'engineVersion' | 'binarySha256' | 'binaryGit'>;

/** A run as a history reads it. */
export interface HistoryRecord {
  id: string;
  suite: string;
  startedAt: string;
  git?: { commit: string; dirty: boolean };
  rtbenchVersion?: string;
  status: RunRecord['status'];
  /** The machine as a history names it (machineText). */
  machine: string;
  /** `os-arch`. */
  platform: string;
  /** Other work shared or changed the machine during the run. */
  unsettled: boolean;
  /** Each case, with its metric when it is not time per operation. */
  cases: { id: string; name: string; metric?: Metric }[];
  variants: HistoryVariant[];
  results: HistoryResult[];
  claims?: RunRecord['claims'];
  /** What decides the verdict's parameters the run is read with. */
  verdict: VerdictBasis;
}

/**
 * Where a result's figure comes from: `recomputed`, its statistics as the
 * loader recomputed them from its samples (saved-runs' computeStats), which a
 * history reuses rather than run the bootstrap over the processes again;
 * `samples`, computed here (a run no loader read: its statistics are not
 * trusted).
 */
export type StatsSource = 'recomputed' | 'samples';

/** A result's statistics recomputed from its samples with processes as the unit, as the bench view does (older runs too). */
function figureOf(result: CaseResult, source: StatsSource): Pick<CaseStats, 'median' | 'ci'> | undefined {
  if (!result.rounds.some((r) => r.samples.length)) return undefined;
  // The loader summarises a request round's steady requests only; the figure here is of all its samples, so only a result without request phases has it already.
  const s = source === 'recomputed' && !result.rounds.some((r) => requestsOf(r)?.phases) ? result.stats : summarizeArm(result.rounds.map(pairable));
  if (!s) return undefined;
  // A 0 median (below the clock resolution) has no statistics in a run either (run's computeStats).
  if (!(s.median > 0)) return undefined;
  return { median: s.median, ...(s.ci ? { ci: [s.ci[0], s.ci[1]] as [number, number] } : {}) };
}

function noFigureNote(result: CaseResult): string {
  if (result.status === 'unsupported') return `unsupported: ${result.failures[0]?.message ?? ''}`;
  if (!result.rounds.length) return `no rounds (${result.failures.at(-1)?.kind ?? 'failed'})`;
  return 'no statistics: the median is 0 (below the clock resolution)';
}

function historyResult(result: CaseResult, metric: Metric, source: StatsSource): HistoryResult {
  const figure = figureOf(result, source);
  const digest = result.rounds[0]?.digest.hash;
  const medians = roundMedians(result);
  return {
    caseId: result.caseId,
    variantId: result.variantId,
    ...(figure ? { figure } : { note: noFigureNote(result) }),
    processMedians: [...medians.values()],
    ...(digest ? { digest } : {}),
    // A result with a figure has rounds with samples: the comparison's arm.
    ...(figure ? { arm: armSummary(unpairedArm(result, metric, medians)) } : {}),
  };
}

const variantOf = (v: Variant): HistoryVariant => ({
  id: v.id,
  runtime: v.runtime,
  ...(v.version ? { version: v.version } : {}),
  ...(v.engineVersion ? { engineVersion: v.engineVersion } : {}),
  ...(v.binarySha256 ? { binarySha256: v.binarySha256 } : {}),
  ...(v.binaryGit ? { binaryGit: v.binaryGit } : {}),
});

/** The run as a history reads it; `source`: whether the loader recomputed its statistics (StatsSource). */
export function historyRecord(run: RunRecord, source: StatsSource = 'samples'): HistoryRecord {
  const m = run.host.machine && summarizeMachine(run.host.machine.points, run.host.cores);
  return {
    id: run.id,
    suite: run.suite,
    startedAt: run.startedAt,
    ...(run.git ? { git: { commit: run.git.commit, dirty: run.git.dirty } } : {}),
    ...(run.rtbenchVersion ? { rtbenchVersion: run.rtbenchVersion } : {}),
    status: run.status,
    machine: machineText(run.host),
    platform: `${run.host.os}-${run.host.arch}`,
    unsettled: m?.changed !== undefined || m?.shared !== undefined,
    cases: run.cases.map((c) => {
      const metric = metricOf(run, c.id);
      return { id: c.id, name: c.name, ...(metric !== TIME_PER_OP ? { metric } : {}) };
    }),
    variants: run.variants.map(variantOf),
    results: run.results.map((r) => historyResult(r, metricOf(run, r.caseId), source)),
    ...(run.claims ? { claims: run.claims } : {}),
    verdict: {
      options: { ...(run.options.measurer !== undefined ? { measurer: run.options.measurer } : {}), ...(run.options.verdict ? { verdict: run.options.verdict } : {}) },
      variants: run.variants.map((v) => ({ ...(v.engine !== undefined ? { engine: v.engine } : {}), ...(v.unavailable !== undefined ? { unavailable: v.unavailable } : {}) })),
    },
  };
}

/** A run as a history reads it and where it came from: from its file, or from a results store. */
export interface HistoryEntry {
  record: HistoryRecord;
  file?: string;
  /** What to call the run instead of its commit or start time. */
  label?: string;
}

/**
 * A run file read for a history: the run as a history reads it, the digest
 * of its whole record (two files holding one record are one run:
 * recordDigest) and what was said of the file as it was read.
 */
export interface HistoryRead extends HistoryEntry {
  file: string;
  digest: string;
  notes?: string[];
}

/** The SHA-256 of a run's record as the loader returned it: two files with one digest hold one run. */
export const recordDigest = (run: RunRecord): string => createHash('sha256').update(JSON.stringify(run)).digest('hex');

/** A loaded run as a history reads it: the loader recomputed its statistics from its rounds. */
export function historyRead({ run, file, notes }: SavedRun): HistoryRead {
  return { record: historyRecord(run, 'recomputed'), file, digest: recordDigest(run), ...(notes?.length ? { notes } : {}) };
}
