/**
 * @rtbench/measurers: how a case × arm is measured. The measurer contract
 * (measurer.ts: a descriptor says how it is chosen, its defaults, its options
 * and the fields it saves with a run; a built measurer measures one arm's
 * round), one file per measurer under measurers/ with the one registry that
 * lists them (measurers/all.ts), and what measurers share: the code a runtime
 * runs (suite-code.ts), stacks mapped to sources (stack-map.ts) and a case's
 * text capped (case-text.ts). The run's loop drives them; it is not here.
 */
export { MeasurerRefused, type Arm, type ArmResult, type BuiltMeasurer, type LateFailure, type MeasurementNeed, type Measurer, type MeasurerDefaults, type MeasurerDescriptor, type MeasurerOptionValue, type PreparedMeasurer, type ServedRound, type Unit } from './measurer.ts';
export { broughtSchedule, kindOf, longestWarmupMs, MeasurerRegistry, MEASURERS } from './measurers/all.ts';
export { capText } from './case-text.ts';
export { bundledPackagesAhead, nodeEnvWarning, suiteBundle, type SuiteBundle } from './suite-code.ts';
