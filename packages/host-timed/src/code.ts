/**
 * What a host-timed suite runs, by content, per runtime: the run's suiteCode,
 * which `rtbench merge` compares between shards. The hash covers the sources
 * every program and server of the whole suite is built from for that runtime
 * (as esbuild resolves them, packages included) and the suite's definition;
 * the whole suite rather than the filtered cases, so every shard of one run
 * records the same code, with inputs named relative to `root` so two
 * checkouts of one commit agree.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { build } from 'esbuild';
import type { RuntimeKind } from '@rtbench/core/suite';
import type { BundleTarget } from '@rtbench/host';
import { bundleOptions } from '@rtbench/host/programs';
import type { RuntimePlugin } from '@rtbench/runtime-kit';
import { servedBy } from './served.ts';
import { isUnsupported, type HostMeasurement } from './suite.ts';

/** The source files esbuild reads to build `entryPoints` (relative to root), or undefined when they do not build. */
async function inputsOf(entryPoints: string[], target: Pick<BundleTarget, 'platform' | 'conditions' | 'mainFields'>, root: string, external: string[]): Promise<string[] | undefined> {
  try {
    // The runtime's bundle options (host bundler.ts), read for its inputs only.
    const result = await build({ ...bundleOptions(target), entryPoints, metafile: true, outdir: join(root, '.rtbench-suite-code'), external, absWorkingDir: root });
    return Object.keys(result.metafile.inputs).sort();
  } catch {
    return undefined;
  }
}

/** A file's sha256; for an input that is no file (esbuild's "(disabled):…" stand-ins), nothing. */
function contentHash(path: string): string {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return '';
  }
}

/** The programs and servers of `measurements` for a runtime (its plug-in's way of serving them), as files. */
function programsFor(measurements: readonly HostMeasurement[], plugin: ServingPlugin): string[] {
  const files = new Set<string>();
  for (const m of measurements) {
    if (m.kind === 'startup') {
      // A generated program (a function) is made by code of the suite's definition, which is hashed.
      if (typeof m.program === 'string') files.add(m.program);
    } else {
      const served = servedBy(m.server, plugin);
      if (!isUnsupported(served)) files.add(served.file);
    }
  }
  return [...files];
}

/**
 * sha256 (16 hex digits) per runtime of `targets`; a runtime whose programs
 * do not build gets no entry (its cases fail with the builder's message).
 */
export async function hostSuiteCode(suiteEntry: string, measurements: readonly HostMeasurement[], plugins: ReadonlyMap<RuntimeKind, ServingPlugin>, root: string): Promise<{ runtime: RuntimeKind; sha256: string }[]> {
  const targets = new Map([...plugins].map(([runtime, plugin]) => [runtime, plugin.bundle]));
  return suiteCodeOf(suiteEntry, (runtime) => programsFor(measurements, plugins.get(runtime)!), targets, root);
}

/** What of a plug-in says how its runtime builds and serves a suite's programs. */
type ServingPlugin = Pick<RuntimePlugin, 'bundle' | 'programs' | 'displayName'>;

/** The same for any suite whose programs per runtime are files (a request suite: its handlers). */
export async function suiteCodeOf(suiteEntry: string, programs: (runtime: RuntimeKind) => string[], targets: ReadonlyMap<RuntimeKind, BundleTarget>, root: string): Promise<{ runtime: RuntimeKind; sha256: string }[]> {
  // rtbench's own packages are the commit's, which merge compares separately.
  const definition = await inputsOf([suiteEntry], { platform: 'node', conditions: [] }, root, ['node:*', '@rtbench/*']);
  if (!definition) return [];
  const out: { runtime: RuntimeKind; sha256: string }[] = [];
  for (const [runtime, target] of targets) {
    const built = await inputsOf(programs(runtime), target, root, ['node:*']);
    if (!built) continue;
    const hash = createHash('sha256');
    for (const file of [...new Set([...definition, ...built])].sort()) hash.update(`${file}\u0000${contentHash(isAbsolute(file) ? file : join(root, file))}\n`);
    out.push({ runtime, sha256: hash.digest('hex').slice(0, 16) });
  }
  return out;
}
