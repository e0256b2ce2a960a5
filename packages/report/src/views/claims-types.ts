/** The claims view's shapes (views/claims.ts builds it; types.ts lists it among the views). */
import type { ClaimOutcome, ClaimWord } from '@rtbench/core/claims-schema';
import type { ClaimsMatrix } from '@rtbench/verdicts';

/** One run that checked claims, as the view describes it. */
export interface ClaimsRunInfo {
  file?: string;
  suite: string;
  startedAt: string;
  command: string[];
  loadavg: number[];
  /** "AMD EPYC 7B13, 2 cores". */
  host: string;
  finishedAt: string;
  /** Each variant's id and "Node.js 26.10.0, V8 14.6". */
  variants: { id: string; versionText: string }[];
  /** Independent units per check (the run's rounds) and its measurer. */
  rounds: number;
  measurer?: string;
  /** The release column it belongs to (--across). */
  column?: string;
}

export interface ClaimsView {
  kind: 'claims';
  /** Every outcome, suite by suite; with --across, the first column's. */
  outcomes: ClaimOutcome[];
  counts: Record<ClaimWord, number>;
  confidence: number;
  adjustment: string;
  method: string;
  runs: ClaimsRunInfo[];
  matrix?: ClaimsMatrix;
  /** Said first in every format when a run of the check was interrupted: the claims it did not reach are missing. */
  interrupted?: string;
  notes: string[];
}

