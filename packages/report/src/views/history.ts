/**
 * The history view: per case × variant, the headline figure of every saved
 * run in order, with change points. Pure: runs and their order in, plain data
 * out (the CLI asks git for the order; see chooseOrder). A series is one
 * suite's case on one variant id: a new binary under the same id does not start
 * a new series (showing that change is what a history is for); the point where
 * the sha256 or the version changed says so (binaryChanged). A change point is
 * a point whose unpaired comparison with the previous point that has figures
 * (ratios.ts unpairedCase) is faster or slower at the view's FDR-adjusted
 * level (stats' fdrStep, applyFdr's step). Why neighbours and not segments:
 * docs/history.md.
 */
import type { Metric } from '@rtbench/core/schema';
import { TIME_PER_OP } from '@rtbench/core/metric';
import { formatPercent } from '../format.ts';
import { shownName, shownNames } from '../names.ts';
import { counted, baseName } from '../text.ts';
import type { HistoryCase, HistoryPoint, HistoryRun, HistorySeries, HistoryView, Note } from './types.ts';
import { armRead, ChangeWalk, compareSummaries, decidedDirection, DEFAULT_RATIO_OPTIONS, historyRecord, CHANGE_METHOD, type HistoryEntry, type HistoryInput, type HistoryResult, type HistoryVariant, type PairedCase, type PrewalkedHistory, type RatioOptions, type WalkedHistory } from '@rtbench/verdicts';

/**
 * How to order the runs. commit: `rank` gives each commit's position in the
 * project's history (git rev-list --topo-order), runs at one commit by start
 * time; every run must have a ranked commit. time: by start time.
 */
export type HistoryOrder = { by: 'commit'; rank: ReadonlyMap<string, number>; reason: string } | { by: 'time'; reason: string } | { by: 'given'; reason: string };

export interface HistoryOptions extends Partial<RatioOptions> {
  order?: HistoryOrder;
  /** Only these cases (by id). */
  caseFilter?: (caseId: string) => boolean;
  /** Only these variant ids. */
  variants?: readonly string[];
  /** Said under the view (files that could not be read, …). */
  notes?: Note[];
  /**
   * Only the newest `last` runs' points and those of the change points built:
   * the view a window shows (history-window.ts), without its note
   * (withWindowNote adds it). Every point when absent.
   */
  last?: number;
}

/** What ordering reads of a run: its start and its project commit. */
interface Ordered {
  startedAt: string;
  git?: { commit: string };
}

/** Runs in the order `order` asks for; start time breaks ties (and is the whole order by time). */
export function orderRuns<T extends { file?: string }>(inputs: readonly T[], order: HistoryOrder, of: (x: T) => Ordered): T[] {
  // 'given': the caller's order (a bisect's releases, oldest first).
  if (order.by === 'given') return [...inputs];
  const time = (x: T): number => Date.parse(of(x).startedAt) || 0;
  const rank = (x: T): number => {
    const git = of(x).git;
    return order.by === 'commit' && git ? (order.rank.get(git.commit) ?? Infinity) : 0;
  };
  return [...inputs].sort((a, b) => rank(a) - rank(b) || time(a) - time(b) || (a.file ?? '').localeCompare(b.file ?? ''));
}

/**
 * The order to use for these runs given the commits a checkout knows: commit
 * order when every run recorded a commit the checkout ranks, else start time
 * (with the reason).
 */
export function chooseOrder(runs: readonly Ordered[], rank: ReadonlyMap<string, number> | undefined, where: string): HistoryOrder {
  if (!rank) return { by: 'time', reason: `by start time: ${where}` };
  const without = runs.filter((r) => !r.git).length;
  if (without) return { by: 'time', reason: `by start time: ${without} of ${runs.length} runs recorded no project commit` };
  const unknown = new Set(runs.map((r) => r.git!.commit).filter((c) => !rank.has(c)));
  if (unknown.size) return { by: 'time', reason: `by start time: ${counted(unknown.size, 'commit')} the runs name ${unknown.size === 1 ? 'is' : 'are'} not in ${where} (e.g. ${[...unknown][0]!.slice(0, 12)})` };
  return { by: 'commit', rank, reason: `by commit: git rev-list --topo-order in ${where}; runs at one commit by start time` };
}

