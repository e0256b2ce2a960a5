/**
 * @rtbench/claims: the suites to check and their claims as checks
 * (checks.ts), planned as the smallest runs that decide them, each run done
 * once its checks are (plan.ts), the columns of --across and the view of
 * claims × releases (across.ts) with the bisect command for a claim that
 * flipped (bisect-line.ts), saved claims runs read back for a report
 * (saved.ts) and handed to a release matrix (on-releases.ts), the folder an
 * invocation saves its runs in (folder.ts), each run planned through the
 * plan port (run-plan.ts), and the invocation as a campaign's planner
 * the CLI hands to the campaign loop (campaign.ts: claimsCampaign).
 */
export { CLAIMS_DEFAULTS, runBudgetMs, UNDECIDED_EXIT } from './defaults.ts';
export { claimsCampaign, type ClaimsFacts, type ClaimsRunAbout, type ClaimsStep } from './campaign.ts';
export { fewSets, type FewSets } from './run-plan.ts';
export { claimsRoundPlan } from './run-plan.ts';

export { expandClaims, suiteClaims } from './checks.ts';
export { claimRuns, replaceVariants, variantArgument } from './plan.ts';
export { bisectCommandFor } from './bisect-line.ts';
export { claimsColumns, columnChecks } from './across.ts';
export { loadClaimsFolder } from './saved.ts';
export { claimsSuiteNames, loadClaimsRuns, releaseOfVariant } from './on-releases.ts';
