/**
 * Deno plug-in. Deno comes from the npm registry as a project dependency
 * (`deno` and its platform package), so `deno` is the same binary on every
 * machine; `deno@system` is the deno on PATH and `deno=/path/to/deno` a build
 * of your own. Each job is `deno run` on the bundle with no permissions but
 * env (suites read NODE_ENV; the entry leaves only the variant's variables)
 * and those the variant grants (flags.ts; a server a suite brings: those it
 * declares, in place of env's), no config or lock file, no remote
 * or npm resolution, and no V8 code cache, so every round compiles from source
 * as on the other runtimes, unless the job asks for one (a case's own process
 * in a lockstep table: runtime-kit code-cache.ts). runners/deno/README.md.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeCacheDir, cpuProfFlags, NO_ISOLATE_START, v8HeapSampling, FlagError, inspectFlag, type JobRequest, overriddenV8Flags, parseV8FlagValues, processJobs, type RuntimePlugin, type SingleNpmRuntime, semverReleases, singleNpmRuntimeSpecs, spawnWith } from '@rtbench/runtime-kit';
import { runBriefly, sealJob, wrapped, type SpawnJobOptions } from '@rtbench/process';
import { npmDeno, probeDeno } from './binary.ts';
import { permissionFlags, translateDenoFlags, withV8Flags } from './flags.ts';
import { DENO_IDENTITY } from './identity.ts';

const here = dirname(fileURLToPath(import.meta.url));

/** Arguments of `deno run` before the engine flags: isolation from the machine's setup. */
export const DENO_RUN_ARGS = ['run', '--no-prompt', '--allow-env', '--no-config', '--no-lock', '--no-remote', '--no-npm', '--no-code-cache', '--quiet'];

/** The child's environment: PATH, HOME, no update check, no colour in errors, then the variant's. */
function childEnv(extra: Record<string, string>): Record<string, string | undefined> {
  return { PATH: process.env.PATH, HOME: process.env.HOME, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1', ...extra };
}

/** How a job runs on deno: `deno run` on the bundle, the job on stdin. */
function spawnOptions(request: JobRequest): SpawnJobOptions {
  const { target, flags, bundlePath } = request;
  // Where asked for, deno keeps the bundle's V8 code cache in a folder of its own (DENO_DIR) instead of none.
  const cacheDir = codeCacheDir(request);
  const runArgs = cacheDir ? DENO_RUN_ARGS.filter((a) => a !== '--no-code-cache') : DENO_RUN_ARGS;
  return {
    ...wrapped(request.wrap, target.binary, [...runArgs, ...flags.args, bundlePath]),
    job: sealJob(request.job, flags.env),
    env: childEnv({ ...(cacheDir ? { DENO_DIR: cacheDir } : {}), ...flags.env }),
    cwd: dirname(bundlePath),
    timeoutMs: request.timeoutMs,
    ...(request.signal ? { signal: request.signal } : {}),
  };
}

const deno: SingleNpmRuntime = {
  runtime: 'deno',
  executable: 'deno',
  npm: npmDeno,
  npmVersions: [npmDeno.version],
  // Any release on npm by its version: deno@<x.y.z>.
  releases: semverReleases(npmDeno),
  probe: probeDeno,
};

const start = spawnWith(spawnOptions);

export const denoRuntime: RuntimePlugin = {
  ...DENO_IDENTITY,
  frames: {
    nativeSymbols: /^(deno_|tokio::)/,
  },
  bundle: { entry: join(here, 'entry.ts'), platform: 'node', conditions: ['deno'] },

  ...singleNpmRuntimeSpecs(deno, { name: 'Deno' }),

  translateFlags: translateDenoFlags,

  /**
   * Deno exits 1 on a flag V8 does not know, a bad value, or a permission
   * flag it cannot read. The check also prints V8's flag values, so a flag
   * deno overrides is refused too.
   */
  async checkFlags(target, flags) {
    const v8 = flags.args.find((a) => a.startsWith('--v8-flags='));
    const permissions = flags.args.filter((a) => a !== v8);
    const args = [...permissions, ...(v8 ? [`${v8},--print-flag-values`] : [])];
    let printed: string;
    try {
      printed = await runBriefly(target.binary, ['eval', '--no-config', ...args, '0'], childEnv(flags.env));
    } catch (error) {
      throw new FlagError(`${target.spec} rejected ${flags.args.join(' ')}: ${(error as Error).message}`);
    }
    const requested = v8 ? v8.replace(/^--v8-flags=/, '').split(',') : [];
    const overridden = overriddenV8Flags(requested, parseV8FlagValues(printed));
    if (overridden.length) {
      throw new FlagError(`${target.spec} would ignore ${overridden.map((o) => `${o.flag} (V8 runs with ${o.effective})`).join(', ')}`);
    }
  },

  ...processJobs(start),
  engineMetrics: "GC by kind and cost, allocation and heap, from V8's GCProfiler and heap statistics through deno's node:v8",

  programs: {
    kind: 'process',
    command(target, flags, script, options = {}) {
      // DENO_RUN_ARGS carries --no-code-cache; with a cache directory deno keeps its V8 code cache there instead.
      // A brought server's declared permissions are its whole grant, env's included (it replaces the default --allow-env).
      const runArgs = DENO_RUN_ARGS.filter((a) => !(options.cacheDir && a === '--no-code-cache') && !(options.permissions && a === '--allow-env'));
      const declared = options.permissions ? permissionFlags(options.permissions) : [];
      const net = options.net ? ['--allow-net=127.0.0.1'] : [];
      return { command: target.binary, args: [...runArgs, ...declared, ...net, ...flags.args, script], env: childEnv({ ...(options.cacheDir ? { DENO_DIR: options.cacheDir } : {}), ...flags.env }) };
    },
    codeCache: { note: "V8's code cache in DENO_DIR" },
    isolateStart: NO_ISOLATE_START,
    fetchServer: join(here, 'serve-fetch.ts'),
  },

  inspector: inspectFlag(start),
  // Not in `deno run --help`, but in the binary's help text and accepted ("Start the V8 CPU profiler on startup and write the profile to disk on exit").
  cpuProfile: cpuProfFlags('deno run --cpu-prof (V8 CpuProfiler)'),
  allocationProfile: v8HeapSampling('deno run --inspect'),
  nativeProfile: {
    jitNames: 'perf-map',
    withJitNames: (flags) => ({ args: withV8Flags(flags.args, ['--perf-basic-prof', '--interpreted-frames-native-stack']), env: flags.env }),
    resolves: "deno's binary is stripped: its C++ and Rust code (V8's runtime functions, JSON.parse's C++ among them, and deno's own) is addresses, grouped by library as one frame; V8 names its JIT code in a perf map (--perf-basic-prof; --interpreted-frames-native-stack gives each interpreted function a frame of its own), and V8's builtins are named there too",
  },
};
