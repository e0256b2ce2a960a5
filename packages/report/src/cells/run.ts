/** The texts of a table's cells, shared by the terminal, markdown and HTML reporters. */
import { counted } from '../text.ts';
import type { RunRecord } from '@rtbench/core/schema';
import { TIME_PER_OP } from '@rtbench/core/metric';
import { measuredBy } from '../views/measured-by.ts';
import { formatChange, formatCount, formatMetric, formatPercent, formatQ, formatRatio, formatThreshold, hasFiniteInterval, intervalDigits, ratioWithCi, roughly } from '../format.ts';

export { formatChange, formatQ, formatRatio, ratioWithCi };
import type { BenchCase, BenchRow, BenchView, CaseComparison, ComparisonView, FunctionShift } from '../views/types.ts';
import { belowClock, budgetMarked, budgetRanOut, tableColumns, type ResultRow, type RowVerdict, type TableColumnId, type TableFacts } from '../columns/results.ts';
import type { ComparisonCells } from '../columns/comparison.ts';
import { hasEngineMetrics, hasSpans } from '../metrics.ts';
import { change } from '../views/where.ts';
import { WITHOUT_WORK_MARK } from '../views/without-work.ts';
import { shownName } from '../names.ts';
import { verdictWord, verdictWords } from '../verdict-words.ts';
import { designOfRun, geomeanVerdict, type Geomean, type RatioComparison } from '@rtbench/verdicts';