function runInfo(input: HistoryEntry, index: number): HistoryRun {
  const { record: run, file, label } = input;
  return {
    index,
    ...(file ? { file } : {}),
    ...(label ? { label } : {}),
    runId: run.id,
    suite: run.suite,
    startedAt: run.startedAt,
    ...(run.git ? { commit: run.git.commit, dirty: run.git.dirty } : {}),
    ...(run.rtbenchVersion ? { rtbenchVersion: run.rtbenchVersion } : {}),
    status: run.status,
    host: run.machine,
  };
}

/** What about a variant's binary differs between two runs, in words; undefined when nothing recorded differs. */
function binaryDifference(before: HistoryVariant | undefined, after: HistoryVariant | undefined): string | undefined {
  if (!before || !after) return undefined;
  const parts: string[] = [];
  if (before.version && after.version && before.version !== after.version) parts.push(`version ${before.version} → ${after.version}`);
  if (before.engineVersion && after.engineVersion && before.engineVersion !== after.engineVersion) parts.push(`engine ${before.engineVersion} → ${after.engineVersion}`);
  if (before.binarySha256 && after.binarySha256 && before.binarySha256 !== after.binarySha256) parts.push(`sha256 ${before.binarySha256.slice(0, 12)} → ${after.binarySha256.slice(0, 12)}`);
  return parts.length ? parts.join(', ') : undefined;
}

interface Pending {
  point: HistoryPoint;
  pair?: PairedCase;
}

/** The last point of a series with figures: what the next is compared with. */
interface LastPoint {
  result: HistoryResult;
  variant: HistoryVariant;
  run: number;
  digest?: string;
}

/** A series being built: its points so far, and the last point with figures. */
interface SeriesState {
  series: HistorySeries;
  last?: LastPoint;
}

/** Moves a series on past a point: a point with figures and an arm is what the next is compared with. */
function advance(result: HistoryResult, variant: HistoryVariant, index: number, entry: SeriesState): LastPoint | undefined {
  const previous = entry.last;
  if (result.figure && result.arm) entry.last = { result, variant, run: index, ...(result.digest ? { digest: result.digest } : {}) };
  return previous;
}

/** One point, and its comparison with the series' previous point (before the FDR step). */
function pointOf(result: HistoryResult, variant: HistoryVariant, index: number, entry: SeriesState, options: RatioOptions): Pending {
  const stats = result.figure;
  const point: HistoryPoint = {
    run: index,
    ...(stats ? { median: stats.median, ...(stats.ci ? { ci: [stats.ci[0], stats.ci[1]] as [number, number] } : {}) } : {}),
    // The run's own array, not a copy: a history of thousands of runs holds one of each.
    processMedians: result.processMedians,
    ...(variant.version ? { version: variant.version } : {}),
    ...(variant.engineVersion ? { engineVersion: variant.engineVersion } : {}),
    ...(variant.binarySha256 ? { binarySha256: variant.binarySha256 } : {}),
    ...(variant.binaryGit ? { binaryCommit: `${variant.binaryGit.commit.slice(0, 12)}${variant.binaryGit.dirty ? '-dirty' : ''}` } : {}),
  };
  entry.series.points.push(point);
  const previous = advance(result, variant, index, entry);
  if (!stats || !result.arm) {
    point.note = result.note ?? 'no comparison';
    return { point };
  }
  if (!previous) return { point };
  const changed = binaryDifference(previous.variant, variant);
  if (changed) point.binaryChanged = changed;
  point.changeFrom = previous.run;
  const digest = result.digest;
  if (previous.digest && digest && previous.digest !== digest) point.digestChanged = { from: previous.digest, to: digest };
  // Both points have figures, so both have rounds with samples: the comparison has its arms.
  const pair = compareSummaries(previous.result.arm!, result.arm, options);
  if (!pair.raw) {
    point.note = pair.note ?? 'no comparison';
    return { point };
  }
  return { point, pair };
}

