/** The registry: the runtimes and engines it lists, and what a registration must be. */
import { describe, expect, it } from 'vitest';
import { RuntimeUnavailableError, type RuntimePlugin } from '@rtbench/runtime-kit';
import { RuntimeDamagedError } from '@rtbench/host/installs';
import { abandonedPluginCalls, askPlugin, noteSource, pendingPluginCall } from '../src/plugin-calls.ts';
import { BUILT_IN_RUNTIMES, DEFAULT_RUNTIMES, displayNameOf, engineNamed, runtimeEngines, loadRuntimePlugins, pluginForSpec, pluginNamed, registerRuntime, runtimePlugins, unregisterRuntime } from '../src/registry.ts';

const BUILT_IN_NAMES = ['node', 'deno', 'bun', 'workerd'];
const fake = (name: string, accepts = (spec: string) => spec === name || spec.startsWith(`${name}@`)): RuntimePlugin => ({ ...pluginNamed('node')!, name, displayName: `Fake ${name}`, accepts });

describe('runtime registry', () => {
  it("lists the built-in plug-ins in order, and runs them all by default", () => {
    expect(BUILT_IN_RUNTIMES.map((p) => p.name)).toEqual(BUILT_IN_NAMES);
    expect(DEFAULT_RUNTIMES).toEqual(BUILT_IN_NAMES);
  });

  it('lists the engines its plug-ins declare, each once, and finds one by the id a run records', () => {
    expect(runtimeEngines().map((e) => e.id)).toEqual(['v8', 'jsc']);
    expect(engineNamed('jsc')?.displayName).toBe('JavaScriptCore');
    expect(engineNamed('v8')).toBe(pluginNamed('workerd')!.engine);
    expect(engineNamed('spidermonkey')).toBeUndefined();
  });

  it("serves a request case's handler with the fetch server each plug-in declares: a module that exports serveFetch", async () => {
    const declared = BUILT_IN_RUNTIMES.flatMap((p) => (p.programs.kind === 'process' && p.programs.fetchServer ? [p.programs.fetchServer] : []));
    expect(declared.length).toBeGreaterThan(0);
    for (const module of declared) expect(typeof ((await import(module)) as { serveFetch?: unknown }).serveFetch).toBe('function');
  });

  it('finds a plug-in by spec and by name, and names it for reports', () => {
    expect(pluginForSpec('node@24')?.name).toBe('node');
    expect(pluginForSpec('deno=/opt/deno')?.name).toBe('deno');
    expect(pluginForSpec('nodex')).toBeUndefined();
    expect(displayNameOf('node')).toBe('Node.js');
    expect(displayNameOf('bun')).toBe('Bun');
    expect(displayNameOf('someday')).toBe('someday');
  });

  it('registers a fifth runtime, refuses a taken or malformed name, and removes it again', () => {
    registerRuntime(fake('quokka'));
    try {
      expect(pluginForSpec('quokka@1')?.displayName).toBe('Fake quokka');
      expect(displayNameOf('quokka')).toBe('Fake quokka');
      expect(() => registerRuntime(fake('quokka'))).toThrow(/"quokka": the name is taken by Fake quokka's plug-in/);
      expect(() => registerRuntime(fake('node'))).toThrow(/"node": the name is taken by Node\.js's plug-in/);
      expect(() => registerRuntime(fake('Bad Name'))).toThrow(/a name is lower-case letters/);
      expect(() => registerRuntime(fake('mute', () => false))).toThrow(/does not accept its own name/);
      expect(() => registerRuntime({ ...fake('oddengine'), engine: { ...pluginNamed('node')!.engine, id: 'Odd Engine' } })).toThrow(/its engine's id \(RuntimePlugin\.engine\.id\) is lower-case letters/);
    } finally {
      unregisterRuntime('quokka');
    }
    expect(runtimePlugins().map((p) => p.name)).toEqual(BUILT_IN_NAMES);
    unregisterRuntime('node');
    expect(pluginNamed('node')).toBeDefined();
  });

  it("lists a registered runtime's engine of its own beside the built-in ones, until it is removed", () => {
    const engine = { ...pluginNamed('node')!.engine, id: 'quokkascript', displayName: 'QuokkaScript' };
    registerRuntime({ ...fake('quokka'), engine });
    try {
      expect(runtimeEngines().map((e) => e.id)).toEqual(['v8', 'jsc', 'quokkascript']);
      expect(engineNamed('quokkascript')).toBe(engine);
    } finally {
      unregisterRuntime('quokka');
    }
    expect(engineNamed('quokkascript')).toBeUndefined();
  });

  it('says in one line why RTBENCH_RUNTIME_PLUGINS could not be loaded', async () => {
    await expect(loadRuntimePlugins('/nonexistent/plugin.ts')).rejects.toThrow(/^RTBENCH_RUNTIME_PLUGINS: could not load \/nonexistent\/plugin\.ts: /);
    await expect(loadRuntimePlugins(new URL('./registry.test.ts', import.meta.url).pathname)).rejects.toThrow(/has no runtime plug-in as its default export/);
  });
});

describe('calls into a plug-in loaded from RTBENCH_RUNTIME_PLUGINS', () => {
  const loaded = (): RuntimePlugin => {
    const p = fake('loaded-one');
    noteSource(p, '/plugins/loaded-one.ts');
    return p;
  };

  it('bounds an answer that does not come while other work keeps the process alive, naming the plug-in and what it was asked', async () => {
    const busy = setInterval(() => {}, 1_000);
    const before = abandonedPluginCalls();
    try {
      const error = await askPlugin(loaded(), 'resolving "loaded-one"', () => new Promise(() => {}), 50).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RuntimeUnavailableError);
      expect((error as Error).message).toBe('runtime plug-in "loaded-one" (/plugins/loaded-one.ts) resolving "loaded-one": no answer within 0.05 s');
      expect(abandonedPluginCalls()).toBe(before + 1);
      expect(pendingPluginCall()).toBeUndefined();
    } finally {
      clearInterval(busy);
    }
  });

  it('turns any other error into one escaped line naming the plug-in; a built-in plug-in’s errors pass as they are', async () => {
    const error = await askPlugin(loaded(), 'resolving "x"', () => Promise.reject(new TypeError('bad \x1b[2J\nsecond line'))).catch((e: unknown) => e);
    expect((error as Error).message).toBe('runtime plug-in "loaded-one" (/plugins/loaded-one.ts) resolving "x" failed: TypeError: bad \\u001b[2J');
    const own = new TypeError('ours');
    await expect(askPlugin(pluginNamed('node')!, 'resolving', () => Promise.reject(own))).rejects.toBe(own);
  });

  it('recognises a RuntimeUnavailableError of another copy of runtime-kit by its mark, and keeps subclasses apart', () => {
    // What another copy's class makes: an Error with the shared mark.
    const copy = Object.assign(new Error('not installed'), { [Symbol.for('rtbench.runtime-unavailable')]: true });
    expect(copy).toBeInstanceOf(RuntimeUnavailableError);
    expect(copy).not.toBeInstanceOf(RuntimeDamagedError);
    expect(new RuntimeDamagedError('x')).toBeInstanceOf(RuntimeUnavailableError);
    expect(new Error('plain')).not.toBeInstanceOf(RuntimeUnavailableError);
  });
});