function fmtMs(ms: number): string {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(2)} s` : `${+ms.toFixed(1)} ms`;
}

// ---------------------------------------------------------------- bench table

/**
 * A bench row's cells: the text of each table column (columns/results.ts), the
 * verdict that colours `relative`, and what the table explains under it.
 */
export type BenchCells = Record<TableColumnId, string> & {
  /** The verdict behind `relative`, for colouring. */
  verdict?: RowVerdict;
  /** Undecided when the budget ran out: the rounds cell's mark (columns/results.ts budgetMarked). */
  budgetMarked: boolean;
  /** The median is 0 ns (below the clock's resolution): `ops` is "—", not an infinite rate. */
  belowClock: boolean;
};

/** The independent unit of a pairing, for a count of n: "process pair(s)", "process(es)". */
function unitNoun(n: number, pairing: 'paired' | 'unpaired'): string {
  if (pairing === 'paired') return n === 1 ? 'process pair' : 'process pairs';
  return n === 1 ? 'process' : 'processes';
}

/** "2 process pairs" — the independent units behind an interval. */
function unitsText(units: number, pairing: 'paired' | 'unpaired' = 'paired'): string {
  return `${units} ${unitNoun(units, pairing)}${pairing === 'unpaired' ? ' (the smaller run)' : ''}`;
}

/** The text of a verdict that says a change is certain but under the threshold: "faster <1%". */
function smallWord(ratio: number, threshold: number, metric: BenchRow['metric']): string {
  return `${verdictWord(ratio < 1 ? 'faster' : 'slower', metric)} <${formatThreshold(threshold)}`;
}

/** How a ratio the run could not decide reads, in every reporter: the word, then its interval; never a direction. */
const UNDECIDED = 'undecided';

/**
 * "baseline", "1.80× slower [1.76–1.84]", "1.25× faster [1.24–1.27]"
 * (counts: "1.25× fewer [1.24–1.27]", verdict-words.ts),
 * "= 1.003× slower [0.994–1.006]", "undecided [0.98–1.06]", or "≠ work": a
 * decided ratio's interval turned the same way as its estimate (never a ± of
 * an asymmetric interval, which hid that "1.09× slower ±40%" excludes 1); an
 * undecided one's as measured (this variant's over the baseline's), since it
 * holds 1 and so points neither way.
 */
export function relativeText(row: Pick<BenchRow, 'isBaseline' | 'stats' | 'relative' | 'relativeNote' | 'noVerdictWord' | 'metric'>, digestMismatch: boolean): Pick<BenchCells, 'relative' | 'verdict'> {
  if (digestMismatch) return { relative: '≠ work', verdict: 'different-work' };
  if (row.isBaseline) return row.stats ? { relative: 'baseline', verdict: 'baseline' } : { relative: '' };
  const c = row.relative;
  if (!c) return { relative: row.relativeNote && row.stats ? '—' : '' };
  // Without work on either side: the ratio and its interval as measured (this variant's time over the baseline's), no word.
  if (row.noVerdictWord) {
    if (!Number.isFinite(c.ci[1])) return { relative: `${c.ratio.toFixed(2)}× (no interval: ${unitsText(c.units)})`, verdict: 'inconclusive' };
    const digits = intervalDigits(c.ci[0], c.ci[1], c.ci[1] - c.ci[0] < 0.02 ? 3 : 2);
    return { relative: `${c.ratio.toFixed(digits)}× [${c.ci[0].toFixed(digits)}–${c.ci[1].toFixed(digits)}]`, verdict: 'inconclusive' };
  }
  if (!Number.isFinite(c.ci[1])) return { relative: `${UNDECIDED} (no interval: ${unitsText(c.units)})`, verdict: 'inconclusive' };
  return ratioInWords(c, row.metric);
}

/**
 * A ratio with an interval in the bench table's words: "1.80× slower [1.76–1.84]",
 * "faster <1%" when small, "= …" when equivalent, "undecided [0.98–1.06]".
 */
function ratioInWords(c: Pick<RatioComparison, 'ratio' | 'ci' | 'verdict'> & { threshold: number }, metric: BenchRow['metric']): Pick<BenchCells, 'relative' | 'verdict'> {
  // Every ratio is said one way: a factor of at least 1 and its direction ("1.19× faster" is the baseline's cost over
  // this one's), its interval turned the same way; the mark before it (= or ≈) says what was decided.
  const better = c.ratio < 1;
  const direction = verdictWord(better ? 'faster' : 'slower', metric);
  // Undecided: no direction is said, only the interval of the ratio (this variant's over the baseline's), which holds 1.
  if (c.verdict === 'inconclusive') {
    const digits = intervalDigits(c.ci[0], c.ci[1], c.ci[1] - c.ci[0] < 0.02 ? 3 : 2);
    return { relative: `${UNDECIDED} [${c.ci[0].toFixed(digits)}–${c.ci[1].toFixed(digits)}]`, verdict: 'inconclusive' };
  }
  const [estimate, lo, hi] = better ? [1 / c.ratio, 1 / c.ci[1], 1 / c.ci[0]] : [c.ratio, c.ci[0], c.ci[1]];
  // Narrow intervals get a third decimal, so that [0.995–1.006] does not read as [1.00–1.01]; one that excludes 1 never prints a bound of 1.
  const digits = intervalDigits(lo, hi, hi - lo < 0.02 ? 3 : 2);
  const text = `${estimate.toFixed(digits)}×`;
  const range = `[${lo.toFixed(digits)}–${hi.toFixed(digits)}]`;
  switch (c.verdict) {
    case 'slower':
    case 'faster':
      return { relative: `${text} ${verdictWord(c.verdict, metric)} ${range}`, verdict: c.verdict };
    case 'small':
      return { relative: `${text} ${smallWord(c.ratio, c.threshold, metric)} ${range}`, verdict: 'small' };
    default:
      return { relative: `= ${text} ${direction} ${range}`, verdict: 'equivalent' };
  }
}

/**
 * A geomean said the way its table says a ratio, its words read from its
 * interval by the table's rule: a bench table's "1.013× slower [1.004–1.023]",
 * a comparison's "1.004 [0.997–1.012] inconclusive".
 */
export function geomeanText(g: Pick<Geomean, 'ratio' | 'ci'>, threshold: number, metric: BenchRow['metric'], table: 'bench' | 'comparison'): string {
  const verdict = hasFiniteInterval(g.ci) ? geomeanVerdict(g, threshold) : undefined;
  if (!verdict) return table === 'bench' ? `${UNDECIDED} (no interval)` : `${formatRatio(g.ratio)} (no interval)`;
  if (table === 'bench') return ratioInWords({ ratio: g.ratio, ci: g.ci, verdict, threshold }, metric).relative;
  const word = verdict === 'small' ? smallWord(g.ratio, threshold, metric) : verdictWord(verdict, metric ?? TIME_PER_OP);
  // A decided change says its size as the table's detail does; an undecided one points no way.
  const size = verdict === 'inconclusive' ? '' : `, ${formatChange(g.ratio)} ${verdictWords(metric).quantity}`;
  return `${ratioWithCi(g.ratio, g.ci)} ${word}${size}`;
}

/** A bench row as the table columns read it; `runId` names its run in csv-stats. */
export function benchResultRow(row: BenchRow, digestMismatch: boolean, runId = '', baseline?: string): ResultRow {
  const relative = row.stats ? relativeText(row, digestMismatch) : { relative: '' };
  return {
    runId,
    result: row.result,
    metric: row.metric ?? TIME_PER_OP,
    ...(row.stats ? { stats: row.stats } : {}),
    ...(row.relative && baseline !== undefined ? { against: { baseline, ratio: row.relative } } : {}),
    relative: { text: relative.relative, ...(relative.verdict ? { verdict: relative.verdict } : {}) },
  };
}

export function benchCells(row: BenchRow, digestMismatch: boolean): BenchCells {
  const r = benchResultRow(row, digestMismatch);
  const texts = Object.fromEntries(tableColumns().map((c) => [c.id, c.text(r)])) as Record<TableColumnId, string>;
  return { ...texts, ...(r.relative.verdict ? { verdict: r.relative.verdict } : {}), budgetMarked: budgetMarked(r), belowClock: belowClock(r) };
}

/**
 * The variants with the case's best median (lowest cost; highest req/s), or
 * none when fewer than two rows have one: what markdown sets in bold. Ties
 * are all best. A best median is not a verdict: the relative column decides.
 */
export function bestRows(bc: BenchCase): Set<string> {
  // A 0 median is below the clock's resolution: not a speed to single out.
  const measured = bc.rows.filter((r) => r.stats && r.stats.median > 0);
  if (measured.length < 2) return new Set();
  const higherIsBetter = measured[0]!.metric?.direction === 'higher-is-better';
  const medians = measured.map((r) => r.stats!.median);
  const best = higherIsBetter ? Math.max(...medians) : Math.min(...medians);
  return new Set(measured.filter((r) => r.stats!.median === best).map((r) => r.variantId));
}

/** The rows the budget ran out on, and those of them it left undecided (the rows marked `*`). */
function budgetRows(view: BenchView): { ranOut: number; marked: number } {
  const rows = view.cases.flatMap((c) => c.rows.map((row) => ({ row, digestMismatch: c.digestMismatch !== undefined })));
  return {
    ranOut: rows.filter(({ row }) => budgetRanOut(row.precision)).length,
    marked: rows.filter(({ row, digestMismatch }) => budgetMarked(benchResultRow(row, digestMismatch))).length,
  };
}

/** What a bench table's heads and columns depend on; `baseline`: the baseline's label as the table shows it (a short letter in a narrow terminal). */
export function benchFacts(view: BenchView, baseline: string = view.baseline.label): TableFacts {
  return {
    baseline,
    comparison: false,
    ownMetric: view.run.cases.some((c) => c.metric),
    adaptive: view.run.options.adaptive !== undefined,
    engineMetrics: hasEngineMetrics(view.run),
    spanned: hasSpans(view.run),
  };
}

/** " (2 cases with different work and 1 without work left out)": the compared cases a geomean leaves out, or ''. */
export function geomeanLeftOut(g: Pick<Geomean, 'excluded' | 'withoutWork'>): string {
  const parts = [...(g.excluded ? [`${counted(g.excluded, 'case')} with different work`] : []), ...(g.withoutWork ? [`${g.excluded ? g.withoutWork : counted(g.withoutWork, 'case')} without work`] : [])];
  return parts.length ? ` (${parts.join(' and ')} left out)` : '';
}

/** "geomean vs node: deno 0.952 [0.911–1.003] over 16 cases, bun …", or undefined. */
export function benchGeomeanLine(view: BenchView): string | undefined {
  if (!view.geomeans?.length) return undefined;
  const parts = view.geomeans.map((g) => `${g.variantId} ${geomeanText(g, view.threshold, view.run.cases.find((c) => c.metric)?.metric, 'bench')} over ${g.cases} cases${geomeanLeftOut(g)}`);
  return `geomean of the ratios vs ${view.baseline.label}: ${parts.join('; ')}`;
}

/** The level every ratio interval of a table was read at, and the comparisons it covers. */
function intervalFacts(comparisons: readonly { confidence: number }[]): { level: number; m: number; family?: string } | undefined {
  if (!comparisons.length) return undefined;
  return { level: comparisons[0]!.confidence, m: comparisons.length };
}

/**
 * A bench table's interval facts: its own ratios, or, for a request run, the family they were adjusted in with the
 * request summary's (views/bench.ts), so the table's legend names the level and count the brief lines name.
 */
function benchIntervalFacts(view: BenchView): { level: number; m: number; family?: string } | undefined {
  const facts = intervalFacts(view.cases.flatMap((c) => c.rows.flatMap((r) => (r.relative ? [r.relative] : []))));
  const summary = view.requestSummary;
  if (!facts || !summary?.behind) return facts;
  return { level: facts.level, m: summary.ratios, family: `the table's ${summary.behind} and the request lines' ${summary.ratios - summary.behind}` };
}

/** The interval and its words in two plain sentences (bench table: its marks; comparison: its verdict words). */
function intervalSentence(facts: { level: number; m: number; family?: string }, threshold: number, words: { better: string; worse: string }, confidence: number, style: 'marks' | 'words'): string {
  const t = formatThreshold(threshold);
  const level = `${+(facts.level * 100).toFixed(2)}%`;
  const [same, undecided] = style === 'marks' ? ['"="', `"${UNDECIDED}"`] : ['equivalent', 'inconclusive'];
  return (
    `[low–high] is the interval over independent process pairs at ${level} (${+(confidence * 100).toFixed(1)}% adjusted for ${facts.family ? `${counted(facts.m, 'comparison')}: ${facts.family}` : `the table's ${counted(facts.m, 'comparison')}`}), and the word is read from it: ` +
    `${words.better}/${words.worse} when it excludes 1 and the change exceeds ${t}, "${words.better} <${t}" when it excludes 1 with a smaller change, ${same} when it lies within ±${t}, ${undecided} otherwise.`
  );
}

/** What a run stopped when decided reads its intervals on (docs/comparing.md, "Stopping when decided"). */
const ANYTIME_SENTENCE =
  "The run stopped each case when decided, so each interval is a confidence sequence (Lai's, valid at every look) and the table's level is e-BH's: R of m ratios selected, every interval read at 1 − R·α/m.";

/** The words a table's intervals are read into, in one clause: "faster/slower: excludes 1, change >1%; …". */
function wordsKey(threshold: number, words: { better: string; worse: string }, style: 'marks' | 'words'): string {
  const t = formatThreshold(threshold);
  const [same, undecided] = style === 'marks' ? ['=', `${UNDECIDED}: holds 1`] : ['equivalent', 'inconclusive: undecided'];
  return `${words.better}/${words.worse}: excludes 1, change >${t}; "${words.better} <${t}": excludes 1, change less; ${same}: within ±${t}; ${undecided}`;
}

/** Where the method is, said last in a table's key. */
const EXPLAIN_HINT = '--explain: the method';

/** "97.08% intervals (95% over 48 ratios)": the one level every interval was read at, and the table's level over its ratios. */
function levelKey(level: number, m: number, confidence: number): string {
  return `${+(level * 100).toFixed(2)}% intervals${m ? ` (${+(confidence * 100).toFixed(1)}% over ${counted(m, 'ratio')})` : ''}`;
}

/**
 * The key under a bench table by default: the intervals' level, how to read the words and the rounds' mark, and
 * where the method is (--explain: benchLegend) and, when the table has marks, what they mean (`marks`: "marks s ↗",
 * or "the marks" where the symbols would not fit).
 */
export function benchKey(view: BenchView, marks?: string): string {
  const facts = benchIntervalFacts(view);
  const hasCi = view.cases.some((c) => c.rows.some((r) => r.stats?.ci));
  const parts = facts ? [`${levelKey(facts.level, facts.m, view.confidence)}: ${wordsKey(view.threshold, verdictWords(view.run.cases[0]?.metric), 'marks')}`] : hasCi ? [levelKey(view.level, 0, view.confidence)] : [];
  const hint = marks ? `${EXPLAIN_HINT}, ${marks}` : EXPLAIN_HINT;
  return parts.length ? `${parts.join('; ')}. ${hint}.` : `${hint}.`;
}

/** The key under a comparison by default: the intervals' level and the words; --explain: designLine and legend (and q). */
export function comparisonKey(view: ComparisonView): string {
  const words = verdictWords(view.sections[0]?.cases.find((c) => c.metric)?.metric);
  const facts = intervalFacts(view.sections.flatMap((s) => s.cases.flatMap((c) => (c.comparison ? [c.comparison] : []))));
  if (!facts) return `${EXPLAIN_HINT}.`;
  return `${levelKey(facts.level, facts.m, view.confidence)}: ${wordsKey(view.threshold, words, 'words')}. ${EXPLAIN_HINT}.`;
}

/** "--max-rounds 30 / --max-time 60 s": an adaptive run's budget as its options set it. */
function budgetText(adaptive: NonNullable<RunRecord['options']['adaptive']>): string {
  return [`--max-rounds ${adaptive.maxRounds}`, adaptive.budgetMs ? `--max-time ${fmtMs(adaptive.budgetMs)}` : ''].filter(Boolean).join(' / ');
}

/**
 * The one line under a table (by default; --explain: its legend) that counts the rows marked `*` (`marked`, as
 * the table counted them): undecided when the budget ran out, what more budget could decide. Undefined when no row is.
 */
export function budgetLine(view: BenchView, marked: number): string | undefined {
  const adaptive = view.run.options.adaptive;
  if (!marked) return undefined;
  const them = marked === 1 ? 'it' : 'them';
  if (!adaptive) return `* ${counted(marked, 'row')} undecided within the budget: more could decide ${them}`;
  // The option that would decide more: the limit each marked row stopped at.
  const rows = view.cases.flatMap((c) => c.rows.filter((row) => budgetMarked(benchResultRow(row, c.digestMismatch !== undefined))));
  const by = (stop: string): number => rows.filter((row) => row.precision?.stoppedBy === stop).length;
  const limits = [
    { option: '--max-time', rows: by('time-budget') },
    { option: '--max-rounds', rows: by('max-rounds') },
  ].filter((l) => l.rows > 0);
  const raise = limits.length > 1 ? `${limits[0]!.option} (${counted(limits[0]!.rows, 'row')}) or ${limits[1]!.option} (${limits[1]!.rows})` : (limits[0]?.option ?? '--max-time');
  return `* ${counted(marked, 'row')} undecided within ${budgetText(adaptive)}: raise ${raise} to decide ${them}`;
}

/** "6" or "6–19": the fewest and the most of a set of counts. */
function span(counts: readonly number[]): string {
  const lo = Math.min(...counts);
  const hi = Math.max(...counts);
  return lo === hi ? String(lo) : `${lo}–${hi}`;
}

/**
 * The line over a bench table: the rounds its rows really got and the processes behind them, and for an adaptive
 * run what was planned and which limit ran out first ("rounds: 6 a row, 6 processes each; planned 6–30 until ±2%;
 * --max-time 60 s ran out on 54 of 64 rows"). Undefined for a table without a measured row.
 */
export function roundsGotLine(view: BenchView): string | undefined {
  const rows = view.cases.flatMap((c) => c.rows).filter((r) => r.result.rounds.length > 0);
  if (!rows.length) return undefined;
  const rounds = span(rows.map((r) => r.result.rounds.length));
  const processes = span(rows.map((r) => r.stats?.processes ?? r.result.rounds.length));
  const got = `rounds: ${rounds} a row, ${processes} process${processes === '1' ? '' : 'es'} each`;
  const adaptive = view.run.options.adaptive;
  if (!adaptive) return got;
  const until = adaptive.rule === 'decided' ? 'until decided' : `until ±${formatThreshold(adaptive.target)}`;
  const stopped = (stop: string): number => rows.filter((r) => r.precision?.stoppedBy === stop).length;
  const limits = [
    { limit: adaptive.budgetMs ? `--max-time ${fmtMs(adaptive.budgetMs)}` : '--max-time', rows: stopped('time-budget') },
    { limit: `--max-rounds ${adaptive.maxRounds}`, rows: stopped('max-rounds') },
  ].filter((l) => l.rows > 0);
  const budget = limits.length ? `; ${limits.map((l) => `${l.limit} ran out on ${l.rows} of ${rows.length} rows`).join(', ')}` : '';
  return `${got}; planned ${adaptive.minRounds}–${adaptive.maxRounds} ${until}${budget}`;
}

/** The lines that explain a bench table. */
export function benchLegend(view: BenchView): string[] {
  const words = verdictWords(view.run.cases[0]?.metric);
  const facts = benchIntervalFacts(view);
  const lines = [`${view.statsMethod}.`];
  if (facts) lines.push(`vs ${view.baseline.label}: ${words.quantity} against ${view.baseline.label}'s, paired set by set, said as a factor of at least 1 and its direction. ${intervalSentence(facts, view.threshold, words, view.confidence, 'marks')}`);
  if (facts && designOfRun(view.run.options) === 'anytime') lines.push(ANYTIME_SENTENCE);
  const adaptive = view.run.options.adaptive;
  if (adaptive) {
    const budget = budgetText(adaptive);
    const { ranOut, marked } = budgetRows(view);
    const until = adaptive.rule === 'decided' ? "while a ratio of it is undecided on its interval valid at every look and within the budget's reach" : `until every ratio's CI is within ±${formatPercent(adaptive.target)}`;
    const undecided = marked ? `; ${marked} of them undecided, marked *: more budget could decide them` : '';
    lines.push(
      `rounds: ${adaptive.minRounds} or more, added per case ${until}` +
        (ranOut ? `; the budget (${budget}) ran out first on ${counted(ranOut, 'row')}${undecided}` : `; every case reached it within the budget (${budget})`),
    );
  }
  return lines;
}

