/**
 * @rtbench/host/tools: the host's measuring tools: valgrind (callgrind's
 * counts and control), perf, the fixed-random library, and where each tool
 * works.
 */
export { CallgrindControl, estimatedCycles, findValgrind, InterruptedCommand, parseCallgrindFunctions, parseCallgrindTotals, takeDump, type CountSummary } from './valgrind.ts';
export { fixedRandomLibrary } from './fixed-random.ts';
export { findPerf, perfRecordWrap } from './perf.ts';
export { HOST_TOOLS, PERF_SUPPORT, THREAD_CPU_SUPPORT, VALGRIND_SUPPORT, type HostTool } from './host-tools.ts';
