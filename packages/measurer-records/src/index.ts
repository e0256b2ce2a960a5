/**
 * Measurers' records: what a measurer saves in a run beyond the fields every
 * run and round has (one module per measurer: its blocks' schemas, how an
 * older run's fields are read, its words for how it measured, its doubts),
 * and the registry of them by kind (saved.ts). The measurer's descriptor
 * holds its record; the saved-run loader validates and words a run through
 * the registry, and report reads the blocks with typed readers, so reading a
 * saved run loads no measuring code.
 */
export { INSTRUCTIONS_RECORD, type CountsRound, type InstructionsFields } from './instructions.ts';
export { DUET_RECORD, type DuetRound } from './duet.ts';
export { HOST_TIMED_RECORD, type LoadOutcomes, type LoadRound } from './host-timed.ts';
export { LOCKSTEP_RECORD } from './lockstep.ts';
export type { LockstepRound } from './lockstep-round.ts';
export { PROCESSES_RECORD } from './processes.ts';
export { REQUEST_CPU_RECORD, SMOKE_SERVING, type RequestsRound } from './request-cpu.ts';
export { countsOf, loadOf, lockstepOf, pairable, requestAnswers, requestsOf } from './readers.ts';
export type { MeasurerRecord, ShownWith } from './record.ts';
export { MEASURER_RECORDS, RecordRegistry } from './saved.ts';
export { UnknownMeasurer, type EngineLookup } from './verdict-defaults.ts';
