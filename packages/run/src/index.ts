/**
 * @rtbench/run: the one run loop (loop.ts) over measurers (measurer.ts):
 * lockstep sets of live processes (the default for in-runtime cases), fresh
 * processes per round, and host-timed programs and servers.
 */
export { executeLoop, type LoopPlan, type ProgressEvent, type RunHooks } from './loop.ts';
export type { Arm, ArmResult, CaseOutcome, LateFailure, Measurer, ReplicateContext, Unit } from './measurer.ts';
export { addResults, computeStats, finishRun, resultKey, type VariantSlot } from './record.ts';
export type { SuiteLocation } from './suite-location.ts';
export { casePrecision } from './precision.ts';
export { capStack, capText, MAX_MESSAGE_CHARS } from './case-text.ts';
export { BALANCED_ORDER_DESCRIPTION, SHUFFLED_ORDER_DESCRIPTION, balancedOrders, maxRoundsOf, shuffle, type Schedule } from './schedule.ts';
export { lockstepMeasurer, warmLockstepMeasurer, turnsFor, LOCKSTEP_DESCRIPTION, WARM_LOCKSTEP_DESCRIPTION, type LockstepOptions } from './measurers/lockstep.ts';
export { corroborate } from './measurers/corroborate.ts';
export { processesMeasurer, PROCESSES_DESCRIPTION } from './measurers/processes.ts';
export { hostBudget, hostTimedMeasurer, hostUnits, HOST_TIMED_DESCRIPTION, MIN_LOAD_MS, MIN_LOAD_WARMUP_MS, type HostBudget } from './measurers/host-timed.ts';
export { DETERMINISM_FLAGS, deterministicFlags, instructionsMeasurer, INSTRUCTIONS_DESCRIPTION, type InstructionOptions } from './measurers/instructions.ts';
