/**
 * The suite as the code a run's processes load, made by the suite loader:
 * bundled once per runtime (checked against its hash before every run), and
 * what the record says ran, by content hash.
 */
import type { HostTimedSuite } from '@rtbench/host-timed';
import { hostSuiteCode, suiteCodeOf } from '@rtbench/host-timed';
import { broughtServerProblem, handlerOf, servedBy } from '@rtbench/core/request';
import { type RequestSuite } from '@rtbench/core';
import type { RuntimePlugin } from '@rtbench/runtime-kit';
import type { Arm } from './measurer.ts';
import type { RunRecord } from '@rtbench/core/schema';
import type { BundledPackage, NodeEnvUse } from '@rtbench/host/programs';
import { bundleCodeHash, bundleSuite, loadSuite, repoRoot, suiteLoadError, type ArmBuild, type Bundle, type SuiteLocation } from '@rtbench/suite-loader';

export interface SuiteBundle {
  path: string;
  sha256: string;
  nodeEnv: NodeEnvUse;
}

/**
 * Bundles made before their run, by the plan (the suite's packages, for
 * pins), each taken by the run that asks for the same one: the suite is
 * bundled once, by the build that makes what the runtime runs. Taken once,
 * so a later run bundles the suite as it is then.
 */
const madeEarly = new Map<string, Promise<Bundle>>();

const bundleKey = (suite: SuiteLocation, plugin: RuntimePlugin, arm: ArmBuild): string =>
  JSON.stringify([suite.entry, suite.name, plugin.name, arm.nodeEnv ?? null, (arm.packages ?? []).map((p) => [p.name, p.dir])]);

/** The suite bundled for a runtime and an arm's build (its NODE_ENV, its pinned packages), and the hash of its code. */
export async function suiteBundle(suite: SuiteLocation, plugin: RuntimePlugin, arm: ArmBuild): Promise<SuiteBundle> {
  const key = bundleKey(suite, plugin, arm);
  const early = madeEarly.get(key);
  madeEarly.delete(key);
  const { path, nodeEnv } = await (early ?? bundleSuite(suite.entry, suite.name, plugin.name, plugin.bundle, arm));
  return { path, sha256: bundleCodeHash(path), nodeEnv };
}

/** The packages the suite imports, from its bundle for this runtime and arm build, which the run then takes (suiteBundle) instead of bundling again. */
export async function bundledPackagesAhead(suite: SuiteLocation, plugin: RuntimePlugin, arm: ArmBuild): Promise<BundledPackage[]> {
  const key = bundleKey(suite, plugin, arm);
  const bundle = bundleSuite(suite.entry, suite.name, plugin.name, plugin.bundle, arm);
  madeEarly.set(key, bundle);
  try {
    return (await bundle).packages;
  } catch (error) {
    madeEarly.delete(key);
    throw error;
  }
}

/** The one-line warning for bundles whose packages read NODE_ENV while their variants left it unset, or undefined. */
export function nodeEnvWarning(suiteName: string, unset: readonly { variantId: string; nodeEnv: NodeEnvUse }[]): string | undefined {
  const reading = unset.filter((u) => u.nodeEnv.defaulted && u.nodeEnv.readers.length);
  if (!reading.length) return undefined;
  const readers = [...new Set(reading.flatMap((u) => u.nodeEnv.readers))].sort();
  const variants = [...new Set(reading.map((u) => u.variantId))];
  return `${suiteName}: ${readers.join(', ')} read process.env.NODE_ENV, which ${variants.join(', ')} ${variants.length === 1 ? 'leaves' : 'leave'} unset: bundled as "${reading[0]!.nodeEnv.value}" (NODE_ENV=development in a variant measures the development build)`;
}

/**
 * One line naming, per arm, the NODE_ENV written into its bundle and the
 * packages that read it; undefined when no bundled package reads it.
 */
export function nodeEnvPerArm(uses: readonly { variantId: string; nodeEnv: NodeEnvUse }[]): string | undefined {
  const reading = uses.filter((u) => u.nodeEnv.readers.length);
  if (!reading.length) return undefined;
  const readers = [...new Set(reading.flatMap((u) => u.nodeEnv.readers))].sort();
  const arms = reading.map((u) => `${u.variantId} "${u.nodeEnv.value}"${u.nodeEnv.defaulted ? ' (unset: what a deployment build writes)' : ''}`);
  return `${readers.join(', ')} read process.env.NODE_ENV, written in per arm: ${arms.join(', ')}`;
}

/** A host-timed suite's code per runtime: the sources of all its programs (not only the filtered cases'), so shards of one run agree. */
export async function hostTimedSuiteCode(suite: SuiteLocation, plugins: readonly RuntimePlugin[]): Promise<{ runtime: string; sha256: string }[]> {
  const { measurements } = (await loadSuite(suite)).suite as HostTimedSuite;
  return hostSuiteCode(suite.entry, measurements, new Map(plugins.map((p) => [p.name, p])), repoRoot);
}

/**
 * A request suite's code per runtime: the sources of all its handlers (the
 * same module on every runtime). Arms of one runtime whose packages give
 * other handlers (a framework built at another version) are hashed apart,
 * each entry naming its arms, as suite bundles made per arm are.
 */
export async function requestSuiteCode(suite: SuiteLocation, arms: readonly Pick<Arm, 'id' | 'plugin' | 'packages'>[]): Promise<NonNullable<RunRecord['suiteCode']>> {
  const { declarations } = (await loadSuite(suite)).suite as RequestSuite;
  const groups = new Map<string, { plugin: RuntimePlugin; handlers: string[]; variants: string[] }>();
  try {
    for (const arm of arms) {
      const packages = arm.packages ?? {};
      // Prepared by the plan already (package-pins.ts), once per arm's packages; its failure is the suite's, said in one line.
      for (const d of declarations) await d.prepare?.(packages, [servedBy(arm.plugin.programs)]);
      const handlers = [...new Set(declarations.map((d) => handlerOf(d, packages)))];
      const key = JSON.stringify([arm.plugin.name, handlers]);
      const group = groups.get(key) ?? { plugin: arm.plugin, handlers, variants: [] };
      group.variants.push(arm.id);
      groups.set(key, group);
    }
  } catch (error) {
    throw suiteLoadError(suite, error);
  }
  // The permissions a brought server declares are checked before anything runs.
  for (const arm of arms) {
    for (const d of declarations) {
      const problem = arm.plugin.programs.kind === 'process' ? broughtServerProblem(d.server?.(arm.packages ?? {})) : undefined;
      if (problem) throw suiteLoadError(suite, new Error(`request "${d.name}", its server for ${arm.plugin.name}: ${problem}`));
    }
  }
  const out: NonNullable<RunRecord['suiteCode']> = [];
  for (const g of groups.values()) {
    const apart = [...groups.values()].filter((other) => other.plugin.name === g.plugin.name).length > 1;
    const code = await suiteCodeOf(suite.entry, () => g.handlers, new Map([[g.plugin.name, g.plugin.bundle]]), repoRoot);
    out.push(...code.map((c) => ({ ...c, ...(apart ? { variants: g.variants } : {}) })));
  }
  return out;
}
