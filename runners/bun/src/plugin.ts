/**
 * Bun plug-in. Bun comes from the npm registry as a project dependency, so
 * `bun` is the same binary on every machine; `bun@system` is the bun on PATH
 * and `bun=/path/to/bun` a build of your own.
 *
 * Each job runs the bundle with auto-install and .env loading off, from the
 * bundle's directory (no bunfig.toml or .env of the user's is picked up).
 */
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { cpuProfFlags, NO_ISOLATE_START, FlagError, type JobRequest, processJobs, type RuntimePlugin, type SingleNpmRuntime, semverReleases, singleNpmRuntimeSpecs } from '@rtbench/runtime-kit';
import { runBriefly, sealJob, startJob, wrapped, type RunningJob, attachTraceMetrics, TraceFilter } from '@rtbench/process';
import { JscGcLog } from './gc-trace.ts';
import { GC_LOG_ENV, readsGcLog } from './gc-probe.ts';
import { npmBun, probeBun } from './binary.ts';
import { translateBunFlags } from './flags.ts';
import { BUN_IDENTITY } from './identity.ts';

const here = dirname(fileURLToPath(import.meta.url));

/** Bun's own options before the engine's: isolation from the machine's setup. */
export const BUN_RUN_ARGS = ['--no-install', '--no-env-file'];

/**
 * Bun's mimalloc returns freed pages to the system once they sat unused past its purge delay (ms), which a lockstep
 * process waiting its turn always does: its next sample then faults every page back in (JSON.stringify of 10 KB: ~75 µs
 * a call after each wait against ~20 µs without pause, with ~3 page faults a call). A program running without pause
 * reuses them before the delay, so a process that waits its turn keeps them.
 */
const WAITING_ENV = { MIMALLOC_PURGE_DELAY: '-1' };

function childEnv(extra: Record<string, string>): Record<string, string | undefined> {
  return { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...extra };
}

const bun: SingleNpmRuntime = {
  runtime: 'bun',
  executable: 'bun',
  npm: npmBun,
  npmVersions: [npmBun.version],
  // Any release on npm by its version: bun@<x.y.z>.
  releases: semverReleases(npmBun),
  probe: probeBun,
};

/** A job on bun: the bundle, the job on stdin, and, when the run asked for collection counts, JSC's GC log on stderr read into the result's metrics. */
function startBunJob(request: JobRequest, waitsItsTurn = false): RunningJob {
  const { target, flags, bundlePath } = request;
  // JSC's GC log on stderr is where Bun's collection counts come from: on only when the run asked for them (readsGcLog).
  const gcLog = readsGcLog(request.job, flags.env[GC_LOG_ENV] !== undefined) ? new TraceFilter(new JscGcLog(), () => new JscGcLog()) : undefined;
  const running = startJob({
    ...wrapped(request.wrap, target.binary, [...BUN_RUN_ARGS, ...flags.args, bundlePath]),
    job: sealJob(request.job, flags.env),
    // Set in the process, not sealed into the job: the case sees the variant's environment alone.
    env: childEnv({ ...(gcLog ? { [GC_LOG_ENV]: '1' } : {}), ...(waitsItsTurn ? WAITING_ENV : {}), ...flags.env }),
    cwd: dirname(bundlePath),
    timeoutMs: request.timeoutMs,
    ...(request.signal ? { signal: request.signal } : {}),
    ...(gcLog ? { stderrFilter: gcLog } : {}),
  });
  if (!gcLog) return running;
  return {
    ...running,
    outcome: running.outcome.then((outcome) => {
      attachTraceMetrics(outcome.messages, gcLog, 'the sampling-phase markers did not reach stderr');
      return outcome;
    }),
  };
}

export const bunRuntime: RuntimePlugin = {
  ...BUN_IDENTITY,
  frames: {
    nativeSymbols: /^(Bun::|Bun__|Zig::|WebCore::|JSC__|ZigGlobalObject)/,
  },
  bundle: { entry: join(here, 'entry.ts'), platform: 'node', conditions: ['bun'] },

  ...singleNpmRuntimeSpecs(bun, { name: 'Bun' }),

  versionNote: "Bun's engine is the WebKit revision of its JavaScriptCore.",

  translateFlags: translateBunFlags,

  /** JSC checks BUN_JSC_ variables at startup: an unknown option or a bad value exits 1 ("invalid JSC environment variable"). */
  async checkFlags(target, flags) {
    try {
      await runBriefly(target.binary, [...BUN_RUN_ARGS, ...flags.args, '-e', '0'], childEnv(flags.env), 30_000, tmpdir());
    } catch (error) {
      const given = [...flags.args, ...Object.entries(flags.env).map(([k, v]) => `${k}=${v}`)].join(' ');
      throw new FlagError(`${target.spec} rejected ${given}: ${(error as Error).message}`);
    }
  },

  ...processJobs(startBunJob),
  // Bun's own GC timer collects on the clock while the process idles between counted samples.
  countingEnv: { BUN_GC_TIMER_DISABLE: '1' },
  waitingEnv: WAITING_ENV,
  engineMetrics: "collections and their pauses from JavaScriptCore's GC log on stderr (BUN_JSC_logGC, on only with --metrics gc), heap in use from process.memoryUsage()",

  programs: {
    kind: 'process',
    command: (target, flags, script, options = {}) => ({
      command: target.binary,
      args: [...BUN_RUN_ARGS, ...flags.args, script],
      // Bun caches the transpiled source of large files (not bytecode); '0' turns that cache off.
      env: childEnv({ BUN_RUNTIME_TRANSPILER_CACHE_PATH: options.cacheDir ?? '0', ...flags.env }),
    }),
    codeCache: { note: 'the transpiled source of large files (BUN_RUNTIME_TRANSPILER_CACHE_PATH), not bytecode' },
    isolateStart: NO_ISOLATE_START,
    fetchServer: join(here, 'serve-fetch.ts'),
  },

  inspector: { unavailable: "bun's inspector speaks WebKit's protocol, not the Chrome DevTools Protocol rtbench drives" },
  cpuProfile: cpuProfFlags("bun --cpu-prof (JavaScriptCore's sampling profiler)"),
  allocationProfile: {
    unavailable:
      "bun 1.4's --heap-prof writes a heap snapshot at exit (JavaScriptCore's live objects, with no allocation stacks: its trace tree and samples are empty), not a sampling allocation profile, and bun's inspector speaks WebKit's protocol, which has no sampling heap profiler",
  },

  // JavaScriptCore writes jit-<n>-<pid>.dump (perf's jitdump format) into the folder given.
  nativeProfile: {
    jitNames: 'jitdump',
    withJitNames: (flags, jitDir) => ({ args: flags.args, env: { ...flags.env, BUN_JSC_useJITDump: '1', BUN_JSC_jitDumpDirectory: jitDir } }),
    resolves:
      "bun's binary carries only its ~1,100 dynamic symbols: JavaScriptCore's and bun's C++ and Zig code is addresses, grouped by library as one frame; JIT code is named from JSC's jitdump (BUN_JSC_useJITDump), by tier and code block (\"JSC-DFG: <function>#<hash>\"), without source lines; the interpreter (LLInt) and its thunks are in the binary, unnamed",
  },
};
