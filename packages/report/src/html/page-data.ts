/**
 * What the HTML page draws: a plain-data digest of a view, computed here (in
 * Node) so the page only lays out and plots. Every number shown as text is
 * formatted with the report's shared formatters, so the page says exactly what
 * the terminal and markdown reports say. Distributions are binned here, on a
 * log scale with the same bins for every variant of a case: a few hundred bars
 * per case instead of every raw sample (those stay in the run file and in
 * `--format json`). Variants and cases are addressed by generated keys (v0,
 * c3), never by their names: names come from a run file, untrusted text.
 */
import { counted } from '../text.ts';
import { shownName, shownNames } from '../names.ts';
import { verdictWords, type VerdictWords } from '../verdict-words.ts';
import type { CaseResult, Metric, RunRecord, WorkDifference } from '@rtbench/core/schema';
import { metricOf, TIME_PER_OP } from '@rtbench/core/metric';
import { median, processesOf } from '@rtbench/stats';
import { pairable } from '@rtbench/measurer-records/readers';
import { rowStats } from '../views/bench.ts';
import { differentWorkText } from '../views/different-work.ts';
import { formatDuration, formatRange, hasFiniteInterval, ratioWithCi } from '../format.ts';
import { benchFacts, benchLegend, benchResultRow, comparisonCells, designLine, legend, roundsHad } from '../cells/run.ts';
import { comparisonPageClass, comparisonPageColumns, type ComparisonCells } from '../columns/comparison.ts';
import { COLUMNS, pageColumns, VARIANT_COLUMN, type PageColumnId, type ResultRow, type TableFacts } from '../columns/results.ts';
import { comparisonFacts, comparisonResultRow } from '../cells/rows.ts';
import type { ArmInfo, BenchView, ComparisonView, RunView, View } from '../views/types.ts';
import { caseMemory, caseMetrics, type PageCaseMetrics } from './metrics-data.ts';
import { caseRequests, type PageCaseRequests } from './cpu-per-request-data.ts';
import { pageLoad, type PageLoad } from './load-data.ts';
import { profilesOfView, type PageProfiles } from './flame-data.ts';
import { benchSummary, comparisonSummary, pageGeomean, shownVerdict, type PageGeomean, type PageSummary } from './summary-data.ts';
import type { RatioComparison } from '@rtbench/verdicts';

export type VerdictName = RatioComparison['verdict'];

/** A variant as the page shows it: the view's arm, with a key for the page's own use. */
export type PageVariant = Pick<ArmInfo, 'label' | 'runtime' | 'versionText' | 'flags' | 'env' | 'binary' | 'binarySha256' | 'binaryCommit' | 'unavailable' | 'file'> & {
  key: string;
  /** The flags as given to the runtime's command line (after translation), when the run recorded them. */
  passedArgs: string[];
  isBaseline: boolean;
};

/** A ratio against the baseline with its CI and verdict, for plotting. */
interface PageRatio {
  ratio: number;
  /** Absent: too few independent units for an interval. */
  ci?: [number, number];
  verdict: VerdictName;
  /** "0.739 [0.731–0.748]" */
  text: string;
}

/** One bar of a case's sample histogram (log-spaced bin edges, ns per op). */
export interface HistogramBin {
  x1: number;
  x2: number;
  /** Share of the variant's samples in this bin. */
  share: number;
  count: number;
}

/** A cluster of process medians (run statistics' `modes`, when the run has them). */
interface ModeBand {
  center: number;
  count: number;
  low: number;
  high: number;
}

/** One process's samples in the order taken: [ms since its first sample, ns per op]. */
interface SampleTrace {
  round: number;
  points: [number, number][];
}

/** One process's watched warmup: [ms since the warmup began, ns per call] per point, where it settled, and its class. */
interface WarmupCurve {
  round: number;
  points: [number, number][];
  /** ms where the watch found it steady (absent: it never did). */
  steadyMs?: number;
  class?: string;
}

/** A cell's text in each column its table shows, as `<id>Text` (columns/results.ts). */
type ColumnTexts = { [K in PageColumnId as `${K}Text`]?: string };