// ----------------------------------------------------------- comparison table

export function comparisonCells(row: CaseComparison, view: Pick<ComparisonView, 'pairing' | 'threshold'>): ComparisonCells {
  const metric = row.metric ?? TIME_PER_OP;
  const baseline = row.baseline ? formatMetric(row.baseline.median, metric) : '—';
  const candidate = row.candidate ? formatMetric(row.candidate.median, metric) : '—';
  const c = row.comparison;
  if (!c) return { baseline, candidate, ratio: '', verdict: '—', word: '—', detail: row.note ?? '', q: '' };
  const ratio = Number.isFinite(c.ci[1]) ? ratioWithCi(c.ratio, c.ci) : `${formatRatio(c.ratio)} (no interval)`;
  // An arm without work: the ratio compares empty calls; it is shown, and no verdict is given.
  if (row.withoutWork) return { baseline, candidate, ratio, verdict: 'without-work', word: WITHOUT_WORK_MARK, detail: 'without work: no verdict (said below)', q: formatQ(c.qValue) };
  let detail: string;
  switch (c.verdict) {
    case 'faster':
    case 'slower':
      // Ratios are of costs; a throughput reads better as its own change (+35% req/s).
      detail = metric.direction === 'higher-is-better' ? `${formatChange(1 / c.ratio)} ${metric.unit}` : formatChange(c.ratio);
      break;
    case 'small':
      detail = `${formatChange(c.ratio)}, under ${formatThreshold(c.threshold)}`;
      break;
    case 'equivalent':
      detail = `within ±${formatThreshold(c.threshold)}`;
      break;
    default: {
      if (!Number.isFinite(c.ci[1])) {
        detail = `no interval from ${unitsText(c.units, view.pairing)}`;
        break;
      }
      const more = c.unitsToDecide !== undefined ? c.unitsToDecide - c.units : undefined;
      // Short enough to sit on one line beside its word in a table 100 columns wide (terminal.ts sectionGrid).
      detail =
        more !== undefined && more > 0
          ? `~${roughly(more)} more ${unitNoun(more, view.pairing)}${view.pairing === 'unpaired' ? ' a run' : ''} to decide`
          : `needs >100× the processes for ±${formatThreshold(c.threshold)}`;
    }
  }
  const word = c.verdict === 'small' ? smallWord(c.ratio, c.threshold, row.metric) : verdictWord(c.verdict, metric);
  return { baseline, candidate, ratio, verdict: c.verdict, word, detail, q: formatQ(c.qValue) };
}

