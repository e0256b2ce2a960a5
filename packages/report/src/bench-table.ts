/**
 * The table a `pnpm bench` run ends with: one row per case and variant,
 * median time per op with its spread and confidence, ops/s, and speed
 * relative to the fastest variant of that case.
 */
import type { CaseResult, RunRecord } from '@rtbench/core/schema';
import { formatDuration, formatOps, formatPercent, formatRange } from './format.ts';

export interface BenchRow {
  caseId: string;
  variantId: string;
  result: CaseResult;
  /** Time relative to the fastest variant of the case (1 = fastest). */
  relative?: number;
  /** False when this variant's CI overlaps the fastest one's: no detectable difference. */
  distinct?: boolean;
  /** The variant did different work than others on this case. */
  digestMismatch: boolean;
}

/** Rows in case order, then variant order; relative speeds computed per case. */
export function benchRows(run: RunRecord): BenchRow[] {
  const rows: BenchRow[] = [];
  const mismatched = new Set(run.digestMismatches.map((m) => m.caseId));
  for (const c of run.cases) {
    const results = run.variants.map((v) => run.results.find((r) => r.caseId === c.id && r.variantId === v.id)!).filter(Boolean);
    const timed = results.filter((r) => r.stats);
    const fastest = timed.reduce<CaseResult | undefined>((best, r) => (!best || r.stats!.median < best.stats!.median ? r : best), undefined);
    for (const result of results) {
      // Different work across variants, or across this variant's own rounds.
      const digestMismatch = mismatched.has(c.id) || result.failures.some((f) => f.kind === 'digest-mismatch');
      const row: BenchRow = { caseId: c.id, variantId: result.variantId, result, digestMismatch };
      if (result.stats && fastest?.stats && timed.length > 1) {
        row.relative = result.stats.median / fastest.stats.median;
        row.distinct = result === fastest ? false : result.stats.ci[0] > fastest.stats.ci[1];
      }
      rows.push(row);
    }
  }
  return rows;
}

/** "fastest", "1.32× slower", "≈ 1.01×" (CIs overlap), or "≠ work". */
export function relativeLabel(row: BenchRow): string {
  if (row.digestMismatch) return '≠ work';
  if (row.relative === undefined) return '';
  if (row.relative === 1) return 'fastest';
  if (!row.distinct) return `≈ ${row.relative.toFixed(2)}×`;
  return `${row.relative.toFixed(2)}× slower`;
}

export interface CellTexts {
  median: string;
  spread: string;
  ci: string;
  ops: string;
  relative: string;
  note: string;
  /** Set when the mean is far above the median: rare slow samples (often GC) that the median hides. */
  skew: string;
}

/** Mean / median above this is worth a line under the row. */
export const SKEW_WARNING = 1.5;

export function cellTexts(row: BenchRow): CellTexts {
  const { result } = row;
  const s = result.stats;
  const lastFailure = result.failures[result.failures.length - 1];
  const note =
    result.status === 'unsupported'
      ? `unsupported: ${lastFailure?.message ?? ''}`
      : lastFailure
        ? `${lastFailure.kind}: ${firstLine(lastFailure.message)}`
        : '';
  if (!s) return { median: '—', spread: '', ci: '', ops: '', relative: '', note, skew: '' };
  const skewRatio = s.mean / s.median;
  const skew = skewRatio > SKEW_WARNING ? `mean ${formatDuration(s.mean)} is ${skewRatio.toFixed(1)}× the median: rare slow samples (GC?) the median hides` : '';
  return {
    median: formatDuration(s.median),
    spread: formatRange(s.p25, s.p75),
    ci: `±${formatPercent(s.ciHalfWidthRel)}`,
    ops: formatOps(1e9 / s.median),
    relative: relativeLabel(row),
    note,
    skew,
  };
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 117)}…` : line;
}
