/**
 * What a reporter is given: a view, plain data computed by pure functions from
 * saved runs; every reporter (terminal, markdown, json, csv, bmf, html) renders
 * one and computes nothing statistical itself. A bench table and a comparison
 * are the same analysis (per case, each variant's statistics and its paired
 * ratio against the first variant) in two layouts, discriminated by `kind`;
 * both carry their runs with every raw sample, for plots. A history
 * (views/history.ts) is the third kind: per case × variant a point per run and
 * its change from the previous one, with process medians, not the runs.
 */
import type { LoadSection } from './load.ts';
import type { CpuPerRequestSection } from './cpu-per-request.ts';
import type { RequestSummary } from './request-summary.ts';
import type { CaseResult, CaseStats, RunRecord, Variant, Metric, WorkDifference } from '@rtbench/core/schema';
import type { ProfileManifest } from '@rtbench/core/profile-manifest';
import type { ArmStat, BisectResult, ComparedQuantile, Geomean, RatioComparison, RatioOptions, RunRef } from '@rtbench/verdicts';
import type { ClaimsView } from './claims-types.ts';
import type { ReleaseMatrixView } from './releases.ts';
import type { SteadyStateCell } from './steady-state.ts';

/** One variant (arm) with everything that identifies its binary and flags. */
export interface ArmInfo {
  /** The variant id as written, e.g. "node@26 --max-semi-space-size=64". */
  id: string;
  /** How the report names it (the id, or "node@24 (a.json)" for saved runs). */
  label: string;
  runtime: Variant['runtime'];
  /** "Node.js 26.0.0, V8 14.6.202.33" */
  versionText: string;
  version?: string;
  engine?: Variant['engine'];
  engineVersion?: string;
  flags: string[];
  /** Environment variables the variant sets (translated flags included). */
  env: Record<string, string>;
  binary?: string;
  binarySha256?: string;
  /** The git commit of the binary's checkout, when it was built from one. */
  binaryCommit?: string;
  /** Why it did not run. */
  unavailable?: string;
  /** Saved-run comparisons: the file the arm came from. */
  file?: string;
}

export interface Note {
  level: 'error' | 'warning' | 'info';
  text: string;
}

/** Adaptive rounds: what was aimed for and what was reached, per case × variant. */
export interface PrecisionCell {
  /** Target half-width of the ratio's CI, relative (0.02 = ±2%). */
  target: number;
  /** Half-width reached (relative, on the ratio), absent when no ratio could be formed. */
  reached?: number;
  rounds: number;
  /** Why rounds stopped being added. */
  stoppedBy: 'target' | 'max-rounds' | 'time-budget' | 'interrupted' | 'failed' | 'decided' | 'out-of-reach';
}

// ------------------------------------------------------------------ bench view

export interface BenchRow {
  caseId: string;
  variantId: string;
  /** What the samples measure, when not the loop's time per op (host-timed cases: ms per start, req/s). */
  metric?: Metric;
  /** The raw record: rounds with samples, failures. */
  result: CaseResult;
  status: CaseResult['status'];
  stats?: CaseStats;
  isBaseline: boolean;
  /** This variant's time / the baseline's, paired by round; absent for the baseline and when it cannot be formed. */
  relative?: RatioComparison;
  /** Why there is no relative ratio (e.g. "no round in which both ran"). */
  relativeNote?: string;
  /** Last failure or the unsupported reason, one line. */
  note?: string;
  /** Mean far above the median: rare slow samples the median hides. */
  skew?: string;
  /** Its samples could not span the case's collections within their cap: each process is read by the mean of its samples (stats' readByMean), and why, in one sentence. */
  byCollection?: string;
  /** The medians and the paired ratio point opposite ways beyond the threshold, and why that can be. */
  opposite?: string;
  /** Several modes across processes, e.g. "2 modes: 152 µs ×12, 251 µs ×18" (when the run's statistics have them). */
  modes?: string;
  /** Its processes' steady states (absent: not classified, a run saved before the rule). */
  steady?: SteadyStateCell;
  /** The case did no work the harness could see on this variant (saved with the run): why, in one sentence (views/without-work.ts). */
  withoutWork?: string;
  /** The ratio is shown without a verdict word: this variant or the baseline is without work. */
  noVerdictWord?: true;
  /** Adaptive rounds for this cell (runs made with a target). */
  precision?: PrecisionCell;
}

export interface BenchCase {
  caseId: string;
  /** The name as shown (names.ts): the id, or for a long one its start and end around an ellipsis. */
  label: string;
  name: string;
  group?: string;
  params: Record<string, string | number | boolean>;
  rows: BenchRow[];
  /** The variants' digests when they differ: different work, no comparable times. */
  digestMismatch?: Record<string, string>;
  /** Where the variants' masked answers first differ (a request case). */
  workDifference?: WorkDifference;
}

