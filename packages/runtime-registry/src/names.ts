/**
 * What a saved run records of a built-in runtime's and its engine's names
 * (Variant.displayNames), from each plug-in's identity alone: a run saved
 * before it recorded them is read with these, and reading a run loads no
 * plug-in and nothing that starts a process.
 */
import type { Variant } from '@rtbench/core/schema';
import type { EngineDescriptor, RuntimeIdentity } from '@rtbench/runtime-kit/engine';
import { BUN_IDENTITY } from '@rtbench/runtime-bun/identity';
import { DENO_IDENTITY } from '@rtbench/runtime-deno/identity';
import { NODE_IDENTITY } from '@rtbench/runtime-node/identity';
import { WORKERD_IDENTITY } from '@rtbench/runtime-workerd/identity';

const BUILT_IN_IDENTITIES: readonly RuntimeIdentity[] = [NODE_IDENTITY, DENO_IDENTITY, BUN_IDENTITY, WORKERD_IDENTITY];

/** The names a variant of `runtime` on `engine` records, from the runtime's identity; undefined for a runtime rtbench does not ship. */
export function displayNamesOf(runtime: string, engine: string | undefined): Variant['displayNames'] {
  const identity = BUILT_IN_IDENTITIES.find((i) => i.name === runtime);
  if (!identity) return undefined;
  const e = builtInEngine(engine);
  return { runtime: identity.displayName, ...(e ? { engine: e.displayName, engineShort: e.shortName } : {}) };
}

/** The engine of this id (as a saved run records it) that a built-in runtime runs on; undefined for another. */
export function builtInEngine(id: string | undefined): EngineDescriptor | undefined {
  return BUILT_IN_IDENTITIES.find((i) => i.engine.id === id)?.engine;
}
