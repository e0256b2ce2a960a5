/**
 * @rtbench/claims: a suite's claims as checks (checks.ts), planned as the
 * smallest runs that decide them (plan.ts), and the bisect command for a
 * claim that flipped between releases (bisect-line.ts). The CLI runs the
 * planned runs through @rtbench/run and checks the outcomes with report's
 * checkClaims.
 */
export { expandClaims, suiteClaims } from './checks.ts';
export { baseVariant, claimRuns, replaceVariants, type ClaimsRunPlan } from './plan.ts';
export { bisectCommandFor } from './bisect-line.ts';