/** The view's cases as they are being built, by suite and case id. */
type CasesBuilt = Map<string, HistoryCase & { bySeries: Map<string, SeriesState> }>;

/**
 * Every point of the ordered runs, in order, given to `visit` with its series
 * (made as it first appears: cases in the order they first appear, series in
 * the order their variant first appears); warns in `notes` of a case whose
 * unit changes. A second walk over the same `cases` visits the same points.
 */
function walkPoints(ordered: readonly HistoryEntry[], options: HistoryOptions, cases: CasesBuilt, notes: Note[] | undefined, visit: (result: HistoryResult, variant: HistoryVariant, index: number, entry: SeriesState) => void): void {
  const wanted = options.variants ? new Set(options.variants) : undefined;
  ordered.forEach(({ record: run }, index) => {
    const variants = new Map(run.variants.map((v) => [v.id, v]));
    for (const c of run.cases) {
      if (options.caseFilter && !options.caseFilter(c.id)) continue;
      const key = `${run.suite}\u0000${c.id}`;
      const metric: Metric = c.metric ?? TIME_PER_OP;
      let hc = cases.get(key);
      if (!hc) {
        hc = { suite: run.suite, caseId: c.id, label: c.id, name: c.name, ...(c.metric ? { metric } : {}), series: [], bySeries: new Map() };
        cases.set(key, hc);
      } else if (notes && (hc.metric ?? TIME_PER_OP).unit !== metric.unit) {
        notes.push({ level: 'warning', text: `"${shownName(c.id)}" is measured in ${metric.unit} in run ${index + 1} but in ${(hc.metric ?? TIME_PER_OP).unit} before; its figures are not comparable across that run` });
      }
      for (const result of run.results) {
        if (result.caseId !== c.id) continue;
        const variant = variants.get(result.variantId);
        if (!variant || (wanted && !wanted.has(variant.id))) continue;
        let entry = hc.bySeries.get(variant.id);
        if (!entry) {
          entry = { series: { variantId: variant.id, runtime: variant.runtime, points: [] } };
          hc.bySeries.set(variant.id, entry);
          hc.series.push(entry.series);
        }
        visit(result, variant, index, entry);
      }
    }
  });
}

/**
 * The first walk of a history held in memory: every point, in run order,
 * into verdicts' ChangeWalk (each neighbour comparison a p-value in the FDR
 * step; with a window, the runs it shows). Warns in `notes` of a case whose
 * unit changes.
 */
function firstWalk(ordered: readonly HistoryEntry[], options: HistoryOptions, ratioOptions: RatioOptions, cases: CasesBuilt, notes: Note[], last: number | undefined): WalkedHistory {
  const walk = new ChangeWalk(ordered.length, ratioOptions, last);
  const index = new Map<SeriesState, number>();
  walkPoints(ordered, options, cases, notes, (result, _variant, run, entry) => {
    let s = index.get(entry);
    if (s === undefined) index.set(entry, (s = index.size));
    walk.add(s, run, result.figure && result.arm ? armRead(result.arm) : undefined);
  });
  return walk.finish();
}

/** A prewalked history's cases, made from every run's facts (and its unit notes) as the first walk would. */
function casesOf(ordered: readonly HistoryEntry[], options: HistoryOptions, cases: CasesBuilt, notes: Note[], { walked }: PrewalkedHistory): WalkedHistory {
  walkPoints(ordered, options, cases, notes, () => undefined);
  for (const hc of cases.values()) {
    hc.bySeries.clear();
    hc.series.length = 0;
  }
  return walked;
}

/**
 * Each case's series as the first walk met them (a prewalked history: only
 * the runs the window reads carry their results): those the window has no
 * point of are there too, empty, as a whole walk makes them.
 */
