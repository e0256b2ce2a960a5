/**
 * Next.js, as rtbench builds and serves its apps (../framework.ts): one
 * build with the app's own installed next and the OpenNext Cloudflare
 * adapter it declares (build.ts), served by Next.js's own
 * server on the runtimes with a Node.js server (serve-next.mjs) and by
 * OpenNext's Worker, as wrangler bundles it, with the app's wrangler config
 * and static assets on the Workers runtime. rtbench adds the adapter from
 * its library cache at the version below when the app declares none, and
 * says so; an app that loads next/font/google builds with its fonts stood
 * in for (no network). Pages are compared by next-pages.ts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '@rtbench/core/usage-error';
import { usesGoogleFonts } from './config.ts';
import { inPeerRange, installedVersions, peerRangeOf, SIDE, type FrameworkHome, type AppPlan, type BuiltApp } from '../framework.ts';
import { describeApp, type FrameworkApp } from '../framework-app.ts';
import { nextServerSource } from './server.ts';
import { normalizeNextPage } from './pages.ts';
import { serveNextModule } from '../../places.ts';
import { storePolicy } from '../../store-policy.ts';
import { wranglerConfigAt } from '../../wrangler-config.ts';

/** The Cache API as a workers.dev address has it (stores nothing), imported before OpenNext's Worker. */
const WORKERS_CACHE = join(import.meta.dirname, '..', '..', 'workers-cache.ts');
const ADAPTER = '@opennextjs/cloudflare';

/**
 * The adapter rtbench adds when an app declares none: a released
 * @opennextjs/cloudflare, the Next.js versions it builds (its peer range),
 * and wrangler, its peer, which bundles its Worker.
 */
export const ADDED_OPENNEXT = { version: '1.20.17', next: '>=15.5.29 <16 || >=16.4.5', peers: { wrangler: '4.164.0' } } as const;

/** The compatibility OpenNext's Worker is served with when the app has no wrangler config: what the adapter's own template asks. */
const DEFAULT_COMPATIBILITY = { date: '2025-09-01', flags: ['nodejs_compat', 'global_fetch_strictly_public'] } as const;
const DEFAULT_WRANGLER = `${JSON.stringify({ name: 'app', main: '.open-next/worker.js', compatibility_date: DEFAULT_COMPATIBILITY.date, compatibility_flags: DEFAULT_COMPATIBILITY.flags, assets: { binding: 'ASSETS', directory: '.open-next/assets' } }, null, 2)}\n`;

/** How the Workers side gets its adapter: the app's own installed one, the one rtbench adds, or why none can build it. */
export type NextAdapterPlan = { readonly declared: string } | { readonly added: typeof ADDED_OPENNEXT } | { readonly refused: string };

/** What the build is handed beside the versions: the adapter, and whether the app's Google fonts are stood in for. */
interface NextDetail {
  readonly adapter: NextAdapterPlan;
  readonly googleFonts: boolean;
}

/**
 * The adapter that builds the Workers side: the app's own when it declares
 * and installed it (with wrangler, its peer), else the one rtbench adds. An
 * adapter of the app's whose range of next does not take the app's version,
 * or one without its wrangler, refuses the app in one line; the added one
 * refuses the Workers side alone when it does not build the app's next (the
 * Node.js side still runs).
 */
export function nextAdapter(app: Pick<FrameworkApp, 'dir' | 'version' | 'workersAdapters'>): NextAdapterPlan {
  const own = join(app.dir, 'node_modules', ADAPTER);
  if (app.workersAdapters.includes(ADAPTER) && existsSync(join(own, 'package.json'))) {
    const range = peerRangeOf(own, 'next');
    if (range !== undefined && !inPeerRange(app.version, range)) throw new UsageError(`${app.dir}: its ${ADAPTER} supports next ${range}, not the app's ${app.version}: install a release of ${ADAPTER} for it`);
    if (!existsSync(join(app.dir, 'node_modules', 'wrangler', 'package.json'))) throw new UsageError(`${app.dir}: its ${ADAPTER} needs wrangler (its peer), which is not installed: install the app's dependencies with its package manager first`);
    return { declared: ADAPTER };
  }
  if (!inPeerRange(app.version, ADDED_OPENNEXT.next)) return { refused: `the app declares no ${ADAPTER} for ${SIDE.workers}, and the one rtbench adds (${ADDED_OPENNEXT.version}) builds next ${ADDED_OPENNEXT.next}, not the app's ${app.version}: declare a release of ${ADAPTER} that supports it` };
  return { added: ADDED_OPENNEXT };
}

