/**
 * workerd plug-in. workerd comes from the npm registry as a project
 * dependency, so `workerd` is the same binary on every machine;
 * `workerd@system` is the workerd on PATH and `workerd=/path/to/workerd` a
 * build of your own.
 *
 * Per job: a config written for the job, a fresh workerd on 127.0.0.1 with a
 * port the kernel picks, the Job POSTed to the worker, protocol lines read
 * from the response, the server stopped by PID. Engine flags become the
 * config's v8Flags (recorded as the translated args). See README.md.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type JobRequest, type RuntimePlugin, type SingleNpmRuntime, singleNpmRuntimeSpecs, v8HeapSampling } from '@rtbench/runtime-kit';
import { liveCase, warmProcess } from '@rtbench/process';
import { HANDLER_KEY } from './handoff.ts';
import { BUNDLE_MODULE } from './config.ts';
import { serveLoader, serveModule } from './programs.ts';
import { compatibilityProblem } from './compatibility.ts';
import { npmWorkerd, probeWorkerd, workerdDateOf, workerdReleases } from './binary.ts';
import { checkWorkerdFlags, translateWorkerdFlags } from './flags.ts';
import { runWorkerdJob, startWorkerdJob } from './run-job.ts';
import { INSPECTOR_OPTION } from './server.ts';
import { WORKERD_IDENTITY } from './identity.ts';

const here = dirname(fileURLToPath(import.meta.url));

const workerd: SingleNpmRuntime = {
  runtime: 'workerd',
  executable: 'workerd',
  npm: npmWorkerd,
  // "workerd@YYYY-MM-DD" (what the binary prints) or "workerd@1.YYYYMMDD.N" (the npm version).
  npmVersions: [workerdDateOf(npmWorkerd.version), npmWorkerd.version].filter((v): v is string => v !== undefined),
  releases: workerdReleases,
  probe: probeWorkerd,
};


export const workerdRuntime: RuntimePlugin = {
  ...WORKERD_IDENTITY,
  frames: {
    nativeSymbols: /^(workerd::|workerd_\w+::|kj::|kj_rs\w*::|<kj_rs\w*::|<workerd_\w+::|capnp::|edgeworker::|absl::|boringssl|sqlite3)/,
    bundleModule: BUNDLE_MODULE,
  },
  // Bundled as wrangler resolves packages for Workers (workerd/worker/browser
  // conditions, browser-first main fields), but on esbuild's neutral platform:
  // the browser platform would hard-code process.env.NODE_ENV = "development".
  // The suite's module loads in the first request: a file's top level may build a Request with a body, set a timer or draw random values, which the Worker's global scope refuses.
  bundle: { entry: join(here, 'entry.ts'), platform: 'neutral', conditions: ['workerd', 'worker', 'browser'], mainFields: ['browser', 'module', 'main'], suiteInFirstJob: true },

  ...singleNpmRuntimeSpecs(workerd, { name: 'workerd' }),

  versionNote: "workerd's V8 version is read from its binary: workerd does not report it.",

  translateFlags: translateWorkerdFlags,

  checkFlags(target, flags) {
    return checkWorkerdFlags(target, flags);
  },

  runJob(request: JobRequest) {
    return runWorkerdJob(request);
  },

  startSession(request: JobRequest) {
    return liveCase(startWorkerdJob(request));
  },

  engineMetrics: "GC by kind and pauses from V8's --trace-gc-nvp on stdout, read by the host around the sampling phase",

  programs: {
    kind: 'server',
    handlerKey: HANDLER_KEY,
    serve: serveModule,
    compatibilityProblem,
    codeCache: { unavailable: 'it keeps no code cache between processes or workers' },
    isolateStart: { serveLoader },
    // Measured: the worker's performance.now() reads the same before and after a 1 MB bundle's top level.
    topLevelTime: { unavailable: "workerd's clocks do not advance while a module's top level runs" },
  },

  // The job goes over an HTTP exchange after start-up, so a profiler can start before it and stop after it.
  inspector: {
    exchange: true,
    start(request, around = {}) {
      let resolvePort!: (port: number | undefined) => void;
      const port = new Promise<number | undefined>((r) => (resolvePort = r));
      const running = startWorkerdJob(request, {
        serveOptions: [INSPECTOR_OPTION],
        async beforeExchange(server) {
          void server.inspector.then(resolvePort);
          await around.beforeExchange?.(port);
        },
        async afterExchange() {
          await around.afterExchange?.();
        },
      });
      void running.outcome.then(() => resolvePort(undefined));
      return Promise.resolve({ running, port });
    },
  },
  cpuProfile: { kind: 'inspector', method: 'workerd --inspector-addr, Chrome DevTools Protocol Profiler domain (V8 CpuProfiler)' },
  allocationProfile: v8HeapSampling('workerd --inspector-addr'),
  // The args are the config's v8Flags.
  nativeProfile: {
    jitNames: 'perf-map',
    withJitNames: (flags) => ({ args: ['--perf-basic-prof', '--interpreted-frames-native-stack', ...flags.args], env: flags.env }),
    resolves: "workerd's binary carries its symbols: V8's, workerd's and kj's C++ functions and V8's builtins by name; V8 names its JIT code in a perf map (--perf-basic-prof; --interpreted-frames-native-stack gives each interpreted function a frame of its own); functions a compiler inlined are part of their caller (no DWARF inline data)",
  },

  startWarm(request: JobRequest) {
    return warmProcess(startWorkerdJob(request));
  },
};
