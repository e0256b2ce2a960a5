/**
 * What a saved run names bun by: its name, display name and engine. Apart from
 * the plug-in (which spreads it) so that reading a saved run loads no plug-in,
 * and nothing that starts a process (@rtbench/runtime-registry/names).
 */
import { JSC_ENGINE } from './engine.ts';
import type { RuntimeIdentity } from '@rtbench/runtime-kit/engine';

export const BUN_IDENTITY: RuntimeIdentity = { name: 'bun', displayName: 'Bun', engine: JSC_ENGINE };
