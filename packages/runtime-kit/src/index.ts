/**
 * @rtbench/runtime-kit: the contract a runtime plug-in is written against
 * (runners/*), and the helpers plug-ins build themselves from. It exports
 * only names a plug-in imports (a structure target checks it); what the host
 * makes of a plug-in lives above it (@rtbench/host, @rtbench/runtime-registry).
 */
export { FlagError, RuntimeUnavailableError, type JobRequest, type RuntimeTarget, type TranslatedFlags } from './types.ts';
export { codeCacheDir } from './code-cache.ts';
export { V8_ENGINE, type EngineDescriptor } from './engine.ts';
export type { RuntimePlugin, ServeFetch, ServedProgram } from './plugin.ts';
export { cpuProfFlags, inspectFlag, NO_ISOLATE_START, processJobs, spawnWith, v8HeapSampling } from './process-plugin.ts';
export { flagsAsWritten, probeOutput, splitFlag } from './binary.ts';
export { findLiterals } from './binary-literals.ts';
export { overriddenV8Flags, parseV8FlagValues, refusalLine } from './v8-flags.ts';
export { existingFile } from './npm.ts';
export { binaryInPackage, declareNpmRuntime, onEveryPlatform, pluginDevDependencies, type NpmRuntime, type PlatformPackages } from './npm-runtime.ts';
export { releaseFor, semverReleases, type RuntimeReleases } from './releases.ts';
export { resolveNpmRuntime, singleNpmRuntimeSpecs, type SingleNpmRuntime } from './spec.ts';
export { workspaceRuntimes } from './store.ts';
