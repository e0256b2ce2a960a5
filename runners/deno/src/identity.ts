/**
 * What a saved run names deno by: its name, display name and engine. Apart from
 * the plug-in (which spreads it) so that reading a saved run loads no plug-in,
 * and nothing that starts a process (@rtbench/runtime-registry/names).
 */
import { V8_ENGINE } from '@rtbench/runtime-kit/engine';
import type { RuntimeIdentity } from '@rtbench/runtime-kit/engine';

export const DENO_IDENTITY: RuntimeIdentity = { name: 'deno', displayName: 'Deno', engine: V8_ENGINE };
