/**
 * @rtbench/core — what a suite imports, and all it hands on (the `rtbench`
 * module re-exports it whole; docs/writing-a-suite.md lists it, and
 * test/suite-face.test.ts holds the two equal): declaring benchmarks, claims,
 * the digest, seeded data and request suites. What the harness shares beyond
 * that is reached through named subpaths (`./suite`, `./request`,
 * `./execute`, …) by the packages that need it.
 */
export { suite, group, bench } from './suite.ts';
export type { BenchHandle, CaseBody, CaseContext, ParamValue, Params, SuiteDefinition, SuiteOptions, TimedFn } from './suite.ts';
export { atMost, below, claim, faster, same, slower, within, type ClaimOptions, type ClaimSpec, type Expectation, type Size } from './claims.ts';
export { digest } from './digest.ts';
export { seededRandom } from './random.ts';
export { requestSuite, type ArmPackages, type InstalledPackage, type RequestDeclaration, type RequestKind, type RequestShape, type RequestSuite, type ResponseNormalizer } from './request.ts';
