/**
 * @rtbench/run: a run from the CLI's plan to its saved record (run.ts): the
 * measurer the options name (@rtbench/measurers), the record, the one loop
 * (loop.ts) over measurers and its profile phase (profiles.ts). Exports what
 * the CLI and this package's tests use.
 */
export { executeLoop, type Profiler, type ProfilePass, type ProgressEvent, type RunHooks } from './loop.ts';
export { executeRun, type RunEnvironment, type RunOptions, type RunRequest } from './run.ts';
export { PROFILE_KINDS, profiler, type ProfileKind } from './profiles.ts';
export { loadProfileManifest } from './profile-manifest.ts';
export { listInRuntime } from './list-cases.ts';
export type { AbsentCases } from './case-union.ts';
export { roundsPerArm, type RoundPlan } from './schedule.ts';
export { listenForStop, SIGNAL_EXIT, stopLine, type StopCause, type StopPorts, type StopSignal } from './stop.ts';
export type { PlanFlags, PlanPort, PlanRequest } from './plan-port.ts';
export { takeLock } from './pid-lock.ts';
