/**
 * Every measurer, by descriptor: the names the CLI accepts (--schedule,
 * --measure), the measurer a suite's own kind of case chooses, their help,
 * errors and defaults, and what a saved run records, come from this one
 * list. A new measurer is one file in this folder and one entry here.
 */
import type { CaseListing } from '@rtbench/core/protocol';
import type { MeasuredBy, MeasurerKind, RunRecord } from '@rtbench/core/schema';
import type { MeasurerDescriptor } from '../measurer.ts';
import { HOST_TIMED } from './host-timed.ts';
import { INSTRUCTIONS } from './instructions.ts';
import { LOCKSTEP, LOCKSTEP_PER_CASE } from './lockstep.ts';
import { PROCESSES } from './processes.ts';

/** The timing measurers' warmup bound, for a plan's time-out check. */
export { longestWarmupMs } from './steady-rule.ts';

/** The default of each way of choosing comes first (lockstep for --schedule). */
const MEASURERS: readonly MeasurerDescriptor[] = [LOCKSTEP, LOCKSTEP_PER_CASE, PROCESSES, INSTRUCTIONS, HOST_TIMED];

/** Every measurer, in the list's order. */
export function everyMeasurer(): readonly MeasurerDescriptor[] {
  return MEASURERS;
}

/** The measurers chosen by `how` (--schedule or --measure), the default first. */
export function measurersChosenBy(how: MeasurerDescriptor['chosenBy']): MeasurerDescriptor[] {
  return MEASURERS.filter((m) => m.chosenBy === how);
}

/** The measurer a suite's cases choose by their kind (host-timed cases), or undefined: the options choose. */
export function suiteMeasurer(cases: readonly CaseListing[]): MeasurerDescriptor | undefined {
  return measurersChosenBy('suite').find((m) => m.owns?.(cases));
}

/** The measurer a saved run names by its kind (a run that names none is from fresh processes, before lockstep). */
export function recordedMeasurer(kind: MeasurerKind | undefined): MeasurerDescriptor {
  return MEASURERS.find((m) => m.recorded.measurer === (kind ?? PROCESSES.recorded.measurer)) ?? PROCESSES;
}

/** How a saved run was measured: as it says, or, for an older run that does not, as its measurer describes its options. */
export function measuredByOf(options: RunRecord['options']): MeasuredBy {
  return options.measuredBy ?? recordedMeasurer(options.measurer).describe(options);
}
