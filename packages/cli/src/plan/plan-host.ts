/**
 * What planning reads of the machine it plans on: its platform, the runtime
 * store (a variant's runtime found or installed, its flags checked), the
 * package pins an arm asks for, and a brought file's cases as a runtime lists
 * them. Given to the plan as a value, so a test plans against a fake store
 * without starting a runtime, installing one or patching globals.
 */
import { hostPlatform } from '@rtbench/process';
import { listInRuntime } from '@rtbench/run';
import { listBundler, pinPackages, resolveVariant, runtimeStore } from '@rtbench/arms';
import { bundledPackagesAhead } from '@rtbench/measurers';
import type { ResolvedVariant, UnavailableVariant, VariantSpec } from '@rtbench/runtime-registry';
import type { SuiteLocation } from '@rtbench/suite-loader';

export interface PlanHost {
  /** The host's platform ("linux-x64"): a measurer may not work on it. */
  platform: string;
  /** A variant resolved: its runtime found (or installed on demand) and its flags checked; one that cannot run says why. */
  resolveVariant: (spec: VariantSpec) => Promise<ResolvedVariant | UnavailableVariant>;
  /** Whether a missing runtime is installed on demand (RTBENCH_NO_INSTALL=1: not). Asked after resolving, as the store decides it. */
  installsOnDemand: () => boolean;
  /** The packages each arm pins, checked against the suite's imports and installed into its record; returns the arms whose app build failed. */
  pinPackages: (location: SuiteLocation, variants: readonly (ResolvedVariant | UnavailableVariant)[]) => Promise<UnavailableVariant[]>;
  /** A brought file's cases, listed in a process of a runtime it will run on. */
  listInRuntime: typeof listInRuntime;
}

/** This machine: its platform, the npm runtime store, the package registry and real runtimes. */
export function machinePlanHost(): PlanHost {
  return {
    platform: hostPlatform(),
    resolveVariant,
    installsOnDemand: () => runtimeStore().installsOnDemand,
    // The bundle read for the list is the one the run then takes.
    pinPackages: (location, variants) => pinPackages(location, variants, undefined, { ...listBundler, ahead: bundledPackagesAhead }),
    listInRuntime,
  };
}