/** How a round of this run was measured, in its measurer's words (views/measured-by.ts). */
export function howMeasured(o: RunRecord['options']): string {
  return measuredBy(o).rounds;
}

/**
 * "6 rounds", or "6–19 rounds a case" when the cases got different counts (an adaptive run, a merged one): the
 * rounds the results really hold, not the options' count; the options' when nothing was measured.
 */
export function roundsHad(run: RunRecord): string {
  const counts = run.results.map((r) => r.rounds.length).filter((n) => n > 0);
  if (!counts.length) return counted(run.options.rounds, 'round');
  const had = span(counts);
  return had.includes('–') ? `${had} rounds a case` : counted(Number(had), 'round');
}

/** One line on how the data was taken. */
export function designLine(view: ComparisonView): string {
  if (view.pairing === 'paired') {
    const o = view.run.options;
    const planned = o.adaptive ? ` (adaptive: planned ${o.adaptive.minRounds}–${o.adaptive.maxRounds}, target ±${formatPercent(o.adaptive.target)})` : '';
    return `${roundsHad(view.run)}${planned} in a balanced order of arms; ${howMeasured(o)}.`;
  }
  const [a, b] = view.runs;
  const describe = (r: typeof a): string => `${r!.file ?? r!.run.id} (${roundsHad(r!.run)}, ${r!.run.startedAt})`;
  return `two saved runs, not interleaved: ${describe(a)} and ${describe(b)}.`;
}

