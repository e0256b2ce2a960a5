/**
 * --fail-on-regression passes only what it could judge. A case the candidate
 * side failed (no samples: it threw, timed out, crashed) while the baseline
 * measured it has no ratio, so no verdict says "slower"; without this check
 * the gate would read that as "no case is significantly slower" and pass.
 */
import type { RunRecord } from '@rtbench/core/schema';

export interface Unjudged {
  caseId: string;
  /** The candidate, as the table names it. */
  candidate: string;
  why: string;
}

const measured = (run: RunRecord, caseId: string, variantId: string): boolean => run.results.some((r) => r.caseId === caseId && r.variantId === variantId && r.rounds.length > 0);

function failedHere(run: RunRecord, variantIds: readonly string[], baseline: (caseId: string) => boolean, label: (variantId: string) => string): Unjudged[] {
  const out: Unjudged[] = [];
  for (const r of run.results) {
    if (!variantIds.includes(r.variantId) || r.status !== 'failed' || !baseline(r.caseId)) continue;
    const f = r.failures.find((x) => x.kind !== 'warning' && x.kind !== 'unsupported');
    out.push({ caseId: r.caseId, candidate: label(r.variantId), why: f ? `${f.kind}: ${f.message.split('\n')[0]}` : 'no samples' });
  }
  return out;
}

/** Paired (one run, the first variant the baseline) or unpaired (base run, head run): the candidate's cases that failed where the baseline measured them. */
export function unjudgedCases(runs: readonly { run: RunRecord; file: string }[]): Unjudged[] {
  const [a, b] = runs;
  if (!a) return [];
  if (b) {
    const base = new Set(a.run.variants.map((v) => v.id));
    const name = b.file.split('/').pop() ?? b.file;
    return failedHere(b.run, b.run.variants.map((v) => v.id), (caseId) => [...base].some((v) => measured(a.run, caseId, v)), (v) => `${v} (${name})`);
  }
  const [baseline, ...candidates] = a.run.variants.map((v) => v.id);
  if (baseline === undefined) return [];
  return failedHere(a.run, candidates, (caseId) => measured(a.run, caseId, baseline), (v) => v);
}
