/** The texts of a comparison row, shared by the terminal and markdown renderers. */
import type { ArmInfo, CaseComparison, ComparisonReport } from './compare-model.ts';
import { TIME_PER_OP } from '@rtbench/core/schema';
import { formatMetric } from './format.ts';

/** 0.739, 1.052, 12.3: three decimals near 1, where the differences live. */
export function formatRatio(r: number): string {
  return r < 10 ? r.toFixed(3) : r.toPrecision(3);
}

/** "0.739 (0.731–0.748)" */
export function ratioWithCi(ratio: number, ci: readonly [number, number]): string {
  return `${formatRatio(ratio)} (${formatRatio(ci[0])}–${formatRatio(ci[1])})`;
}

/** Change in time: ratio 0.739 -> "−26.1%", 1.102 -> "+10.2%". */
export function formatChange(ratio: number): string {
  const pct = (ratio - 1) * 100;
  const digits = Math.abs(pct) < 10 ? 1 : 0;
  const text = Math.abs(pct).toFixed(digits);
  return `${pct < 0 ? '−' : '+'}${text}%`;
}

/** 7, 48, 920, 1300: a rough count should not look precise. */
function roughly(n: number): number {
  if (n < 100) return n;
  const scale = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.round(n / scale) * scale;
}

export function formatQ(q: number): string {
  if (q < 0.001) return '<0.001';
  return q < 0.1 ? q.toFixed(3) : q.toFixed(2);
}

export function formatThreshold(t: number): string {
  return `${+(t * 100).toFixed(2)}%`;
}

export interface ComparisonCells {
  baseline: string;
  candidate: string;
  ratio: string;
  /** faster / slower / equivalent / inconclusive, or '—' when not compared. */
  verdict: string;
  /** "−26.1%", "within ±1%", "~12 more rounds would decide it", or the reason it was not compared. */
  detail: string;
  q: string;
}

export function comparisonCells(row: CaseComparison, report: Pick<ComparisonReport, 'kind' | 'threshold'>): ComparisonCells {
  const metric = row.metric ?? TIME_PER_OP;
  const baseline = row.baseline ? formatMetric(row.baseline.median, metric) : '—';
  const candidate = row.candidate ? formatMetric(row.candidate.median, metric) : '—';
  const c = row.comparison;
  if (!c) return { baseline, candidate, ratio: '', verdict: '—', detail: row.note ?? '', q: '' };
  let detail: string;
  switch (c.verdict) {
    case 'faster':
    case 'slower':
      // Ratios are of costs; a throughput reads better as its own change (+35% req/s).
      detail = metric.direction === 'higher-is-better' ? `${formatChange(1 / c.ratio)} ${metric.unit}` : formatChange(c.ratio);
      break;
    case 'equivalent':
      detail = `within ±${formatThreshold(c.threshold)}`;
      break;
    default: {
      const n = report.kind === 'paired' ? c.n : Math.max(c.nBaseline ?? 0, c.nCandidate ?? 0);
      const more = c.roundsToDecide !== undefined ? c.roundsToDecide - n : undefined;
      detail = more !== undefined && more > 0 ? `~${roughly(more)} more round${more === 1 ? '' : 's'}${report.kind === 'unpaired' ? ' per run' : ''} would decide it` : `too noisy for ±${formatThreshold(c.threshold)}: no verdict within 100× the rounds`;
    }
  }
  return { baseline, candidate, ratio: ratioWithCi(c.ratio, c.ci), verdict: c.verdict, detail, q: formatQ(c.qValue) };
}

/** "Node.js 26.0.0, V8 14.6.202.33" */
export function armVersion(arm: ArmInfo): string {
  const runtime = { node: 'Node.js', deno: 'Deno', bun: 'Bun', workerd: 'workerd' }[arm.runtime] ?? arm.runtime;
  const engine = arm.engine === 'jsc' ? 'JSC' : arm.engine === 'v8' ? 'V8' : arm.engine;
  const parts = [`${runtime}${arm.version ? ` ${arm.version}` : ''}`];
  if (engine) parts.push(`${engine}${arm.engineVersion ? ` ${arm.engineVersion}` : ''}`);
  return parts.join(', ');
}

/** Flags and environment as the user wrote them ("—" for none). */
export function armFlags(arm: ArmInfo): string {
  const env = Object.entries(arm.env).map(([k, v]) => `${k}=${v}`);
  const all = [...arm.flags, ...env.filter((e) => !arm.flags.includes(e))];
  return all.length ? all.join(' ') : '—';
}

export function shortHash(hash: string | undefined): string {
  return hash ? hash.slice(0, 12) : '—';
}

/** One line on how the data was taken. */
export function designLine(report: ComparisonReport): string {
  if (report.kind === 'paired') {
    const r = report.runs[0]!;
    const perProcess = r.timeMs / r.rounds;
    return `${r.rounds} rounds; each round runs every arm once per case, in fresh processes, back to back in a balanced order; pairs are (round, case). ${fmtMs(perProcess)} sampling + ${fmtMs(r.warmupMs)} warmup per process.`;
  }
  const [a, b] = report.runs;
  return `two saved runs, not interleaved: ${a!.file ?? a!.id} (${a!.rounds} rounds, ${a!.startedAt}) and ${b!.file ?? b!.id} (${b!.rounds} rounds, ${b!.startedAt}).`;
}

function fmtMs(ms: number): string {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(2)} s` : `${+ms.toFixed(1)} ms`;
}

/** The rules behind the verdicts, in one paragraph. */
export function legend(report: ComparisonReport): string {
  const t = report.threshold;
  const lo = formatRatio(1 / (1 + t));
  const hi = formatRatio(1 + t);
  const compared = report.sections.reduce((n, s) => n + s.cases.filter((c) => c.comparison).length, 0);
  const conf = `${+(report.confidence * 100).toFixed(1)}%`;
  return (
    `ratio = candidate time / baseline time (< 1: the candidate is faster), ${conf} CI; ${report.method}. ` +
    `faster/slower: the CI excludes 1 and the change exceeds the ${formatThreshold(t)} noise threshold; ` +
    `equivalent: the CI lies inside [${lo}, ${hi}]; inconclusive: neither. ` +
    `q: Benjamini–Hochberg over ${compared} comparison${compared === 1 ? '' : 's'}; a change with q ≥ ${+report.fdrAlpha.toFixed(3)} is not claimed.`
  );
}