export type PageCell = ColumnTexts & {
  variant: string;
  status: CaseResult['status'];
  /** Colours the relative and verdict texts. */
  verdict?: string;
  median?: number;
  ci?: [number, number];
  /** Each process's median sample, ns per op. */
  processMedians: { round: number; ns: number }[];
  histogram: HistogramBin[];
  /** Two or more clusters of process medians, when the run's statistics found them. */
  modes?: ModeBand[];
  /** Per-process sample traces, when the run recorded when each sample started. */
  traces?: SampleTrace[];
  /** Per-process warmup curves, when the run's warmups were watched. */
  warmups?: WarmupCurve[];
  /** A marked cell's steady states: the mark's sentence and every class's count. */
  steadyText?: string;
  samples: number;
  outliers?: number;
  /** Against the baseline, for the charts; absent for the baseline itself and when no ratio could be formed. */
  relative?: PageRatio;
  relativeNote?: string;
  note?: string;
  skew?: string;
  /** Read by its processes' means: samples bimodal by collection (views/bench.ts). */
  byCollection?: string;
  /** The medians and the paired ratio point opposite ways (views/bench.ts). */
  opposite?: string;
  modesText?: string;
};

/** A column of the page's case tables: its head and its cells' classes (columns/results.ts); `coloured` cells add their verdict as a class. */
interface PageColumn {
  id: PageColumnId;
  head: string;
  th: string;
  td: string;
  coloured: boolean;
}

/** What a case's charts draw: time per operation in ns (times in ms and rates are converted), or a count (instructions) as counted. */
export type ChartUnit = Exclude<Metric['unit'], 'ms' | 'req/s'>;

export interface PageCase {
  key: string;
  /** What the case's sample charts draw (asChartResult). */
  chartUnit: ChartUnit;
  /** The full id (the search box matches it). */
  id: string;
  /** The id as shown (names.ts); name, group and paramsText are shown capped the same way. */
  label: string;
  name: string;
  group?: string;
  paramsText: string;
  /** The variants' digests differ: set to a sentence saying so. */
  mismatch?: string;
  cells: PageCell[];
  /** Engine metrics (GC, allocation, heap) per variant, when the run recorded them. */
  metrics?: PageCaseMetrics;
  /** Resident memory per variant (the `--metrics memory` view), when the run read it. */
  memory?: PageCaseMetrics;
  /** A case with CPU per request (a request case, a load case's CPU): each variant's samples and figures, with the run's CPU limit. */
  requests?: PageCaseRequests;
}

/** A cell of a forest table: its text and its class (columns/comparison.ts). */
export interface ForestCell {
  text: string;
  class?: string;
  label?: string;
}

interface ForestRow {
  caseKey: string;
  caseLabel: string;
  /** Absent when the case was not compared; `texts.detail` says why. */
  ratio?: PageRatio;
  /** The comparison table's texts, as the terminal prints them. */
  texts: ComparisonCells;
  /** Its cells after the plot, one per column of `heads`. */
  cells: ForestCell[];
}

export interface ForestSection {
  baseline: string;
  candidate: string;
  /** The heads of the columns after the plot, in the page's order (columns/comparison.ts). */
  heads: { text: string; class: string }[];
  rows: ForestRow[];
  /** The geomean with its cells after the plot: its ratio in the column that holds it. */
  geomean?: PageGeomean & { cells: ForestCell[] };
}

interface EnvironmentPanel {
  title: string;
  rows: [string, string][];
}

export interface PageData {
  kind: View['kind'];
  title: string;
  subtitle: string;
  suite: string;
  /** Verdict noise band: ratios inside [1/(1+t), 1+t] are "no change". */
  threshold: number;
  confidence: number;
  /** What the ratios are of and what their verdicts are called ("fewer"/"more" for instruction counts). */
  words: VerdictWords;
  variants: PageVariant[];
  /** The case tables' columns: the variant's head, then the figures (columns/results.ts). */
  table: { variantHead: string; columns: PageColumn[] };
  cases: PageCase[];
  /** Every case × non-baseline arm against its baseline on one ratio scale: what the page shows first. */
  summary: PageSummary;
  /** Comparison view: one forest plot per candidate arm. */
  sections: ForestSection[];
  environment: EnvironmentPanel[];
  notes: { level: 'error' | 'warning' | 'info'; text: string }[];
  method: string[];
  /** CPU profiles taken after the run (--profile), drawn as flame graphs (flame-data.ts). */
  profiles?: PageProfiles;
  /** HTTP load measurements: each variant's requests/s, latency line, wake-ups and error rate (their CPU per request: the cases' own `requests`). */
  load?: PageLoad;
}

