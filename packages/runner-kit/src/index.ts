export * from './types.ts';
export { spawnJob, spawnTracked, killTree, killAllChildren, liveChildPids, spawnedPids, type SpawnJobOptions, type SpawnTrackedOptions, type TrackedChild, type ChildExit } from './process.ts';
export { ProtocolReader, Tail } from './protocol-reader.ts';
export { attachTraceMetrics, SAMPLING_END_MARKER, SAMPLING_START_MARKER, TraceFile, TraceFilter, type TraceParser } from './engine-trace.ts';
export { assertExecutable, flagsAsWritten, probeOutput, runBriefly, splitFlag, whichOnPath } from './binary.ts';
export { findLiterals } from './binary-literals.ts';
export { overriddenV8Flags, parseV8FlagValues, type OverriddenFlag } from './v8-flags.ts';
export { fileInPackage, packageDir, packageVersion, platformPackageBinary } from './npm.ts';
export { parseRuntimeSpec, resolveSingleNpmRuntime, singleNpmRuntimeSpecs, versionMatches, type ParsedSpec, type SingleNpmRuntime } from './spec.ts';
