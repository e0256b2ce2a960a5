/**
 * Why a run's status is "failed", in one line. bench and merge exit 1 for such
 * a run and print this even with --quiet: the table (stdout) may be
 * redirected or not read, and an exit code of 1 must never come without a
 * reason on stderr.
 */
import { printable, counted } from '@rtbench/report';
import type { RunRecord } from '@rtbench/core/schema';

/** Failures that make a run "failed" (as packages/run's record.ts counts them). */
const counts = (kind: string): boolean => kind !== 'unsupported' && kind !== 'warning';

export function failedRunLine(run: RunRecord): string {
  const failing = run.results.filter((r) => r.failures.some((f) => counts(f.kind)));
  const parts: string[] = [];
  const first = failing[0];
  if (first) {
    const f = first.failures.find((x) => counts(x.kind))!;
    const message = (f.message.split('\n').find((l) => l.trim() !== '') ?? '').slice(0, 300);
    const more = failing.length > 1 ? ` and ${failing.length - 1} more case × variant` : '';
    parts.push(`"${first.caseId}" on ${first.variantId} failed (${f.kind}${message ? `: ${message}` : ''})${more}`);
  }
  if (run.digestMismatches.length) {
    parts.push(`${counted(run.digestMismatches.length, 'case')} returned different results ` +
      `on different variants (digest mismatch: "${run.digestMismatches[0]!.caseId}")`);
  }
  if (!parts.length) parts.push('its record says failed without a failure in it');
  return printable(`the run failed: ${parts.join('; ')}`);
}
