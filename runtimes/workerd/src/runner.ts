/**
 * workerd runner. workerd comes from the npm registry as a project
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
import {
  type JobRequest,
  type Runner,
  type SingleNpmRuntime,
  singleNpmRuntimeSpecs,
  liveCase,
  warmProcess,
} from '@rtbench/runtime-kit';
import { npmWorkerd, probeWorkerd, workerdDateOf, workerdReleases } from './binary.ts';
import { checkWorkerdFlags, translateWorkerdFlags } from './flags.ts';
import { runWorkerdJob, startWorkerdJob } from './run-job.ts';

const here = dirname(fileURLToPath(import.meta.url));

const workerd: SingleNpmRuntime = {
  runtime: 'workerd',
  executable: 'workerd',
  npm: npmWorkerd,
  // "workerd@2026-11-17" (what the binary prints) or "workerd@1.20261117.1" (the npm version).
  npmVersions: [workerdDateOf(npmWorkerd.version), npmWorkerd.version].filter((v): v is string => v !== undefined),
  releases: workerdReleases,
  probe: probeWorkerd,
};

export const workerdRunner: Runner = {
  runtime: 'workerd',
  // Bundled as wrangler resolves packages for Workers (workerd/worker/browser
  // conditions, browser-first main fields), but on esbuild's neutral platform:
  // the browser platform would hard-code process.env.NODE_ENV = "development".
  bundle: { entry: join(here, 'entry.ts'), platform: 'neutral', conditions: ['workerd', 'worker', 'browser'], mainFields: ['browser', 'module', 'main'] },

  ...singleNpmRuntimeSpecs(workerd, { name: 'workerd' }),

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

export default workerdRunner;
