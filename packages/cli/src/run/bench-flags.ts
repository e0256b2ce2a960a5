/** What a measured run is given on the command line: bench's and run's flags (run/measure-suite.ts). */
import type { PlanFlags } from '@rtbench/run';
import type { OutputFlags } from '../emit.ts';
import type { VerdictFlags } from '../verdict-flags.ts';

export interface BenchFlags extends PlanFlags, OutputFlags, VerdictFlags {
  /** The arms of a comparison, as typed (each may hold several, comma-separated): a verdict per case instead of a table. */
  compare?: readonly string[];
  save?: string;
  /** Also write the HTML report: to this file, or (true) beside the saved run. */
  html?: string | true;
  quiet?: boolean;
  /** After the measured rounds, profiles per case × variant in an extra process (@rtbench/run profiles.ts): true (CPU) or the kinds, "cpu,alloc". */
  profile?: string | true;
  /** A case without work (it returns undefined, or takes an empty call's time) makes the command exit 1, after the run is saved. */
  strict?: boolean;
  /** Each case measured alone on each runtime in halves around the table and in a long loop, every cell printed beside both (run/self-check.ts). */
  selfCheck?: boolean;
}