const next: FrameworkHome<NextDetail> = {
  module: import.meta.filename,
  defaultCompatibility: DEFAULT_COMPATIBILITY,
  plan(path, app): AppPlan<NextDetail> {
    if (!existsSync(join(app.dir, 'node_modules', 'next', 'dist', 'bin', 'next'))) throw new UsageError(`${path} is ${describeApp(app)}; its next is not installed whole (no node_modules/next/dist/bin/next): install its dependencies with its package manager first`);
    const adapter = nextAdapter(app);
    const googleFonts = usesGoogleFonts(app.dir);
    const versions: Record<string, string> = installedVersions(app.dir, ['next', 'react', 'react-dom', ADAPTER, 'wrangler']);
    if ('added' in adapter) Object.assign(versions, { [ADAPTER]: adapter.added.version, ...adapter.added.peers });
    // The stand-in is part of what the build is made with.
    if (googleFonts) versions['next/font/google'] = 'rtbench-stand-in';
    return {
      detail: { adapter, googleFonts },
      refused: 'refused' in adapter ? { workers: adapter.refused } : {},
      versions,
      notes: [
        ...('added' in adapter ? [`the app declares no ${ADAPTER}: rtbench adds ${ADAPTER} ${adapter.added.version} (with wrangler ${adapter.added.peers.wrangler}) from its cache for ${SIDE.workers}`] : []),
        ...('declared' in adapter ? [`${SIDE.workers} is built with the app's own ${ADAPTER} ${versions[ADAPTER] ?? ''} and wrangler ${versions.wrangler ?? ''}, on the same next build as ${SIDE.node}`] : []),
        "each runtime's page is compared with Next.js's inline Flight payload's chunks joined and the build's id masked",
        ...(googleFonts
          ? ["the app loads fonts with next/font/google, which its build would fetch from Google Fonts: rtbench's builds reach no network, so each font's stylesheet is stood in for by @font-face rules of the same families and weights naming placeholder files (the page keeps its class names, variables and preload links; the files served are not the font)"]
          : []),
      ],
    };
  },
  async build(plan, { dir, root, node, say, editions }): Promise<BuiltApp> {
    const { adapter, googleFonts } = plan.detail;
    // The Workers side when a runtime of the run serves it (OpenNext's adapter and wrangler's bundle run only then).
    const workers = !('refused' in adapter) && editions.includes('workers');
    // Its build and the library store load when a run first builds the app: finding and planning one loads neither.
    const [{ buildNextApp }, { LibraryStore }] = await Promise.all([import('./build.ts'), import('@rtbench/host/installs')]);
    const adapterModules =
      'added' in adapter && workers ? join((await new LibraryStore(storePolicy('libraries')).getSet('app-opennextjs-cloudflare', { [ADAPTER]: adapter.added.version, ...adapter.added.peers })).root, 'node_modules') : undefined;
    const build = buildNextApp({
      appDir: dir,
      modules: join(dir, 'node_modules'),
      ...(adapterModules ? { adapterModules } : {}),
      node,
      root,
      versions: plan.versions,
      server: nextServerSource,
      googleFonts,
      workers,
      defaultWrangler: DEFAULT_WRANGLER,
      say,
    });
    return {
      key: build.key,
      ...(build.workers ? { workers: { config: wranglerConfigAt(build.dir)!, main: build.worker, preludes: [WORKERS_CACHE] } } : {}),
      // Next.js's own server for the build; on deno it reads the build (its own node_modules tree within) and serve-next.mjs, and the CPU count.
      node: { source: nextServerSource(build.dir, join(build.dir, 'node_modules', 'next')), reads: [build.dir, serveNextModule], sys: ['cpus'] },
    };
  },
  normalize: normalizeNextPage,
};

export default next;
