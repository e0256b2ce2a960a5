/**
 * The claims view: the outcomes saved runs decided (@rtbench/verdicts'
 * checkClaims), with the runs that checked them. Pure.
 */
import { counted } from '../text.ts';
import type { ClaimOutcome } from '@rtbench/core/claims-schema';
import type { RunRecord } from '@rtbench/core/schema';
import { CLAIM_METHOD, countWords } from '@rtbench/verdicts';
import { armInfo } from './arms.ts';
import type { ClaimsRunInfo, ClaimsView } from './claims-types.ts';

/** Where a check ran, as a row label: the subject's variant, then its parameters. */
function checkLabel(o: Pick<ClaimOutcome, 'subject' | 'other' | 'params'>): string {
  const params = o.params && Object.keys(o.params).length ? ` [${Object.entries(o.params).map(([k, v]) => `${k}=${String(v)}`).join(', ')}]` : '';
  const variants = o.subject.variantId === o.other.variantId ? o.subject.variantId : `${o.subject.variantId} vs ${o.other.variantId}`;
  return `${variants}${params}`;
}

export function runInfo(run: RunRecord, file?: string, column?: string): ClaimsRunInfo {
  return {
    ...(file ? { file } : {}),
    suite: run.suite,
    startedAt: run.startedAt,
    command: run.command,
    loadavg: run.host.loadavg,
    host: `${run.host.cpuModel}, ${run.host.cores} cores`,
    finishedAt: run.finishedAt,
    variants: run.variants.map((v) => ({ id: v.id, versionText: armInfo(v).versionText })),
    rounds: Math.max(0, ...run.results.map((r) => r.rounds.length)),
    ...(run.options.measurer ? { measurer: run.options.measurer } : {}),
    ...(column ? { column } : {}),
  };
}

/** The claims of saved runs (each carrying its block), suite by suite in the order given. */
export function claimsView(runs: readonly { run: RunRecord; file?: string }[], notes: string[] = []): ClaimsView {
  const withClaims = runs.filter((r) => r.run.claims);
  const outcomes = withClaims.flatMap((r) => r.run.claims!.outcomes);
  const first = withClaims[0]?.run.claims;
  const cut = withClaims.filter((r) => r.run.status === 'interrupted').length;
  const interrupted = cut ? `the claims run was interrupted (${cut} of its ${counted(withClaims.length, 'run')}): claims it had not reached are missing, and the figures use the sets that finished` : undefined;
  return {
    kind: 'claims',
    outcomes,
    counts: countWords(outcomes),
    confidence: first?.confidence ?? 0.95,
    adjustment: first?.adjustment ?? '',
    method: first?.method ?? CLAIM_METHOD,
    runs: withClaims.map((r) => runInfo(r.run, r.file)),
    ...(interrupted ? { interrupted } : {}),
    notes: interrupted ? [interrupted, ...notes] : notes,
  };
}
