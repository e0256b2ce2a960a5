/**
 * A variant through its stages, declared once: as written (a spec), then
 * resolved on its plug-in (binary and translated flags, and the record a run
 * saves of it) or unavailable with the reason. The CLI parses and resolves
 * through the registry, the run measures the resolved ones; each takes the
 * stage it needs (host-timed code takes a RunnableVariant, its own part).
 */
import type { Variant } from '@rtbench/core/schema';
import type { RuntimePlugin, RuntimeTarget, TranslatedFlags } from '@rtbench/runtime-kit';

/** A variant as written: `node@26 --max-semi-space-size=64 FOO=1`, split into its parts. */
export interface VariantSpec {
  id: string;
  runtimeSpec: string;
  flags: string[];
  env: Record<string, string>;
  /** Packages the suite imports, pinned for this arm as written: `react@19.2.0` (a version or an x-range) or `react=/path/to/react` (a local build). */
  packages?: { name: string; version?: string; path?: string }[];
}

/** A variant its plug-in can run: the binary, the flags in the runtime's syntax, and what a run records of it. */
export interface ResolvedVariant {
  spec: VariantSpec;
  plugin: RuntimePlugin;
  target: RuntimeTarget;
  flags: TranslatedFlags;
  record: Variant;
}

/** A variant that cannot run, and why: it stays in the run, failed, and the run goes on without it. */
export interface UnavailableVariant {
  spec: VariantSpec;
  plugin: RuntimePlugin;
  reason: string;
  /** What is missing: the runtime, a flag it refuses, what the measurer needs of it, or the app's build its runtime serves (it failed). */
  kind: 'runtime-unavailable' | 'flags' | 'measurer' | 'build';
}

export function isResolved(v: ResolvedVariant | UnavailableVariant): v is ResolvedVariant {
  return 'target' in v;
}

