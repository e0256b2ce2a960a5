/**
 * A case without work, as the run saved it (run record.ts, stats
 * without-work.ts): the mark a table gives it, the sentence that says why,
 * and which ratios get no verdict word (the interval is still shown).
 */
import type { CaseResult, RunRecord } from '@rtbench/core/schema';
import { TIME_PER_OP } from '@rtbench/core/metric';
import { counted, printable } from '../text.ts';
import { WITHOUT_WORK_FACTOR } from '@rtbench/stats';
import { formatMetric } from '../format.ts';
import type { ArmComparison, BenchView, ComparisonView } from './types.ts';

/** The table's mark for a cell without work, explained under it. */
export const WITHOUT_WORK_MARK = '∅';

/** What the mark means, in the key under a table. */
export const WITHOUT_WORK_KEY = `a case without work: it returns undefined, or its fastest process takes at most ${WITHOUT_WORK_FACTOR}× an empty call (the harness's floor, measured in the same processes); its ratio gets no verdict word`;

/** Why this cell is without work, in one sentence; undefined when it did work. */
export function withoutWorkText(result: CaseResult | undefined): string | undefined {
  const w = result?.withoutWork;
  if (!w) return undefined;
  const parts: string[] = [];
  if (w.returnsUndefined) parts.push('returns undefined: there is no value to digest and nothing the engine must compute');
  if (w.nearFloor) {
    const { fastestNs, floorNs } = w.nearFloor;
    parts.push(
      `its fastest process took ${formatMetric(fastestNs, TIME_PER_OP)} per call, ${(fastestNs / floorNs).toFixed(2)}× an empty call timed by the same loop (${formatMetric(floorNs, TIME_PER_OP)}): the engine may have removed its work`,
    );
  }
  return parts.join('; ');
}

/** Each arm's sentence on the rows of a comparison where either arm is without work. */
export function attachWithoutWork(section: ArmComparison, results: (caseId: string) => [CaseResult | undefined, CaseResult | undefined]): void {
  for (const row of section.cases) {
    const [baseline, candidate] = results(row.caseId).map(withoutWorkText);
    if (baseline || candidate) row.withoutWork = { ...(baseline ? { baseline } : {}), ...(candidate ? { candidate } : {}) };
  }
}

/** A bench table's ratios that have an arm without work: shown, never judged (no verdict, no regression, not in a geomean). */
export function benchRatiosWithoutWork(view: BenchView): number {
  return view.cases.reduce((n, c) => n + c.rows.filter((r) => r.relative && r.noVerdictWord).length, 0);
}

/** The same in a comparison. */
export function comparisonRatiosWithoutWork(view: ComparisonView): number {
  return view.sections.reduce((n, s) => n + s.cases.filter((r) => r.comparison && r.withoutWork).length, 0);
}

/** How many cases `--strict`'s line names before "and N more". */
const STRICT_NAMED = 5;

/** `--strict`'s one line: the cases without work and their variants, or undefined when every case did work. */
export function withoutWorkLine(run: RunRecord): string | undefined {
  const variants = new Map<string, string[]>();
  for (const r of run.results) if (r.withoutWork) variants.set(r.caseId, [...(variants.get(r.caseId) ?? []), r.variantId]);
  if (!variants.size) return undefined;
  const named = [...variants].slice(0, STRICT_NAMED).map(([caseId, ids]) => `"${caseId}" (${ids.join(', ')})`);
  const more = variants.size > STRICT_NAMED ? ` and ${variants.size - STRICT_NAMED} more` : '';
  return printable(
    `--strict: ${counted(variants.size, 'case')} without work (it returns undefined, or takes no longer than an empty call): ${named.join(', ')}${more}; the run is saved, the table marks them ∅`,
  );
}