/** Bars per case histogram. Enough to show two modes 10% apart, few enough to read. */
const HISTOGRAM_BINS = 48;

/** The page of each kind of view of runs. */
const PAGES: { [K in RunView['kind']]: (view: Extract<RunView, { kind: K }>) => PageData } = {
  bench: (view) => benchPage(view),
  comparison: (view) => comparisonPage(view),
};

export function pageData(view: RunView): PageData {
  const page = (PAGES[view.kind] as (view: RunView) => PageData)(view);
  const profiles = profilesOfView(view, page.cases);
  return profiles ? { ...page, profiles } : page;
}

// ------------------------------------------------------------------ bench

/** The case tables' columns for a table with these facts, and their texts in a row. */
function pageTable(facts: TableFacts): PageData['table'] {
  const columns = pageColumns(facts).map((c): PageColumn => ({
    id: c.id,
    head: c.head(facts),
    th: 'num' in c.page && c.page.num ? 'num' : '',
    td: `${'num' in c.page && c.page.num ? 'num ' : ''}${c.page.class}`,
    coloured: 'emphasis' in c && c.emphasis === 'verdict',
  }));
  return { variantHead: VARIANT_COLUMN.head(facts), columns };
}

function columnTexts(columns: readonly PageColumn[], row: ResultRow): ColumnTexts {
  const byId = new Map(COLUMNS.map((c) => [c.id, c] as const));
  return Object.fromEntries(columns.map((c) => [`${c.id}Text`, (byId.get(c.id) as { text(row: ResultRow): string }).text(row)]));
}

function benchPage(view: BenchView): PageData {
  const table = pageTable(benchFacts(view));
  const { columns } = table;
  const variants = view.variants.map((arm, i) => pageVariant(arm, i, arm.id === view.baseline.id, view.run));
  const keyOf = new Map(view.variants.map((arm, i) => [arm.id, `v${i}`]));
  const cases = view.cases.map((c, i): PageCase => {
    // Charts draw times (per start or per request for a case with its own metric), or instruction counts.
    const metric = metricOf(view.run, c.caseId);
    const results = c.rows.map((row) => asChartResult(row.result, metric));
    const edges = binEdges(results);
    return {
      key: `c${i}`,
      chartUnit: chartUnitOf(metric),
      id: c.caseId,
      label: c.label,
      name: shownName(c.name),
      ...(c.group !== undefined ? { group: shownName(c.group) } : {}),
      paramsText: shownName(paramsText(c.params)),
      ...(c.digestMismatch ? { mismatch: mismatchText(c.digestMismatch, c.workDifference) } : {}),
      cells: c.rows.map((row): PageCell => {
        const r = benchResultRow(row, Boolean(c.digestMismatch));
        return {
          ...cellBase(keyOf.get(row.variantId) ?? row.variantId, asChartResult(row.result, metric), edges),
          ...columnTexts(columns, r),
          ...optional('verdict', r.relative.verdict),
          ...(row.relative ? { relative: pageRatio(row.relative, row.noVerdictWord) } : {}),
          ...optional('relativeNote', row.relativeNote),
          ...optional('note', row.note),
          ...optional('skew', row.skew),
          ...optional('byCollection', row.byCollection),
          ...optional('opposite', row.opposite),
          ...optional('modesText', row.modes),
          ...optional('steadyText', row.steady?.text ? `${row.steady.text} (${row.steady.summary})` : undefined),
        };
      }),
      ...optional('metrics', caseMetrics(c.rows.filter((row) => row.result.rounds.length > 0).map((row) => ({ variant: keyOf.get(row.variantId) ?? row.variantId, result: row.result })))),
      ...optional('memory', caseMemory(c.rows.filter((row) => row.result.rounds.length > 0).map((row) => ({ variant: keyOf.get(row.variantId) ?? row.variantId, result: row.result })))),
      ...optional('requests', caseRequests(view.cpuPerRequest, c.caseId, c.rows.map((row) => ({ key: keyOf.get(row.variantId) ?? row.variantId, variantId: row.variantId, result: row.result })))),
    };
  });
  const run = view.run;
  return {
    kind: 'bench',
    title: `${view.suite}: ${view.variants.map((v) => v.label).join(', ')}`,
    subtitle: runLine(run, view.file),
    suite: view.suite,
    threshold: view.threshold,
    confidence: view.confidence,
    words: verdictWords(view.run.cases[0]?.metric),
    variants,
    table,
    cases,
    summary: benchSummary(view, (id) => `c${view.cases.findIndex((c) => c.caseId === id)}`, (id) => keyOf.get(id) ?? id),
    sections: [],
    environment: [runPanel(run, view.file), hostPanel(run)],
    notes: view.notes.map((n) => ({ level: n.level, text: n.text })),
    method: benchLegend(view),
    ...optional('load', pageLoad(view.load, (id) => keyOf.get(id) ?? id)),
  };
}

