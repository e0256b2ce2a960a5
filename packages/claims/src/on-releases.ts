/**
 * Claims runs handed to a release matrix (`rtbench releases … --claims
 * <folder or run>`): each argument read as `rtbench report` reads it (a
 * folder `rtbench claims` saved, or one of its run files), refused in one
 * line when it is not there or checked no claim; and a run's variant as a
 * release of its runtime, named as the matrix names releases (the plug-in's
 * tag of the version the variant ran), and a suite by the name its claims
 * runs record. @rtbench/releases matches them to its tracks.
 */
import { existsSync, statSync } from 'node:fs';
import type { RunRecord, Variant } from '@rtbench/core/schema';
import { pluginNamed } from '@rtbench/runtime-registry';
import { loadSavedRun } from '@rtbench/saved-runs';
import { isBroughtEntry, loadSuite, locateSuite } from '@rtbench/suite-loader';
import { UsageError } from '@rtbench/core/usage-error';
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

/**
 * The name claims runs record for each suite as typed: its own, as declared
 * (a suite typed as a path goes by it, not by the path); a brought file states
 * no claims and keeps the name it is found by. Loads each suite named.
 */
export async function claimsSuiteNames(typed: readonly string[]): Promise<(suite: string) => string> {
  const names = new Map<string, string>();
  for (const t of typed) {
    const location = locateSuite(t);
    names.set(t, isBroughtEntry(location.entry) ? location.name : (await loadSuite(location)).suite.name);
  }
  return (suite) => names.get(suite) ?? suite;
}