export interface BenchView {
  kind: 'bench';
  /** The run with its raw samples. */
  run: RunRecord;
  file?: string;
  suite: string;
  /** The variant every ratio is against (the first variant listed). */
  baseline: ArmInfo;
  variants: ArmInfo[];
  cases: BenchCase[];
  threshold: number;
  confidence: number;
  /** The one level every interval of the table is read at: the ratios' once adjusted for their number (`confidence` without ratios); the medians' intervals and the geomeans take it too. */
  level: number;
  fdrAlpha: number;
  /** How the ratios were made. */
  method: string;
  /** How the medians and CIs were made. */
  statsMethod: string;
  /** The run's processes carry no steady-state classification (saved before the rule). */
  notClassified?: boolean;
  notes: Note[];
  /** Per variant other than the baseline: the geometric mean of its paired ratios over the cases that did the same work (absent with fewer than 2). */
  geomeans?: (Geomean & { variantId: string })[];
  /** The project commit the run was made from (and whether the checkout had changes). */
  git?: { commit: string; dirty: boolean };
  /** CPU profiles taken after the run (`--profile`), when the caller read them: the HTML page draws flame graphs, other reporters ignore them. */
  profiles?: ProfileManifest;
  /** CPU per request per case × variant, from request cases and HTTP load cases alike. */
  cpuPerRequest?: CpuPerRequestSection;
  /** HTTP load cases: per measurement × variant, its metrics side by side and its error rate. */
  load?: LoadSection;
  /** A run of request cases, each with its empty handler: per request and runtime, the handler's CPU net of the server's own. */
  requestSummary?: RequestSummary;
}

// ------------------------------------------------------------- comparison view

export interface CaseComparison {
  caseId: string;
  /** The name as shown (names.ts); a quantile row's ends in its quantile. */
  label: string;
  /** A request case's row on a quantile of CPU per request (verdicts' request-quantiles.ts); absent: the case's ratio of medians. */
  quantile?: ComparedQuantile;
  /** As on BenchRow; ratios are of costs (req/s inverted), so < 1 is faster for every metric. */
  metric?: Metric;
  baseline?: ArmStat;
  candidate?: ArmStat;
  /** Absent when the case could not be compared; `note` says why. */
  comparison?: RatioComparison;
  note?: string;
  /** The arms' digests differ: they did different work (with where their masked answers first differ, for a request case). */
  digests?: { baseline: string; candidate: string; where?: WorkDifference };
  precision?: PrecisionCell;
  /** Each arm's steady state (absent: not classified). */
  steady?: { baseline?: SteadyStateCell; candidate?: SteadyStateCell };
  /** The arms without work (views/without-work.ts), each with its sentence: the verdict is not given. */
  withoutWork?: { baseline?: string; candidate?: string };
  /** Instruction counts, a decided verdict: the functions whose own instructions per call moved most (where.ts). */
  where?: FunctionShift[];
}

/** A function's own instructions per call in each arm of a comparison; absent: under 0.1% of that arm's sample. */
export interface FunctionShift {
  /** Shortened (names.ts functionName): no template arguments, parameters or return type; an address in a stripped binary. */
  name: string;
  baseline?: number;
  candidate?: number;
}

export interface ArmComparison {
  baseline: ArmInfo;
  candidate: ArmInfo;
  cases: CaseComparison[];
  /** Geometric mean of the ratios over the compared cases with equal digests (absent with fewer than 2). */
  geomean?: Geomean;
}

export interface ComparisonView {
  kind: 'comparison';
  /** paired: one run, arms interleaved round by round; unpaired: two saved runs. */
  pairing: 'paired' | 'unpaired';
  /** The first (or only) run, with raw samples. */
  run: RunRecord;
  /** Every run the comparison reads (one when paired, two when unpaired). */
  runs: RunRef[];
  suite: string;
  threshold: number;
  confidence: number;
  /** The one level every interval of the view is read at: the ratios' once adjusted for their number (`confidence` without ratios); the geomeans take it too. */
  level: number;
  /** BH false-discovery level applied across every comparison in the view. */
  fdrAlpha: number;
  /** Baseline first. */
  arms: ArmInfo[];
  /** One per candidate arm against the baseline. */
  sections: ArmComparison[];
  /** Things the reader must know: different suites, cases only in one run, hosts differ. */
  notes: string[];
  method: string;
  /** As on BenchView: CPU profiles of a paired comparison's arms, for the HTML page. */
  profiles?: ProfileManifest;
  /** As on BenchView: CPU per request (paired comparisons). */
  cpuPerRequest?: CpuPerRequestSection;
  /** As on BenchView: a request run in brief, what the terminal leads with (paired comparisons). */
  requestSummary?: RequestSummary;
  /** As on BenchView: HTTP load cases side by side (paired comparisons). */
  load?: LoadSection;
}

// ---------------------------------------------------------------- history view