// ------------------------------------------------------------- comparison

function comparisonPage(view: ComparisonView): PageData {
  // Arms are matched by label (unique within a view), not by object identity.
  // A baseline is any section's baseline: two saved runs give one section
  // (its own baseline) per variant they have in common.
  const isCandidate = (arm: ArmInfo): boolean => view.sections.some((s) => s.candidate.label === arm.label);
  const keyOfArm = (arm: Pick<ArmInfo, 'label'>): string => `v${Math.max(0, view.arms.findIndex((a) => a.label === arm.label))}`;
  // Where each arm's raw samples are: the one run when paired; when unpaired,
  // the run whose file the arm names, else the first run for a baseline and the second for a candidate.
  const runOfArm = (arm: ArmInfo): RunRecord => {
    if (view.pairing === 'paired') return view.run;
    const byFile = view.runs.filter((r) => r.file !== undefined && r.file === arm.file);
    return (byFile.length === 1 ? byFile[0]! : (view.runs[isCandidate(arm) ? 1 : 0] ?? view.runs[0]!)).run;
  };
  const variants = view.arms.map((arm, i) => pageVariant(arm, i, !isCandidate(arm), runOfArm(arm)));
  const table = pageTable(comparisonFacts(view));
  const { columns } = table;

  const caseIds: string[] = [];
  for (const section of view.sections) for (const c of section.cases) if (!caseIds.includes(c.caseId)) caseIds.push(c.caseId);
  const caseInfo = new Map(view.runs.flatMap((r) => r.run.cases.map((c) => [c.id, c] as const)));
  const caseKey = new Map(caseIds.map((id, i) => [id, `c${i}`]));
  const shown = shownNames(caseIds);

  // A candidate's engine metrics are shown next to its section's baseline's, with the time ratio between them.
  const againstBaseline = (arm: ArmInfo, caseId: string): { against?: { result: CaseResult; timeRatio?: number } } => {
    const section = view.sections.find((s) => s.candidate.label === arm.label);
    const base = section && runOfArm(section.baseline).results.find((r) => r.caseId === caseId && r.variantId === section.baseline.id);
    if (!section || !base) return {};
    const ratio = section.cases.find((c) => c.caseId === caseId)?.comparison?.ratio;
    return { against: { result: base, ...(ratio !== undefined ? { timeRatio: ratio } : {}) } };
  };

  const cases = caseIds.map((id): PageCase => {
    const info = caseInfo.get(id);
    const metric = info?.metric ?? TIME_PER_OP;
    const found = view.arms.map((arm) => {
      const result = runOfArm(arm).results.find((r) => r.caseId === id && r.variantId === arm.id);
      return { arm, result: result ? asChartResult(result, metric) : undefined, raw: result };
    });
    const edges = binEdges(found.flatMap((f) => (f.result ? [f.result] : [])));
    return {
      key: caseKey.get(id)!,
      chartUnit: chartUnitOf(metric),
      id,
      label: shown.get(id)!,
      name: shownName(info?.name ?? id),
      ...(info?.group !== undefined ? { group: shownName(info.group) } : {}),
      paramsText: info ? shownName(paramsText(info.params)) : '',
      ...mismatchOfComparison(view, id),
      cells: found.flatMap(({ arm, result, raw }) => {
        if (!result || !raw) return [];
        const key = keyOfArm(arm);
        const section = view.sections.find((s) => s.candidate.label === arm.label);
        const comparison = section?.cases.find((c) => c.caseId === id);
        const r = comparisonResultRow(view, runOfArm(arm), raw, section, comparison);
        return [{
          ...cellBase(key, result, edges),
          // The texts in the case's own unit; the charts draw the time view (result).
          ...columnTexts(columns, r),
          ...optional('verdict', r.relative.verdict),
          ...(comparison?.comparison ? { relative: pageRatio(comparison.comparison, Boolean(comparison.withoutWork)) } : {}),
          ...optional('relativeNote', comparison && !comparison.comparison ? comparison.note : undefined),
          ...optional('note', lastFailure(result)),
        }];
      }),
      ...optional('metrics', caseMetrics(found.flatMap(({ arm, raw }) => (raw && raw.rounds.length ? [{ variant: keyOfArm(arm), result: raw, ...againstBaseline(arm, id) }] : [])))),
      ...optional('memory', caseMemory(found.flatMap(({ arm, raw }) => (raw && raw.rounds.length ? [{ variant: keyOfArm(arm), result: raw }] : [])))),
      ...optional('requests', caseRequests(view.cpuPerRequest, id, found.flatMap(({ arm, raw }) => (raw ? [{ key: keyOfArm(arm), variantId: arm.id, result: raw }] : [])))),
    };
  });

  const forestColumns = comparisonPageColumns();
  const sections = view.sections.map((section): ForestSection => {
    const geomean = section.geomean ? pageGeomean(section.geomean, view.threshold, section.cases.find((c) => c.metric)?.metric, 'comparison') : undefined;
    return {
      baseline: keyOfArm(section.baseline),
      candidate: keyOfArm(section.candidate),
      heads: forestColumns.map((col) => ({ text: col.page.head, class: col.page.th })),
      rows: section.cases.map((c): ForestRow => {
        const texts = comparisonCells(c, view);
        return {
          caseKey: caseKey.get(c.caseId)!,
          caseLabel: c.label,
          ...(c.comparison ? { ratio: pageRatio(c.comparison, Boolean(c.withoutWork)) } : {}),
          texts,
          cells: forestColumns.map((col) => ({ text: col.text(texts), class: comparisonPageClass(col, texts), ...optional('label', col.page.label) })),
        };
      }),
      ...(geomean ? { geomean: { ...geomean, cells: forestColumns.map((col) => (col.page.geomean ? { text: geomean.text, class: col.page.td } : { text: '' })) } } : {}),
    };
  });

  const environment = view.runs.flatMap((ref, i) => {
    const suffix = view.runs.length > 1 ? ` ${i + 1} of ${view.runs.length}` : '';
    const [run, host] = [runPanel(ref.run, ref.file), hostPanel(ref.run)];
    return [{ ...run, title: run.title + suffix }, { ...host, title: host.title + suffix }];
  });

  return {
    kind: 'comparison',
    title: `${view.suite}: ${view.arms.map((a) => a.label).join(' vs ')}`,
    subtitle: view.pairing === 'paired' ? runLine(view.run, view.runs[0]?.file) : `two saved runs, not interleaved: ${view.runs.map((r) => r.file ?? r.run.id).join(' and ')}`,
    suite: view.suite,
    threshold: view.threshold,
    confidence: view.confidence,
    words: verdictWords(view.run.cases[0]?.metric),
    variants,
    table,
    cases,
    summary: comparisonSummary(view, (id) => caseKey.get(id)!, (label) => keyOfArm({ label })),
    sections,
    environment,
    notes: view.notes.map((text) => ({ level: 'warning' as const, text })),
    method: [designLine(view), legend(view)],
    ...optional('load', pageLoad(view.load, (id) => {
      const arm = view.arms.find((a) => a.id === id);
      return arm ? keyOfArm(arm) : id;
    })),
  };
}

