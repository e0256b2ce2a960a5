/**
 * Claims runs handed to a release matrix (`rtbench releases … --claims
 * <folder or run>`): each argument read as `rtbench report` reads it (a
 * folder `rtbench claims` saved, or one of its run files), refused in one
 * line when it is not there or checked no claim; and a run's variant as a
 * release of its runtime, named as the matrix names releases (the plug-in's
 * tag of the version the variant ran). @rtbench/releases matches them to
 * its tracks.
 */
import { existsSync, statSync } from 'node:fs';
import type { RunRecord, Variant } from '@rtbench/core/schema';
import { pluginNamed } from '@rtbench/runtime-registry';
import { loadSavedRun } from '@rtbench/run';
import { UsageError } from '@rtbench/suite-loader';
import { loadClaimsFolder } from './saved.ts';

/** Each `--claims` argument's runs that checked claims, in its order; a bad argument refused before anything is listed or measured. */
export function loadClaimsRuns(paths: readonly string[]): { path: string; runs: { run: RunRecord; file: string }[] }[] {
  return paths.map((path) => {
    if (!existsSync(path)) throw new UsageError(`--claims ${path}: no such file or folder (a folder rtbench claims saved, or a run file in it)`);
    if (statSync(path).isDirectory()) return { path, runs: loadClaimsFolder(path) };
    const { run, file } = loadSavedRun(path);
    if (!run.claims) throw new UsageError(`--claims ${path}: a run that checked no claims (rtbench claims saves runs that do)`);
    return { path, runs: [{ run, file }] };
  });
}

/**
 * A variant as a release: its runtime and the tag of the version it ran
 * ("node", "24.3.0"). A build of your own (a binary by path) is not a release
 * even at a release's version, nor is a variant without a version.
 */
export function releaseOfVariant(variant: Variant): { runtime: string; tag: string } | undefined {
  const plugin = pluginNamed(variant.runtime);
  if (!plugin?.releases || !variant.version || variant.unavailable || variant.source === 'path') return undefined;
  return { runtime: plugin.name, tag: plugin.releases.tagOf(variant.version) };
}
