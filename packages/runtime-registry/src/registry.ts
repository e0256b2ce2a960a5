/**
 * The runtimes rtbench can drive: the one module that imports the runtime
 * plug-ins (runners/<name>/src/plugin.ts). The CLI and the run find a
 * runtime here, by the spec a user wrote or by the name a saved run records,
 * and ask its plug-in the rest (docs/layout.md lists who imports it).
 *
 * A runtime rtbench does not ship is one plug-in file (the RuntimePlugin
 * interface of @rtbench/runtime-kit) and one registerRuntime() call, or a
 * path in RTBENCH_RUNTIME_PLUGINS, which the CLI loads before it reads its
 * arguments (loadRuntimePlugins).
 */
import { isAbsolute, resolve } from 'node:path';
import { importUserModule } from '@rtbench/process';
import { RUNTIME_NAME_PATTERN } from '@rtbench/core/suite';
import { Refusal } from '@rtbench/core/usage-error';
import type { EngineDescriptor, RuntimePlugin } from '@rtbench/runtime-kit';
import { bunRuntime } from '@rtbench/runtime-bun';
import { escapedLine, noteSource } from './plugin-calls.ts';

export { abandonedPluginCalls, askPlugin, pendingPluginCall, pluginLabel } from './plugin-calls.ts';
import { denoRuntime } from '@rtbench/runtime-deno';
import { nodeRuntime } from '@rtbench/runtime-node';
import { workerdRuntime } from '@rtbench/runtime-workerd';

/** The plug-ins rtbench ships, in the order tables list them. */
export const BUILT_IN_RUNTIMES: readonly RuntimePlugin[] = [nodeRuntime, denoRuntime, bunRuntime, workerdRuntime];

const plugins: RuntimePlugin[] = [...BUILT_IN_RUNTIMES];

/**
 * What `rtbench bench <suite>` runs when --runtime is not given: the
 * built-in runtimes, each from its npm install (`node` is the newest Node.js
 * release rtbench installs).
 */
export const DEFAULT_RUNTIMES: readonly string[] = BUILT_IN_RUNTIMES.map((p) => p.name);

export class RuntimePluginError extends Refusal {
  override readonly name = 'RuntimePluginError';
}

/** Every runtime rtbench can drive now: the built-in ones, then those registered. */
export function runtimePlugins(): readonly RuntimePlugin[] {
  return plugins;
}

/** The plug-in that accepts this spec (`node@24`, `deno=/opt/deno`), if any. */
export function pluginForSpec(spec: string): RuntimePlugin | undefined {
  return plugins.find((p) => p.accepts(spec));
}

/** The plug-in of this name (as a saved run records it), if it is registered. */
export function pluginNamed(name: string): RuntimePlugin | undefined {
  return plugins.find((p) => p.name === name);
}

/** "Node.js" for node; a runtime no plug-in here knows (a saved run from elsewhere) by its name. */
export function displayNameOf(name: string): string {
  return pluginNamed(name)?.displayName ?? name;
}

/** The engines the registered runtimes run on, each once, in the order of their runtimes. */
export function runtimeEngines(): EngineDescriptor[] {
  return [...new Map(plugins.map((p) => [p.engine.id, p.engine])).values()];
}

/** The engine of this id (as a saved run records it), if a registered runtime runs on it. */
export function engineNamed(id: string | undefined): EngineDescriptor | undefined {
  return plugins.find((p) => p.engine.id === id)?.engine;
}

/** Adds a runtime. Its name must be new, and no registered plug-in may already accept its bare name as a spec. */
export function registerRuntime(plugin: RuntimePlugin): void {
  if (!RUNTIME_NAME_PATTERN.test(plugin.name)) throw new RuntimePluginError(`runtime plug-in "${plugin.name}": a name is lower-case letters, digits and dashes, starting with a letter`);
  const taken = pluginNamed(plugin.name) ?? pluginForSpec(plugin.name);
  if (taken) throw new RuntimePluginError(`runtime plug-in "${plugin.name}": the name is taken by ${taken.displayName}'s plug-in`);
  if (!plugin.accepts(plugin.name)) throw new RuntimePluginError(`runtime plug-in "${plugin.name}": it does not accept its own name as a spec`);
  // Runs record the engine's id: it must read back as saved-run schemas read it.
  if (!RUNTIME_NAME_PATTERN.test(plugin.engine?.id ?? '')) throw new RuntimePluginError(`runtime plug-in "${plugin.name}": its engine's id (RuntimePlugin.engine.id) is lower-case letters, digits and dashes, starting with a letter`);
  plugins.push(plugin);
}

/** Removes a runtime registerRuntime() added (tests). The built-in ones stay. */
export function unregisterRuntime(name: string): void {
  const i = plugins.findIndex((p) => p.name === name && !BUILT_IN_RUNTIMES.includes(p));
  if (i >= 0) plugins.splice(i, 1);
}

/**
 * Loads and registers the plug-ins named in `list` (RTBENCH_RUNTIME_PLUGINS:
 * module paths separated by commas), each a module whose default export is
 * a RuntimePlugin. Throws RuntimePluginError in one line.
 */
export async function loadRuntimePlugins(list: string | undefined = process.env.RTBENCH_RUNTIME_PLUGINS): Promise<void> {
  for (const entry of (list ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const path = isAbsolute(entry) ? entry : resolve(entry);
    const loaded = await importPlugin(path);
    if (!isPlugin(loaded)) throw new RuntimePluginError(`RTBENCH_RUNTIME_PLUGINS: ${path} has no runtime plug-in as its default export (an object with name, accepts, resolve, runJob …)`);
    try {
      registerRuntime(loaded);
    } catch (error) {
      throw new RuntimePluginError(`RTBENCH_RUNTIME_PLUGINS: ${path}: ${(error as Error).message}`);
    }
    noteSource(loaded, path);
  }
}

/**
 * The module's default export. While its top level runs, process.exit()
 * throws instead of ending rtbench: a plug-in must never end the run (with
 * exit code 0, nothing measured and nothing said).
 */
async function importPlugin(path: string): Promise<unknown> {
  const exit = process.exit;
  let exitedWith: string | undefined;
  process.exit = ((code?: number | string | null) => {
    exitedWith = String(code ?? 0);
    throw new RuntimePluginError(`process.exit(${exitedWith})`);
  }) as typeof process.exit;
  try {
    return ((await importUserModule(path)) as { default?: unknown }).default;
  } catch (error) {
    if (exitedWith !== undefined) throw new RuntimePluginError(`RTBENCH_RUNTIME_PLUGINS: ${path} called process.exit(${exitedWith}) while loading; a runtime plug-in must not end rtbench`);
    throw new RuntimePluginError(`RTBENCH_RUNTIME_PLUGINS: could not load ${path}: ${escapedLine((error as Error).message)}`);
  } finally {
    process.exit = exit;
  }
}

function isPlugin(value: unknown): value is RuntimePlugin {
  const p = value as Partial<RuntimePlugin> | undefined;
  return typeof p === 'object' && p !== null && typeof p.name === 'string' && typeof p.accepts === 'function' && typeof p.resolve === 'function' && typeof p.runJob === 'function';
}
export { isResolved, type ResolvedVariant, type UnavailableVariant, type VariantSpec } from './variant.ts';