function mismatchOfComparison(view: ComparisonView, caseId: string): { mismatch?: string } {
  const digests = new Map<string, string>();
  let where: WorkDifference | undefined;
  for (const section of view.sections) {
    const c = section.cases.find((x) => x.caseId === caseId);
    if (c?.digests) {
      digests.set(section.baseline.label, c.digests.baseline);
      digests.set(section.candidate.label, c.digests.candidate);
      where ??= c.digests.where;
    }
  }
  return digests.size ? { mismatch: mismatchText(Object.fromEntries(digests), where) } : {};
}

// ---------------------------------------------------------------- pieces

function pageVariant(arm: ArmInfo, i: number, isBaseline: boolean, run: RunRecord): PageVariant {
  return {
    passedArgs: run.variants.find((v) => v.id === arm.id)?.translatedFlags?.args ?? [],
    key: `v${i}`,
    label: arm.label,
    runtime: arm.runtime,
    versionText: arm.versionText,
    flags: arm.flags,
    env: arm.env,
    isBaseline,
    ...optional('binary', arm.binary),
    ...optional('binarySha256', arm.binarySha256),
    ...optional('binaryCommit', arm.binaryCommit),
    ...optional('unavailable', arm.unavailable),
    ...optional('file', arm.file),
  };
}

type CellBase = Pick<PageCell, 'variant' | 'status' | 'median' | 'ci' | 'processMedians' | 'histogram' | 'modes' | 'traces' | 'warmups' | 'samples' | 'outliers'>;

