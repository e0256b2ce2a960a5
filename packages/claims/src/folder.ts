/**
 * Where a claims invocation saves its runs: the folder given (--save), else
 * results/claims/<slug> named by the suites and the columns it checks,
 * as a bisect's and a release matrix's folders are named (@rtbench/run
 * campaign.ts), with the time it started, since an invocation does not
 * resume and a second one keeps its own folder. Folders saved before under
 * results/claims-<time> are read back as any folder is.
 */
import { campaignFolder } from '@rtbench/run';

export function claimsFolder(resultsDir: string, suites: readonly string[], columns: readonly { label: string }[], stamp: string, given?: string): string {
  return campaignFolder(resultsDir, 'claims', [...suites, ...columns.flatMap((c) => (c.label ? [c.label] : [])), stamp], given);
}
