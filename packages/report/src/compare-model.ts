/**
 * What a comparison report holds: built by the CLI from one interleaved run
 * (paired) or from two saved runs (unpaired), rendered here as a terminal
 * table or markdown. Plain data, so `--format json` can print it as is.
 */
import type { Metric } from '@rtbench/core/schema';
import type { Comparison } from '@rtbench/stats';

/** One arm: a variant with everything that identifies its binary and flags. */
export interface ArmInfo {
  /** The variant id as written, e.g. "node@26 --max-semi-space-size=64". */
  id: string;
  /** How the report names the arm (the id, or "node@24 (a.json)" for saved runs). */
  label: string;
  runtime: string;
  version?: string;
  engine?: string;
  engineVersion?: string;
  flags: string[];
  /** Environment variables the variant sets (translated flags included). */
  env: Record<string, string>;
  binary?: string;
  binarySha256?: string;
  /** Saved-run comparisons: the file the arm came from. */
  file?: string;
}

export interface ArmStat {
  /** Median of the per-round medians, ns per operation. */
  median: number;
  rounds: number;
}

export interface CaseComparison {
  caseId: string;
  /** Absent: time per operation. Ratios are of costs (req/s inverted), so < 1 is faster for every metric. */
  metric?: Metric;
  baseline?: ArmStat;
  candidate?: ArmStat;
  /** Absent when the case could not be compared; `note` says why. */
  comparison?: Comparison & { qValue: number };
  note?: string;
  /** The arms' digests differ: they did different work. */
  digests?: { baseline: string; candidate: string };
}

export interface ArmComparison {
  baseline: ArmInfo;
  candidate: ArmInfo;
  cases: CaseComparison[];
  /** Geometric mean of the ratios over the compared cases with equal digests (absent with fewer than 2). */
  geomean?: { ratio: number; ci: [number, number]; cases: number; excluded: number };
}

export interface RunSource {
  file?: string;
  id: string;
  suite: string;
  startedAt: string;
  rounds: number;
  timeMs: number;
  warmupMs: number;
  order: string;
  cpu: string;
  cores: number;
  loadavg: number[];
  command: string[];
}

export interface ComparisonReport {
  /** paired: one run, arms interleaved round by round; unpaired: two saved runs. */
  kind: 'paired' | 'unpaired';
  suite: string;
  threshold: number;
  confidence: number;
  /** BH false-discovery level applied across every comparison in the report. */
  fdrAlpha: number;
  /** Baseline first. */
  arms: ArmInfo[];
  sections: ArmComparison[];
  runs: RunSource[];
  /** Things the reader must know: different suites, cases only in one run, hosts differ. */
  notes: string[];
  method: string;
}

export type Verdict = Comparison['verdict'];