/** The unit a case's charts draw its samples in (asChartResult). */
function chartUnitOf(metric: Metric): ChartUnit {
  return metric.unit === 'ms' || metric.unit === 'req/s' ? 'ns' : metric.unit;
}

/**
 * A result as its charts draw it (chartUnitOf): a case timed in ms is scaled
 * to ns, and a throughput (req/s) becomes ns per request, its quantiles and
 * interval swapping ends. The loop's own results and instruction counts pass
 * through unchanged.
 */
export function asChartResult(result: CaseResult, metric: Metric): CaseResult {
  if (chartUnitOf(metric) === metric.unit) return result;
  const ns = metric.unit === 'ms' ? (v: number): number => v * 1e6 : (v: number): number => 1e9 / v;
  const inverted = metric.direction === 'higher-is-better';
  const s = result.stats;
  return {
    ...result,
    rounds: result.rounds.map((r) => ({ ...r, samples: r.samples.map(ns) })),
    ...(s
      ? {
          stats: {
            ...s,
            median: ns(s.median),
            mean: ns(s.mean),
            min: ns(inverted ? s.max : s.min),
            max: ns(inverted ? s.min : s.max),
            p25: ns(inverted ? s.p75 : s.p25),
            p75: ns(inverted ? s.p25 : s.p75),
            ...(s.ci ? { ci: (inverted ? [ns(s.ci[1]), ns(s.ci[0])] : [ns(s.ci[0]), ns(s.ci[1])]) as [number, number] } : {}),
            roundMedians: s.roundMedians.map(ns),
            ...(s.modes ? { modes: { ...s.modes, modes: s.modes.modes.map((m) => ({ ...m, center: ns(m.center), low: ns(inverted ? m.high : m.low), high: ns(inverted ? m.low : m.high) })) } } : {}),
          },
        }
      : {}),
  };
}