/** The rules behind the verdicts, in two sentences and the q column's meaning. */
export function legend(view: ComparisonView): string {
  const words = verdictWords(view.sections[0]?.cases.find((c) => c.metric)?.metric);
  const comparisons = view.sections.flatMap((s) => s.cases.flatMap((c) => (c.comparison ? [c.comparison] : [])));
  const facts = intervalFacts(comparisons);
  const head = `ratio = candidate ${words.quantity} / baseline ${words.quantity} (< 1: ${words.candidateBetter}); ${view.method}.`;
  if (!facts) return head;
  const sentence = intervalSentence(facts, view.threshold, words, view.confidence, 'words');
  return `${head} ${view.pairing === 'unpaired' ? sentence.replace('independent process pairs', "each run's processes") : sentence} q: Benjamini–Hochberg over the ${counted(facts.m, 'comparison')}.`;
}

type HostOf = { host: { cpuModel: string; cores: number; loadavg: number[]; os: string; arch: string } };

/** Host lines of the runs a view reads: "AMD EPYC, 2 cores, load 1.00 0.50 0.20"; each names its platform when the runs come from several. */
export function hostLines(view: { runs?: { run: HostOf }[]; run: HostOf }): string[] {
  const runs = view.runs?.map((r) => r.run) ?? [view.run];
  const platform = (r: HostOf) => `${r.host.os}-${r.host.arch}`;
  const several = new Set(runs.map(platform)).size > 1;
  return [...new Set(runs.map((r) => `${r.host.cpuModel}, ${r.host.cores} cores, ${several ? `${platform(r)}, ` : ''}load ${r.host.loadavg.map((l) => l.toFixed(2)).join(' ')}`))];
}

/** The heading of the lines that say where each decided count moved (terminal and markdown). */
export const WHERE_HEADING = 'where the instructions moved: the functions whose own instructions per call changed most (callgrind; – under 0.1% of that side)';

/** "v8::internal::JsonParser<…>::ParseJsonValue<…> +12.30K (51.20K → 63.50K), …"; `quote` sets a name in its format (markdown: a code span). */
export function whereText(shifts: readonly FunctionShift[], quote: (name: string) => string = (name) => name): string {
  const side = (x: number | undefined): string => (x === undefined ? '–' : formatCount(x));
  return shifts
    .map((s) => {
      const d = change(s);
      return `${quote(shownName(s.name, 80))} ${d > 0 ? '+' : d < 0 ? '−' : '±'}${formatCount(Math.abs(d))} (${side(s.baseline)} → ${side(s.candidate)})`;
    })
    .join(', ');
}