function inWalkOrder(ordered: readonly HistoryEntry[], cases: CasesBuilt, series: PrewalkedHistory['series']): void {
  const made = new Map<string, HistorySeries>();
  for (const hc of cases.values()) {
    for (const [variantId, entry] of hc.bySeries) made.set(`${hc.suite}\u0000${hc.caseId}\u0000${variantId}`, entry.series);
    hc.series.length = 0;
  }
  for (const s of series) {
    const hc = cases.get(`${s.suite}\u0000${s.caseId}`);
    hc?.series.push(made.get(`${s.suite}\u0000${s.caseId}\u0000${s.variantId}`) ?? { variantId: s.variantId, runtime: ordered[s.firstRun]!.record.variants.find((v) => v.id === s.variantId)!.runtime, points: [] });
  }
}

/** The history of runs as their records hold them (history-record.ts makes each; a results store keeps it). */
export function historyView(inputs: readonly HistoryInput[], options: HistoryOptions = {}): HistoryView {
  return historyViewOf(
    inputs.map(({ run, file, label }) => ({ record: historyRecord(run), ...(file !== undefined ? { file } : {}), ...(label !== undefined ? { label } : {}) })),
    options,
  );
}

/**
 * The history of `entries`: one case per suite and case id, one series per
 * variant id, a point per run that measured it. Throws nothing; runs with no
 * case in common simply give separate cases. Every comparison is in the FDR
 * step as a p-value first, and each point built is read at its level (as
 * historyChanges reads them, each interval read once). With `last`, the view
 * a window of it shows (history-window.ts), made without the points it
 * leaves out: a history of ten thousand runs holds neither their points nor
 * their comparisons.
 */
export function historyViewOf(entries: readonly HistoryEntry[], options: HistoryOptions = {}, prewalked?: PrewalkedHistory): HistoryView {
  const ratioOptions: RatioOptions = { threshold: options.threshold ?? DEFAULT_RATIO_OPTIONS.threshold, confidence: options.confidence ?? DEFAULT_RATIO_OPTIONS.confidence };
  const order = options.order ?? { by: 'time', reason: 'by start time' };
  const ordered = orderRuns(entries, order, (x) => x.record);
  const runs = ordered.map(runInfo);
  const notes: Note[] = [...(options.notes ?? [])];

  const cases: CasesBuilt = new Map();
  const last = options.last !== undefined && options.last < ordered.length ? options.last : undefined;
  const { step, m, shown: window } = prewalked ? casesOf(ordered, options, cases, notes, prewalked) : firstWalk(ordered, options, ratioOptions, cases, notes, last);
  const pending: Pending[] = [];
  walkPoints(ordered, options, cases, undefined, (result, variant, index, entry) => {
    if (!window || window.has(index)) pending.push(pointOf(result, variant, index, entry, ratioOptions));
    else advance(result, variant, index, entry);
  });
  let built = 0;
  for (const p of pending) if (readAtStep(p, step)) built++;
  if (prewalked) inWalkOrder(ordered, cases, prewalked.series);
  const kept = [...cases.values()].filter((c) => c.series.length);
  const names = shownNames(kept.map((c) => c.caseId));
  const shown = kept.map(({ bySeries: _bySeries, ...c }) => ({ ...c, label: names.get(c.caseId)! }));
  const suites = new Set(ordered.map((x) => x.record.suite));
  if (suites.size > 1) notes.push({ level: 'info', text: `${suites.size} suites: ${[...suites].join(', ')}; a case is one suite's case` });
  const hosts = new Set(ordered.map((x) => x.record.machine));
  if (hosts.size > 1) notes.push({ level: 'warning', text: `the runs were made on ${hosts.size} different machines or set-ups (${[...hosts].join('; ')}): a change between runs on different machines, kernels, governors or CPU quotas is theirs as much as the code's` });
  const platforms = new Set(ordered.map((x) => x.record.platform));
  if (platforms.size > 1) notes.push({ level: 'warning', text: `the runs come from ${platforms.size} platforms (${[...platforms].join(', ')}): each runtime is another build on each` });
  const unsettled = ordered.filter((x) => x.record.unsettled);
  if (unsettled.length) {
    const ids = unsettled.map((x) => x.record.id);
    notes.push({ level: 'warning', text: `${counted(unsettled.length, 'run')} ran while other work shared or changed the machine (${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''}): a change at such a run may be the machine's` });
  }
  const dirty = runs.filter((r) => r.dirty).length;
  if (dirty) notes.push({ level: 'info', text: `${dirty} run${dirty === 1 ? ' was' : 's were'} made from a checkout with uncommitted changes (marked -dirty)` });
  return {
    kind: 'history',
    order: { by: order.by, reason: order.reason },
    runs,
    cases: shown,
    threshold: ratioOptions.threshold,
    confidence: ratioOptions.confidence,
    fdrAlpha: 1 - ratioOptions.confidence,
    method: CHANGE_METHOD,
    notes,
    ...(window ? { window: { runs: [...window].sort((a, b) => a - b), last: last!, comparisons: m - built } } : {}),
  };
}