/** Each process's median (its rounds pooled), labelled by its first round: rounds that share a process are one point. */
function processPoints(result: CaseResult): { round: number; ns: number }[] {
  const rounds = result.rounds.filter((r) => r.samples.length > 0);
  const processes = processesOf(rounds.map(pairable));
  if (!processes) return rounds.map((r) => ({ round: r.round, ns: median(r.samples) }));
  const by = new Map<number, { round: number; samples: number[] }>();
  rounds.forEach((r, i) => {
    const p = by.get(processes[i]!) ?? { round: r.round, samples: [] };
    p.samples.push(...r.samples);
    by.set(processes[i]!, p);
  });
  return [...by.values()].map((p) => ({ round: p.round, ns: median(p.samples) }));
}

function cellBase(variant: string, result: CaseResult, edges: number[]): CellBase {
  const s = rowStats(result);
  const samples = result.rounds.flatMap((r) => r.samples);
  return {
    variant,
    status: result.status,
    ...(s ? { median: s.median, ...(s.ci ? { ci: [s.ci[0], s.ci[1]] as [number, number] } : {}), outliers: s.outliers } : {}),
    processMedians: processPoints(result),
    histogram: histogram(samples, edges),
    ...optionalList('modes', modesOf(s)),
    ...optionalList('traces', tracesOf(result)),
    ...optionalList('warmups', warmupsOf(result)),
    samples: samples.length,
  };
}

/** The statistics' modes of the process medians, when there are two or more (runs before modes were recorded have none). */
function modesOf(stats: CaseResult['stats']): ModeBand[] {
  const modes = stats?.modes?.modes ?? [];
  return modes.length >= 2 ? modes.map(({ center, count, low, high }) => ({ center, count, low, high })) : [];
}

/** Per-process warmup curves from the rounds' watched warmups (absent in runs saved before warmups were watched). */
function warmupsOf(result: CaseResult): WarmupCurve[] {
  return result.rounds.flatMap((round) => {
    const w = round.warmup;
    if (!w?.ns.length) return [];
    const points = w.ns.map((ns, i): [number, number] => [Math.round(w.ms[i]! * 10) / 10, +ns.toPrecision(4)]);
    return [{ round: round.round, points, ...(w.steadyAt ? { steadyMs: Math.round(w.steadyAt.ms * 10) / 10 } : {}), ...(round.steadyState ? { class: round.steadyState.class } : {}) }];
  });
}

/** Per-process traces from the rounds' sample start times (absent in runs that did not record them). */
function tracesOf(result: CaseResult): SampleTrace[] {
  const traces: SampleTrace[] = [];
  for (const round of result.rounds) {
    const starts = round.sampleStartMs;
    if (!starts || starts.length !== round.samples.length || starts.length === 0) continue;
    const t0 = starts[0]!;
    // Rounded for size: a tenth of a millisecond and four digits of time are plenty for a picture.
    traces.push({ round: round.round, points: round.samples.map((ns, i) => [Math.round((starts[i]! - t0) * 10) / 10, +ns.toPrecision(4)]) });
  }
  return traces;
}

/** `withoutWork`: an arm did no work, so the ratio is drawn without a verdict's colour (shownVerdict). */
function pageRatio(c: RatioComparison, withoutWork = false): PageRatio {
  return { ratio: c.ratio, ...(hasFiniteInterval(c.ci) ? { ci: [c.ci[0], c.ci[1]] as [number, number] } : {}), verdict: shownVerdict(c, withoutWork), text: ratioWithCi(c.ratio, c.ci) };
}

/**
 * Log-spaced bin edges over every sample of a case (all variants), so bars of
 * different variants line up. Empty when there are no positive samples.
 */
export function binEdges(results: CaseResult[], bins = HISTOGRAM_BINS): number[] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of results) {
    for (const round of r.rounds) {
      for (const x of round.samples) {
        if (x > 0 && x < lo) lo = x;
        if (x > hi) hi = x;
      }
    }
  }
  if (!(lo <= hi)) return [];
  // One flat bar when every sample is the same: widen by ±1%.
  if (lo === hi) [lo, hi] = [lo * 0.99, hi * 1.01];
  const [a, b] = [Math.log(lo), Math.log(hi)];
  return Array.from({ length: bins + 1 }, (_, i) => (i === bins ? hi : i === 0 ? lo : Math.exp(a + ((b - a) * i) / bins)));
}

