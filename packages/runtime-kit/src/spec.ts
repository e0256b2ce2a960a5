/**
 * Runtime specs for runtimes installed as one npm version (deno, bun,
 * workerd): "deno" or "deno@2.9" (the pinned npm install, which the
 * runtime store finds: store.ts), "deno@system" (on PATH),
 * "deno=/path/to/deno" (a build of your own). Node has several npm releases
 * and parses its own specs.
 */
import { resolve as resolvePath } from 'node:path';
import { RuntimeUnavailableError, type RuntimeTarget } from './types.ts';
import type { RuntimePlugin } from './plugin.ts';
import { whichOnPath } from '@rtbench/process';
import type { NpmRuntime } from './npm-runtime.ts';
import { workspaceRuntimes, type RuntimeStore } from './store.ts';
import { releaseFor, type RuntimeReleases } from './releases.ts';

type ParsedSpec = { kind: 'npm'; version?: string } | { kind: 'system' } | { kind: 'path'; path: string };

function parseRuntimeSpec(runtime: string, spec: string): ParsedSpec | undefined {
  if (spec === runtime) return { kind: 'npm' };
  if (spec.startsWith(`${runtime}=`)) return { kind: 'path', path: resolvePath(spec.slice(runtime.length + 1)) };
  if (!spec.startsWith(`${runtime}@`)) return undefined;
  const tag = spec.slice(runtime.length + 1);
  if (tag === 'system') return { kind: 'system' };
  if (tag === '' || tag === 'npm') return { kind: 'npm' };
  return { kind: 'npm', version: tag };
}

/** "2.9" matches 2.9.6, "2" matches 2.9.6, "2.9.6" matches itself; "2.1" does not match 2.10.0. */
function versionMatches(requested: string, actual: string): boolean {
  return actual === requested || actual.startsWith(`${requested}.`) || actual.startsWith(`${requested}+`);
}

export interface SingleNpmRuntime {
  runtime: RuntimeTarget['runtime'];
  /** Executable name on PATH for "<runtime>@system". */
  executable: string;
  /** The pinned npm install. */
  npm: NpmRuntime;
  /** Versions a "<runtime>@<v>" spec may name for the npm install (the package version, and workerd's date). */
  npmVersions: string[];
  /** Any published release as a variant ("deno@2.1.4"): absent, only the pin installs from npm. */
  releases?: RuntimeReleases;
  /** Runs the binary to learn its version and engine. */
  probe(spec: string, binary: string, source: RuntimeTarget['source']): Promise<RuntimeTarget>;
}

/** Probes a pinned npm runtime found (or installed now) through `store`. */
export async function resolveNpmRuntime(
  spec: string,
  npm: NpmRuntime,
  store: RuntimeStore,
  probe: (spec: string, binary: string, source: RuntimeTarget['source']) => Promise<RuntimeTarget>,
): Promise<RuntimeTarget> {
  const found = await store.get(npm);
  return { ...(await probe(spec, found.binary, 'npm')), npmLocation: found.location };
}

/** Shared `resolve()` for runtimes with one npm install. */
export async function resolveSingleNpmRuntime(rt: SingleNpmRuntime, spec: string, store: RuntimeStore = workspaceRuntimes): Promise<RuntimeTarget> {
  const parsed = parseRuntimeSpec(rt.runtime, spec);
  if (!parsed) throw new RuntimeUnavailableError(`"${spec}" is not a ${rt.runtime} spec`);
  if (parsed.kind === 'path') return rt.probe(spec, parsed.path, 'path');
  if (parsed.kind === 'system') {
    const onPath = whichOnPath(rt.executable);
    if (!onPath) throw new RuntimeUnavailableError(`${spec}: no ${rt.executable} on PATH`);
    return rt.probe(spec, onPath, 'system');
  }
  // Checked before anything is looked for, so a version rtbench does not pin is never installed.
  const wanted = parsed.version;
  if (wanted !== undefined && !rt.npmVersions.some((v) => versionMatches(wanted, v))) {
    // Another published release: checked against the registry's list before anything is installed.
    if (rt.releases?.looksLikeRelease(wanted)) {
      const target = await resolveNpmRuntime(spec, await releaseFor(rt.releases, rt.runtime, wanted, store.releases), store, rt.probe);
      // The binary's own report is the proof: a variant named for one release never runs another.
      if (!versionMatches(wanted, target.version)) throw new RuntimeUnavailableError(`${spec}: the binary found for it (${target.binary}) reports ${rt.runtime} ${target.version}`);
      return target;
    }
    const any = rt.releases ? `, or any release written in full (${rt.runtime}@${rt.releases.tagOf(rt.npm.version)})` : '';
    throw new RuntimeUnavailableError(`${spec}: rtbench installs ${rt.runtime} ${rt.npmVersions.join(' / ')} from npm${any}; for another build use ${rt.runtime}=/path/to/${rt.executable}`);
  }
  return resolveNpmRuntime(spec, rt.npm, store, rt.probe);
}

/**
 * The spec-related half of a plug-in for a runtime with one npm install:
 * `npmRuntimes`, `knownSpecs`, `accepts` and `resolve`, so each plug-in only adds how to
 * start its runtime.
 */
export function singleNpmRuntimeSpecs(rt: SingleNpmRuntime, display: { name: string }): Pick<RuntimePlugin, 'npmRuntimes' | 'knownSpecs' | 'accepts' | 'resolve' | 'releases'> {
  const r = rt.runtime;
  return {
    npmRuntimes: [rt.npm],
    ...(rt.releases ? { releases: rt.releases } : {}),
    knownSpecs() {
      return [
        { spec: r, note: `${display.name} ${rt.npm.version} from npm (${rt.npm.package}@${rt.npm.version})` },
        { spec: `${r}@system`, note: `the ${rt.executable} on PATH` },
        { spec: `${r}=/path/to/${rt.executable}`, note: 'a binary you name, e.g. your own build' },
      ];
    },
    accepts: (spec) => parseRuntimeSpec(r, spec) !== undefined,
    resolve: (spec, store) => resolveSingleNpmRuntime(rt, spec, store),
  };
}

