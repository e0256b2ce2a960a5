/**
 * The page's summary: one row per case × non-baseline arm with its ratio to
 * the baseline, CI and verdict, all on one ratio scale that the forest plots
 * share too. Built in Node from the view (the page draws, it does not
 * compute); the texts are the tables' own (cells/run.ts).
 */
import { hasFiniteInterval } from '../format.ts';
import type { Metric } from '@rtbench/core/schema';
import { benchCells, comparisonCells, geomeanLeftOut, geomeanText } from '../cells/run.ts';
import { verdictText } from '../columns/comparison.ts';
import type { BenchView, ComparisonView } from '../views/types.ts';
import type { Geomean, RatioComparison } from '@rtbench/verdicts';

/** How a summary row is coloured: the verdict the run's tables state, "different-work" for differing digests, "none" when not compared. */
export type SummaryVerdict = RatioComparison['verdict'] | 'different-work' | 'none';

export interface SummaryRow {
  caseKey: string;
  /** The non-baseline arm (page variant key). */
  variant: string;
  baseline: string;
  /** Absent when no ratio could be formed (`verdictText` says why). */
  /** ci absent: too few independent units for an interval. */
  ratio?: { ratio: number; ci?: [number, number] };
  verdict: SummaryVerdict;
  /** A comparison's "0.739 [0.731–0.748]"; empty for a bench row, whose verdict text carries its ratio. */
  ratioText: string;
  /** Bench: "1.35× faster [1.34–1.37]"; comparison: "faster −26.1%", "inconclusive ~12 more process pairs to decide"; or the reason there is no ratio. */
  verdictText: string;
}

/** A geomean as the page draws it: in the summary (with its arms) and under a forest plot. */
export interface PageGeomean {
  ratio: number;
  ci?: [number, number];
  text: string;
  cases: number;
  /** " (2 cases with different work left out)", or ''. */
  leftOut: string;
}

interface SummaryGeomean extends PageGeomean {
  variant: string;
  baseline: string;
}

/** A geomean for the page, its text as its table says a ratio (cells/run.ts geomeanText). */
export function pageGeomean(g: Geomean, threshold: number, metric: Metric | undefined, table: 'bench' | 'comparison'): PageGeomean {
  return { ratio: g.ratio, ...(hasFiniteInterval(g.ci) ? { ci: [g.ci[0], g.ci[1]] as [number, number] } : {}), text: geomeanText(g, threshold, metric, table), cases: g.cases, leftOut: geomeanLeftOut(g) };
}

/** The verdict a ratio is coloured by: none (inconclusive's colour) when an arm did no work, as the tables give it no word. */
export function shownVerdict(c: RatioComparison, withoutWork: boolean): RatioComparison['verdict'] {
  return withoutWork ? 'inconclusive' : c.verdict;
}

export interface PageSummary {
  /** The ratio axis every ratio on the page is drawn on (log scale): summary and forest plots alike. */
  domain: [number, number];
  rows: SummaryRow[];
  geomeans: SummaryGeomean[];
}

/** Whiskers reach at most this factor beyond the outermost estimates; longer ones are drawn cut, with a mark. */
const WHISKER_REACH = 3;

/**
 * One log-ratio domain for the page: every estimate and the noise band, the
 * CIs up to WHISKER_REACH beyond the estimates (a CI from two pairs must not
 * squash every other row), padded a little on the log scale.
 */
export function sharedRatioDomain(estimates: number[], intervals: [number, number][], threshold: number): [number, number] {
  const ok = (x: number): boolean => Number.isFinite(x) && x > 0;
  const points = [...estimates.filter(ok), 1 / (1 + threshold), 1 + threshold];
  const [a, b] = [Math.min(...points), Math.max(...points)];
  const lows = intervals.map(([lo]) => lo).filter(ok);
  const highs = intervals.map(([, hi]) => hi).filter(ok);
  const lo = Math.max(a / WHISKER_REACH, Math.min(a, ...lows));
  const hi = Math.min(b * WHISKER_REACH, Math.max(b, ...highs));
  const pad = Math.log(hi / lo) * 0.03;
  return [lo * Math.exp(-pad), hi * Math.exp(pad)];
}