/** Counts per bin (upper edge inclusive for the last bin); bins with no samples are left out. */
export function histogram(samples: readonly number[], edges: readonly number[]): HistogramBin[] {
  const n = edges.length - 1;
  if (n < 1 || samples.length === 0) return [];
  const counts = new Array<number>(n).fill(0);
  const [a, b] = [Math.log(edges[0]!), Math.log(edges[n]!)];
  let counted = 0;
  for (const x of samples) {
    if (!(x > 0)) continue;
    // Edges are exp-spaced, so the bin is found arithmetically on the log scale, then nudged for rounding at an edge.
    let i = Math.min(n - 1, Math.max(0, Math.floor(((Math.log(x) - a) / (b - a || 1)) * n)));
    while (i > 0 && x < edges[i]!) i--;
    while (i < n - 1 && x >= edges[i + 1]!) i++;
    counts[i]!++;
    counted++;
  }
  const bins: HistogramBin[] = [];
  counts.forEach((count, i) => {
    if (count > 0) bins.push({ x1: edges[i]!, x2: edges[i + 1]!, count, share: count / counted });
  });
  return bins;
}

function paramsText(params: Record<string, string | number | boolean>): string {
  return Object.entries(params)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(', ');
}

function mismatchText(digests: Record<string, string>, where?: WorkDifference): string {
  return `different work: the variants' results differ (${differentWorkText(digests, where)}), so their times are not comparable`;
}

function lastFailure(result: CaseResult): string | undefined {
  const f = result.failures.filter((x) => x.kind !== 'warning').at(-1);
  if (!f) return undefined;
  const line = f.message.split('\n')[0] ?? '';
  return result.status === 'unsupported' ? `unsupported: ${line}` : `${f.kind}: ${line}`;
}

function runLine(run: RunRecord, file: string | undefined): string {
  // The rounds the cases really had (a merged or adaptive run's differ from case to case), as the tables say them.
  const rounds = `${roundsHad(run)}${run.options.adaptive ? ' (adaptive)' : ''}`;
  return `${run.mode === 'compare' ? 'interleaved comparison' : 'run'} of ${run.startedAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z')}, ${rounds}, ${run.status}${file ? ` — ${file}` : ''}`;
}

function runPanel(run: RunRecord, file: string | undefined): EnvironmentPanel {
  const o = run.options;
  const rows: [string, string][] = [
    ['command', run.command.join(' ')],
    ['run id', run.id],
    ['file', file ?? '—'],
    ['status', run.status],
    ['started', run.startedAt],
    ['finished', run.finishedAt],
    ['rounds', `${roundsHad(run)}${o.adaptive ? ` (adaptive: planned ${o.adaptive.minRounds}–${o.adaptive.maxRounds})` : ''}`],
    ['sampling time', `${o.timeMs} ms per case and variant (over all rounds)`],
    ['warmup', `${o.warmupMs} ms per process`],
    ['timeout', `${o.timeoutMs} ms per process`],
    ['order', o.order],
    ['seed', String(o.seed)],
  ];
  if (o.filter !== undefined) rows.push(['filter', o.filter]);
  if (run.git) rows.push(['rtbench commit', `${run.git.commit}${run.git.dirty ? ' (with uncommitted changes)' : ''}`]);
  return { title: 'Run', rows };
}

function hostPanel(run: RunRecord): EnvironmentPanel {
  const h = run.host;
  const env = Object.entries(h.env).map(([k, v]) => `${k}=${v}`);
  return {
    title: 'Host',
    rows: [
      ['os', `${h.os} ${h.release} (${h.arch})`],
      ['cpu', `${h.cpuModel}, ${h.cores} cores`],
      ['memory', `${(h.memoryBytes / 2 ** 30).toFixed(1)} GiB`],
      ['load average', h.loadavg.map((l) => l.toFixed(2)).join(' ')],
      ['host node', h.hostNode],
      ['environment', env.length ? env.join(' ') : '—'],
    ],
  };
}

function optionalList<K extends string, V>(key: K, list: V[]): { [P in K]?: V[] } {
  return (list.length ? { [key]: list } : {}) as { [P in K]?: V[] };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

