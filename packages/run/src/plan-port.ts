/**
 * What a run is planned from: the options as the command line gives them,
 * and the plan port through which a planner (bisect, a release matrix,
 * claims) asks the command for a run planned as `bench --compare` plans one.
 */
import type { MeasurerOptionValue } from '@rtbench/measurers';
import type { BroughtSettings } from '@rtbench/suite-loader';
import type { RunRequest } from './run.ts';

/** The options of one run as the command line gives them (bench's, as typed): what the CLI plans a run from, and what a planner asks a run to be. */
export interface PlanFlags {
  /** Each --runtime as typed: a comma-separated list of variants. */
  runtime?: readonly string[];
  /** Each --filter as typed: comma-separated patterns. */
  filter?: readonly string[];
  time?: string;
  warmup?: string;
  /** --fixed-warmup: the warmup is --warmup exactly, not watched until steady (smoke runs). */
  fixedWarmup?: boolean;
  rounds?: string | number;
  target?: string | number;
  maxRounds?: string | number;
  maxTime?: string;
  /** When a case stops getting rounds: 'precise' (every interval within ±target) or 'decided' (run schedule.ts). */
  stop?: string;
  timeout?: string;
  seed?: string | number;
  /** The timing measurer by its schedule (lockstep, duet). */
  schedule?: string;
  measure?: string;
  /** The values of the measurers' own options (--sets-per-process, --cache-sim), by option name, handed to the chosen measurer's prepare() unread. */
  measurerOptions?: Readonly<Record<string, MeasurerOptionValue>>;
  /** A planner's times as numbers, ms: sampling per case and arm over the rounds, and the warmup's floor (the command line's are `time` and `warmup`, as typed). */
  timeMs?: number;
  warmupMs?: number;
  /** A planner's independent sets: consecutive rounds one process may serve (1: each round fresh processes); the measurer maps it to its own setup. */
  roundsPerProcess?: number;
  shard?: string | number;
  /** --metrics as typed, a view; "memory" and "gc" also declare their view's need (settled-memory, collection-counts), which the measurer maps to its setup. */
  metrics?: string;
  /** What `run` gives the file it brings (--set; a Worker's --request, --requests, --normalize), for locateSuite. */
  brought?: BroughtSettings;
}

/** One run a planner asks for: the suite (a name, a folder or a brought file), its arms (the baseline first; one arm: a table), and the options. */
export interface PlanRequest {
  suite: string;
  arms: readonly string[];
  /** The runtimes are the arms, so a planner's flags name none; its times are numbers (timeMs, warmupMs), never text to parse again. */
  flags: Omit<PlanFlags, 'runtime' | 'time' | 'warmup'>;
}

/** The plan port: the command plans the run as bench plans one (checking the suite, the filter, the variants and the measurer). */
export type PlanPort = (request: PlanRequest) => Promise<RunRequest>;
