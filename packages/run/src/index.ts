/**
 * @rtbench/run: a run from the CLI's plan to its saved record (run.ts): the
 * measurer the options name, the record, the one loop (loop.ts) over
 * measurers (measurer.ts) — lockstep sets of live processes (the default for
 * in-runtime cases), fresh processes per round, instruction counts, and
 * host-timed programs and servers — and its profile phase (profiles.ts).
 */
export { executeLoop, type LoopPlan, type Profiler, type ProfilePass, type ProgressEvent, type RunHooks } from './loop.ts';
export { executeRun, isReady, newRun, SCHEDULES, type InRuntimeMeasurer, type ReadyVariant, type RunEnvironment, type RunOptions, type RunRequest, type RunVariant, type UnavailableVariant } from './run.ts';
export { runSaver, writeRunAtomically } from './save.ts';
export { loadProfileManifest, PROFILE_KINDS, profileFileName, profiler, profilesDir, type ProfileKind } from './profiles.ts';
export type { Arm, ArmResult, CaseOutcome, LateFailure, Measurer, MeasurerDescriptor, MeasurerName, ReplicateContext, Unit } from './measurer.ts';
export { addResults, computeStats, finishRun, resultKey, type VariantSlot } from './record.ts';
export type { SuiteLocation } from './suite-location.ts';
export { casePrecision } from './precision.ts';
export { capStack, capText, MAX_MESSAGE_CHARS } from './case-text.ts';
export { BALANCED_ORDER_DESCRIPTION, SHUFFLED_ORDER_DESCRIPTION, balancedOrders, maxRoundsOf, shuffle, type Schedule } from './schedule.ts';
export { lockstepMeasurer, warmLockstepMeasurer, turnsFor, LOCKSTEP, LOCKSTEP_PER_CASE, type LockstepOptions } from './measurers/lockstep.ts';
export { corroborate } from './measurers/corroborate.ts';
export { processesMeasurer, PROCESSES } from './measurers/processes.ts';
export { hostBudget, hostTimedMeasurer, hostUnits, HOST_TIMED, MIN_LOAD_MS, MIN_LOAD_WARMUP_MS, type HostBudget } from './measurers/host-timed.ts';
export { deterministicFlags, instructionsMeasurer, INSTRUCTIONS, type InstructionOptions } from './measurers/instructions.ts';