/**
 * One series' points as historyViewOf makes them for a view without a
 * window: `results` the series' results in run order (the results of
 * `variantId` in the runs of `ordered` that have them), each compared with
 * the previous one that has an arm and read at `step`, the whole history's
 * FDR step (a first walk's). A history's JSON is written a series at a time
 * this way, never holding every point.
 */
export function seriesPoints(ordered: readonly HistoryEntry[], variantId: string, results: Iterable<{ run: number; result: HistoryResult }>, walked: Pick<WalkedHistory, 'step'>, options: HistoryOptions = {}): HistoryPoint[] {
  const ratioOptions: RatioOptions = { threshold: options.threshold ?? DEFAULT_RATIO_OPTIONS.threshold, confidence: options.confidence ?? DEFAULT_RATIO_OPTIONS.confidence };
  const entry: SeriesState = { series: { variantId, runtime: '', points: [] } };
  for (const { run, result } of results) {
    const variant = ordered[run]!.record.variants.find((v) => v.id === variantId);
    if (!variant) continue;
    readAtStep(pointOf(result, variant, run, entry, ratioOptions), walked.step);
  }
  return entry.series.points;
}

/** A point's comparison read at the view's step, and whether it is a change point; false when it has none in the FDR family. */
function readAtStep(p: Pending, step: WalkedHistory['step']): boolean {
  // adjustAll's family: a comparison of the same work.
  if (!p.pair?.raw || p.pair.digests) return false;
  const change = step.readAt(p.pair.raw);
  const direction = decidedDirection(change);
  Object.assign(p.point, { change, ...(direction ? { changePoint: direction } : {}) });
  return true;
}

/** The points of a view that are change points, with their case and series (for summaries and --fail-on-regression). */
export function changePoints(view: HistoryView): { hc: HistoryCase; series: HistorySeries; point: HistoryPoint }[] {
  return view.cases.flatMap((hc) => hc.series.flatMap((series) => series.points.filter((p) => p.changePoint).map((point) => ({ hc, series, point }))));
}

/** The comparisons of neighbouring runs the view made: those of its points, and those of the points a window leaves out. */
export function comparisonCount(view: HistoryView): number {
  return view.cases.reduce((n, hc) => n + hc.series.reduce((m, s) => m + s.points.filter((p) => p.change).length, 0), 0) + (view.window?.comparisons ?? 0);
}

/** "3 change points in 40 comparisons (FDR 5%, threshold 1%)" */
export function changeSummary(view: HistoryView): string {
  const compared = comparisonCount(view);
  const found = changePoints(view).length;
  return `${counted(found, 'change point')} in ${counted(compared, 'comparison')} of neighbouring runs (FDR ${formatPercent(view.fdrAlpha, 0)}, threshold ${formatPercent(view.threshold, 0)})`;
}

/** A run's short name in a history: "abc1234-dirty", or its start date when it has no commit. */
export function runLabel(run: HistoryRun): string {
  if (run.label) return run.label;
  if (run.commit) return `${run.commit.slice(0, 7)}${run.dirty ? '-dirty' : ''}`;
  return run.startedAt.slice(0, 16).replace('T', ' ');
}

/** The run's file name, without its directory. */
export function runFileName(run: HistoryRun): string | undefined {
  return run.file ? baseName(run.file) : undefined;
}
