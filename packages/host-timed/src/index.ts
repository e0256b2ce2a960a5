/**
 * @rtbench/host-timed — cases timed by the host from outside the runtime:
 * start-up (spawn → first line or first response) and HTTP load (a load
 * generator against a server). Suites declare them with hostTimedSuite();
 * the CLI's executor runs them with the same variants, schedule, results
 * schema and reports as the in-runtime loop.
 */
export { hostTimedSuite, isHostCaseSpec, isUnsupported, type HostCaseSpec, type HostMeasurement, type HostTimedSuite, type HttpRequestSpec, type LoadMeasurement, type LoadServer, LOAD_PROFILES, type StartupMeasurement } from './suite.ts';
export { prepareMeasurement, runRound, disposePrepared, type Prepared } from './prepare.ts';
export type { RoundOutcome } from './outcome.ts';
export { type RunnableVariant } from './variant.ts';

export { bundleProgram, startupWrapper } from './bundle.ts';
export { generatedModules, type GeneratedModules } from './generated.ts';
export { hostSuiteCode, suiteCodeOf } from './code.ts';
export { armAnswers, type SameWorkRule } from './request/answers.ts';
export { bundleRequestServer, runRequestRound, type RequestRoundOutcome, type RequestRoundValues, type ServeUntil } from './request/round.ts';
export { namedWrkProblem } from './wrk.ts';
export { LOAD_WINDOWS } from './load-windows.ts';
export { serveUnderProfiler, type ProfiledServe, type ProfileServing, type ServedPhases } from './request/profile-serve.ts';
export { PROFILE_MARKS } from './request/paths.ts';
