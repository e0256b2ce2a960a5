/**
 * Every measurer, by descriptor: the names the CLI accepts (--schedule,
 * --measure), its help and errors, and what a saved run records come from
 * this one list. A new measurer is one file in this folder and one entry here.
 */
import type { MeasurerKind } from '@rtbench/core/schema';
import type { MeasurerDescriptor, MeasurerPolicy } from '../measurer.ts';
import { HOST_TIMED } from './host-timed.ts';
import { INSTRUCTIONS } from './instructions.ts';
import { LOCKSTEP, LOCKSTEP_PER_CASE } from './lockstep.ts';
import { PROCESSES } from './processes.ts';

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

/** The measurer that times host-timed suites (chosen by the suite, not by an option). */
export const SUITE_MEASURER: MeasurerDescriptor = HOST_TIMED;

/** The policy of the measurer a saved run names (by its kind); undefined for timing's, or an older run that names none. */
export function recordedPolicy(kind: MeasurerKind | undefined): MeasurerPolicy | undefined {
  return kind === undefined ? undefined : MEASURERS.find((m) => m.recorded.measurer === kind)?.policy;
}