function withDomain(rows: SummaryRow[], geomeans: SummaryGeomean[], threshold: number): PageSummary {
  const all = [...rows.flatMap((r) => (r.ratio ? [r.ratio] : [])), ...geomeans];
  return { domain: sharedRatioDomain(all.map((r) => r.ratio), all.flatMap((r) => (r.ci ? [r.ci] : [])), threshold), rows, geomeans };
}

export function benchSummary(view: BenchView, caseKey: (caseId: string) => string, variantKey: (variantId: string) => string): PageSummary {
  const baseline = variantKey(view.baseline.id);
  const rows = view.cases.flatMap((c) =>
    c.rows
      .filter((row) => !row.isBaseline)
      .map((row): SummaryRow => {
        const texts = benchCells(row, Boolean(c.digestMismatch));
        const r = row.relative;
        const verdict: SummaryVerdict = texts.verdict === 'different-work' ? 'different-work' : r ? ((texts.verdict as RatioComparison['verdict'] | undefined) ?? r.verdict) : 'none';
        return {
          caseKey: caseKey(c.caseId),
          variant: variantKey(row.variantId),
          baseline,
          ...(r ? { ratio: { ratio: r.ratio, ...(hasFiniteInterval(r.ci) ? { ci: [r.ci[0], r.ci[1]] as [number, number] } : {}) } } : {}),
          verdict,
          // The verdict cell says the ratio and its interval as the table does ("1.04× faster [1.01–1.07]"): the raw
          // ratio beside it (0.963) would say the one comparison twice, two ways.
          ratioText: '',
          verdictText: texts.relative && texts.relative !== '—' ? texts.relative : (row.relativeNote ?? row.note ?? 'not measured'),
        };
      }),
  );
  const geomeans = (view.geomeans ?? []).map((g): SummaryGeomean => ({ variant: variantKey(g.variantId), baseline, ...pageGeomean(g, view.threshold, view.run.cases.find((c) => c.metric)?.metric, 'bench') }));
  return withDomain(rows, geomeans, view.threshold);
}

export function comparisonSummary(view: ComparisonView, caseKey: (caseId: string) => string, armKey: (label: string) => string): PageSummary {
  const rows: SummaryRow[] = [];
  const geomeans: SummaryGeomean[] = [];
  for (const section of view.sections) {
    const [variant, baseline] = [armKey(section.candidate.label), armKey(section.baseline.label)];
    for (const c of section.cases) {
      const texts = comparisonCells(c, view);
      const r = c.comparison;
      rows.push({
        caseKey: caseKey(c.caseId),
        variant,
        baseline,
        ...(r ? { ratio: { ratio: r.ratio, ...(hasFiniteInterval(r.ci) ? { ci: [r.ci[0], r.ci[1]] as [number, number] } : {}) } } : {}),
        verdict: c.digests ? 'different-work' : r ? shownVerdict(r, Boolean(c.withoutWork)) : 'none',
        ratioText: texts.ratio,
        verdictText: verdictText(texts) || 'not compared',
      });
    }
    const g = section.geomean;
    if (g) geomeans.push({ variant, baseline, ...pageGeomean(g, view.threshold, section.cases.find((c) => c.metric)?.metric, 'comparison') });
  }
  // Case by case (the arms of a case together), in the cases' order.
  const order = new Map<string, number>();
  for (const row of rows) if (!order.has(row.caseKey)) order.set(row.caseKey, order.size);
  rows.sort((x, y) => order.get(x.caseKey)! - order.get(y.caseKey)!);
  return withDomain(rows, geomeans, view.threshold);
}
