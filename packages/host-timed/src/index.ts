/**
 * @rtbench/host-timed — cases timed by the host from outside the runtime:
 * start-up (spawn → first line or first response) and HTTP load (a load
 * generator against a server). Suites declare them with hostTimedSuite();
 * the CLI's executor runs them with the same variants, schedule, results
 * schema and reports as the in-runtime loop.
 */
export { hostTimedSuite, isHostCaseSpec, isUnsupported, METRICS, type HostCaseSpec, type HostMeasurement, type HostTimedSuite, type HttpRequestSpec, type LoadMeasurement, type LoadProfile, type LoadServer, LOAD_PROFILES, type MetricKey, type StartupMeasurement, type Unsupported } from './suite.ts';
export { prepareMeasurement, runRound, disposePrepared, type Prepared, type PrepareOptions, type RoundBudget } from './prepare.ts';
export type { RoundOutcome, RoundValues, RoundFailure } from './outcome.ts';
export { programCommand, type RunnableVariant } from './variant.ts';
export { choosePinning, type Pinning } from './pinning.ts';
export { bundleProgram, startupWrapper, type Wrapper } from './bundle.ts';
export { generatedModules, type GeneratedModules } from './generated.ts';
export { hostSuiteCode, suiteCodeOf } from './code.ts';
export { armAnswers, type SameWorkRule } from './request/answers.ts';
export { bundleRequestServer, runRequestRound, type RequestOutcomes, type RequestRoundOutcome, type RequestRoundPlan, type RequestRoundValues, type ServeUntil } from './request/round.ts';
export { namedWrkProblem } from './wrk.ts';
export { LOAD_WINDOWS } from './load-windows.ts';
export { serveUnderProfiler, type ProfiledServe, type ProfiledServeOutcome, type ProfileServing, type ServedPhases } from './request/profile-serve.ts';
export { PROFILE_MARK } from './request/paths.ts';
