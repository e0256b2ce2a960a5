/**
 * @rtbench/core — what a suite imports: declaring benchmarks (suite, group,
 * bench), claims, the digest and seeded data. The measurement loop, protocol
 * and schemas are reached through their own entries (`./execute`,
 * `./protocol`, …) by runtime entries and the host.
 */
export { suite, group, bench, caseId, isSuiteDefinition, RUNTIME_NAME_PATTERN, UnsupportedError } from './suite.ts';
export type {
  BenchHandle,
  CaseBody,
  CaseContext,
  CaseSpec,
  ParamValue,
  Params,
  RuntimeKind,
  SelfTimedBatch,
  Stopwatch,
  SuiteDefinition,
  TimedFn,
} from './suite.ts';
export { atMost, below, claim, isBound, costWords, expectationText, faster, same, sizeFactor, slower, within, type AbsoluteBound, type BoundClaimOptions, type ClaimMeasure, type ClaimOptions, type ClaimQuantile, type QuantileBoundClaimOptions, type ClaimSpec, type Expectation, type RelativeClaimOptions, type Size } from './claims.ts';
export { BYTE_SIZE_HINT, formatByteSize, parseByteSize } from './byte-size.ts';
export { MAX_CPU_LIMIT_MS, parseCpuTime } from './cpu-time.ts';
export { CPU_THREADS, loadCpuThreads, requestCpuThreads, headlineSamples, steadyStart, type CpuPerRequestFigure, type CpuSample, type CpuThreads, type RequestPhases } from './cpu-per-request.ts';
export { digest, DIGEST_SIGNIFICANT_DIGITS, UNDEFINED_SUMMARY, type Digest } from './digest.ts';
export { seededRandom } from './random.ts';
export { DEFAULT_MEASURE_OPTIONS, MEASURE_FRAMES, TIER_UP_CALLS, type MeasureOptions } from './measure.ts';
export {
  broughtServerProblem,
  compareHeadersProblem,
  DEFAULT_REQUESTS_PER_PROCESS,
  MAX_REQUESTS_PER_PROCESS,
  drawRequests,
  handlerOf,
  isRequestCaseSpec,
  requestSuite,
  type DrawnRequest,
  type RequestCaseSpec,
  type RequestDeclaration,
  type BroughtServer,
  type ArmPackages,
  type InstalledPackage,
  type RequestFigure,
  type RequestKind,
  type RequestShape,
  type RequestSuite,
  type WorkersCompatibility,
  type ResponseNormalizer,
  type ResponseToNormalize,
} from './request.ts';
export { SERVER_PERMISSION_NAMES, serverPermissionsProblem, type ServerPermissionName, type ServerPermissions } from './server-permissions.ts';