/** A saved run as a history reads it: where it came from and what made it. */
export interface HistoryRun {
  /** Position in the view's order (0: the earliest). */
  index: number;
  file?: string;
  /** Its name in the view when not its commit or start time (a bisect's release: "node@24.3.0"). */
  label?: string;
  runId: string;
  suite: string;
  startedAt: string;
  /** The project commit the run was made from (absent: the run did not record one). */
  commit?: string;
  dirty?: boolean;
  /** The installed rtbench's version, when the run was made by one. */
  rtbenchVersion?: string;
  status: RunRecord['status'];
  /** "Intel Xeon … (2 cores)" */
  host: string;
}

/**
 * One run's figure on one case × variant. `median` is the headline figure the
 * bench table shows (CaseStats.median: the median of the process medians, or of
 * all samples under 5 rounds), in the case's metric; the change is against the
 * previous point of the same series that has figures.
 */
export interface HistoryPoint {
  /** Index into HistoryView.runs. */
  run: number;
  median?: number;
  ci?: [number, number];
  /** Process medians (one per round), the observations the change test compares. */
  processMedians: number[];
  /** The variant's binary in this run. */
  version?: string;
  engineVersion?: string;
  binarySha256?: string;
  binaryCommit?: string;
  /** What about the binary differs from the previous point's (sha256, version), e.g. "sha256 aaaa… → bbbb…". */
  binaryChanged?: string;
  /** The work differs from the previous point's (the case's digest changed): the figures measure different computations. */
  digestChanged?: { from: string; to: string };
  /** This point against the previous one: unpaired ratio of costs (this / previous), BH q across the view. */
  change?: RatioComparison;
  /** The run the change is measured against (index into HistoryView.runs). */
  changeFrom?: number;
  /** A change point: `change` is significant after FDR and beyond the threshold. */
  changePoint?: 'faster' | 'slower';
  /** Why there is no figure or no comparison. */
  note?: string;
}

/** One case × variant across the runs, in the view's order. */
export interface HistorySeries {
  variantId: string;
  runtime: Variant['runtime'];
  points: HistoryPoint[];
}

export interface HistoryCase {
  suite: string;
  caseId: string;
  /** The name as shown (names.ts). */
  label: string;
  name: string;
  metric?: Metric;
  series: HistorySeries[];
}

export interface HistoryView {
  kind: 'history';
  /** How the runs were put in order, and why (e.g. "commit order: git rev-list --topo-order in /repo"). */
  order: { by: 'commit' | 'time' | 'given'; reason: string };
  /** Every run read, in order. */
  runs: HistoryRun[];
  cases: HistoryCase[];
  threshold: number;
  confidence: number;
  fdrAlpha: number;
  /** The change-point rule, in words. */
  method: string;
  notes: Note[];
  /** When the view shows some runs only (views/history-window.ts): those runs, and the comparisons of the points it leaves out. */
  window?: HistoryWindow;
}

/** What a history view shows of its runs when not every one (views/history-window.ts). */
interface HistoryWindow {
  /** The indices of the runs shown, in order: the newest `last` and each one a change point is at or compared with. */
  runs: number[];
  last: number;
  /** Comparisons of the points left out: the change points and the FDR step were over them too. */
  comparisons: number;
}

/** A release's runtime version and engine, as the answer names them. */
export interface BisectEngine {
  version: string;
  /** The engine's id ("v8"). */
  engine: string;
  engineVersion: string;
}

/**
 * A bisect's answer (plain data): the range searched, the case, the verdicts'
 * parameters, the answer and its steps (decided by @rtbench/bisect, shaped in
 * @rtbench/verdicts), the engine of each release it names, and the releases
 * as a series. Built by @rtbench/bisect; drawn through the reporter map
 * (reporters/bisect.ts: terminal, markdown, json).
 */
export interface BisectView {
  kind: 'bisect';
  runtime: string;
  suite: string;
  caseId: string;
  /** The measurer's name. */
  measure: string;
  threshold: number;
  confidence: number;
  sameConfidence: number;
  /** The bisect's folder. */
  folder: string;
  /** Per release the answer names ("node@24.0.0"): its engine, or null where it could not be resolved. */
  engines: Record<string, BisectEngine | null>;
  result: BisectResult;
  /** The releases as a series; absent before any step was saved. */
  series?: HistoryView;
  /** Each engine's name as people write it ("V8"), by its id. */
  engineNames: Record<string, string>;
  /** What was measured: the verdicts are said as times ("faster") or counts ("fewer"). */
  unit: Metric['unit'];
}

/** A view of one or two runs (everything but a history). */
export type RunView = BenchView | ComparisonView;

/** Claims checked by runs (views/claims.ts); a release matrix (views/releases.ts); a bisect's answer (BisectView). */
export type View = BenchView | ComparisonView | HistoryView | ClaimsView | ReleaseMatrixView | BisectView;

/**
 * How one run is viewed: the verdicts' parameters, the file it is read from,
 * notes to show, and view options that are not the run's (--cpu-limit: the
 * CPU limit per request whose share of requests over it is shown).
 */
export type RunViewOptions = Partial<RatioOptions> & { file?: string; notes?: string[]; cpuLimitMs?: number };
