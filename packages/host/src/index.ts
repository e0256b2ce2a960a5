export { CallgrindControl, estimatedCycles, findValgrind, InterruptedCommand, parseCallgrindFunctions, parseCallgrindTotals, takeDump, type CountSummary } from './valgrind.ts';
export { fixedRandomLibrary } from './fixed-random.ts';
export { diskIo, FileWriteError, writeFileAtomically, type FileIo } from './atomic-file.ts';
export { bundleOptions, bundleProgramFor, type BundledProgram } from './bundler.ts';
export { contentHash, ownerOnlyDir, storeNamedFile, UnsafeCacheError } from './program-cache.ts';
export { findPerf, perfRecordWrap } from './perf.ts';
export { HOST_TOOLS, PERF_SUPPORT, VALGRIND_SUPPORT, type HostTool } from './host-tools.ts';
