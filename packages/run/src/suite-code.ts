/**
 * The suite as the code a run's processes load, made by the suite loader:
 * bundled once per runtime (checked against its hash before every run), and
 * what the record says ran, by content hash.
 */
import type { HostTimedSuite } from '@rtbench/host-timed';
import { hostSuiteCode } from '@rtbench/host-timed';
import type { RuntimePlugin } from '@rtbench/runtime-kit';
import { bundleCodeHash, bundleSuite, loadSuite, repoRoot, type SuiteLocation } from '@rtbench/suite-loader';

/** The suite bundled for a runtime, and the hash of its code. */
export async function suiteBundle(suite: SuiteLocation, plugin: RuntimePlugin): Promise<{ path: string; sha256: string }> {
  const { path } = await bundleSuite(suite.entry, suite.name, plugin.name, plugin.bundle);
  return { path, sha256: bundleCodeHash(path) };
}

/** A host-timed suite's code per runtime: the sources of all its programs (not only the filtered cases'), so shards of one run agree. */
export async function hostTimedSuiteCode(suite: SuiteLocation, plugins: readonly RuntimePlugin[]): Promise<{ runtime: string; sha256: string }[]> {
  const { measurements } = (await loadSuite(suite)).suite as HostTimedSuite;
  return hostSuiteCode(suite.entry, measurements, new Map(plugins.map((p) => [p.name, p.bundle])), repoRoot);
}
