/**
 * SvelteKit, as rtbench builds and serves its apps (../framework.ts): each
 * edition built with the app's own vite and @sveltejs/kit (build.ts),
 * through adapter-node for the Node.js side (its
 * `handler`, mounted by serve-app.mjs) and adapter-cloudflare for the
 * Workers side (`_worker.js` and its client files, with the app's wrangler
 * config). The adapter the app's svelte.config imports serves its side as
 * configured; for the other side the app's declared adapter, else the one
 * rtbench adds from its library cache at the version below, and says so.
 */
import { join } from 'node:path';
import { UsageError } from '@rtbench/core/usage-error';
import type { Edition } from '@rtbench/host/apps';
import { packageEntry } from '../build-parts.ts';
import type { EditionAdapter } from './build.ts';
import { svelteConfigOf } from './config.ts';
import { readFileSync, realpathSync } from 'node:fs';
import { inPeerRange, installedVersions, peerRangeOf, requireVite, SIDE, type FrameworkHome, type AppPlan, type BuiltApp } from '../framework.ts';
import { pageNamesMasked } from '../app-pages.ts';
import { describeApp, type FrameworkApp } from '../framework-app.ts';
import { serveAppModule } from '../../places.ts';
import { storePolicy } from '../../store-policy.ts';
import { wranglerConfigAt } from '../../wrangler-config.ts';

/** The Cache API as a workers.dev address has it (stores nothing), imported before the Cloudflare adapter's Worker. */
const WORKERS_CACHE = join(import.meta.dirname, '..', '..', 'workers-cache.ts');

/** Each edition's adapter package. */
const ADAPTERS: Readonly<Record<Edition, string>> = { node: '@sveltejs/adapter-node', workers: '@sveltejs/adapter-cloudflare' };

/** An adapter rtbench adds: its version, and the peers installed beside it. */
interface AddedAdapter {
  readonly version: string;
  readonly peers?: Readonly<Record<string, string>>;
}

/**
 * The adapters rtbench adds when an app does not declare one, by the app's
 * @sveltejs/kit major, at released versions whose peer range takes that
 * major; the Cloudflare adapter reads the app's wrangler config through
 * wrangler, its peer. None for a major no released adapter supports.
 */
export const ADDED_ADAPTERS: Readonly<Record<string, Partial<Record<Edition, AddedAdapter>>>> = {
  '2': { node: { version: '5.5.7' }, workers: { version: '7.2.9', peers: { wrangler: '4.164.0' } } },
  '3': { node: { version: '6.0.1' } },
};

/** The compatibility a Cloudflare adapter's Worker is served with when the app has no wrangler config: its async context and Node.js APIs (nodejs_compat). */
const DEFAULT_COMPATIBILITY = { date: '2025-09-01', flags: ['nodejs_compat'] } as const;
/** Where the Cloudflare adapter writes its Worker and client files. */
const CLOUDFLARE_OUT = '.svelte-kit/cloudflare';
const DEFAULT_WRANGLER = `${JSON.stringify({ name: 'app', main: `${CLOUDFLARE_OUT}/_worker.js`, compatibility_date: DEFAULT_COMPATIBILITY.date, compatibility_flags: DEFAULT_COMPATIBILITY.flags, assets: { binding: 'ASSETS', directory: CLOUDFLARE_OUT } }, null, 2)}\n`;

/** How each edition gets its adapter: the config's own, one the app declares and installed, or one rtbench adds; or why none can build it. */
export type AdapterPlan = Readonly<Record<Edition, { readonly own: true } | { readonly declared: string } | { readonly added: AddedAdapter } | { readonly refused: string }>>;

/**
 * Which adapter builds each edition: the one the app's config imports
 * serves its side as configured; else the one the app declares; else the
 * one rtbench adds for the app's @sveltejs/kit version. An adapter the app
 * declares that does not support that version (its peer range) refuses the
 * app in one line; a side no adapter rtbench adds supports is refused alone
 * (its runtimes say why, the other side's still run).
 */
export function svelteKitAdapters(app: Pick<FrameworkApp, 'dir' | 'version' | 'nodeAdapters' | 'workersAdapters'>, configText: string): AdapterPlan {
  const plan = (edition: Edition, declared: readonly string[]): AdapterPlan[Edition] => {
    const name = ADAPTERS[edition];
    const own = new RegExp(`['"]${name.replace('/', '\\/')}['"]`).test(configText);
    if (own || declared.includes(name)) {
      const range = peerRangeOf(join(app.dir, 'node_modules', name), '@sveltejs/kit');
      if (range !== undefined && !inPeerRange(app.version, range)) throw new UsageError(`${app.dir}: its ${name} supports @sveltejs/kit ${range}, not the app's ${app.version}: install a release of ${name} for it`);
      return own ? { own: true } : { declared: name };
    }
    const added = ADDED_ADAPTERS[String(Number.parseInt(app.version, 10))]?.[edition];
    if (!added) return { refused: `the app declares no ${name} for ${SIDE[edition]}, and rtbench adds none for @sveltejs/kit ${app.version} (it adds ${name} for @sveltejs/kit ${Object.keys(ADDED_ADAPTERS).filter((major) => ADDED_ADAPTERS[major]![edition]).join(', ')}): declare one that supports it` };
    return { added };
  };
  return { node: plan('node', app.nodeAdapters), workers: plan('workers', app.workersAdapters) };
}

/** What is said of the plan: each adapter rtbench adds, at its version, and each it names in place of the config's. */
export function adapterNotes(plan: AdapterPlan, config: string): string[] {
  return (['node', 'workers'] as const).flatMap((edition) => {
    const p = plan[edition];
    const name = ADAPTERS[edition];
    if ('own' in p || 'refused' in p) return [];
    if ('declared' in p) return [`${SIDE[edition]} is built with the app's own ${name}, named in place of ${config}'s adapter`];
    return [`the app declares no ${name}: rtbench adds ${name} ${p.added.version} from its cache for ${SIDE[edition]}, named in place of ${config}'s adapter`];
  });
}

/** Each edition's adapter module: the app's config as it is, the app's installed package, or rtbench's cached one (installed now when missing, proven on every use). */
async function editionAdapters(dir: string, plan: AdapterPlan): Promise<Partial<Record<Edition, EditionAdapter>>> {
  const { LibraryStore } = await import('@rtbench/host/installs');
  const store = new LibraryStore(storePolicy('libraries'));
  const adapters: Partial<Record<Edition, EditionAdapter>> = {};
  for (const edition of ['node', 'workers'] as const) {
    const p = plan[edition];
    const name = ADAPTERS[edition];
    if ('refused' in p) continue;
    if ('own' in p) adapters[edition] = { own: true };
    else if ('declared' in p) adapters[edition] = { module: packageEntry(join(dir, 'node_modules', p.declared)) };
    else {
      const set = await store.getSet(`app-${name.replace('@sveltejs/', '')}`, { [name]: p.added.version, ...p.added.peers });
      adapters[edition] = { module: packageEntry(join(set.root, 'node_modules', name)) };
    }
  }
  return adapters;
}

/**
 * SvelteKit's build names, masked when its two editions' pages are
 * compared: a client chunk or asset under `_app/immutable/` carries a
 * content hash (`start.BxYz12Ab.js`), and the global its inline start-up
 * script sets is named by the build's version (`__sveltekit_1x2y3z`, a
 * timestamp unless the app fixes it), so each build names them apart.
 */
export const normalizeSvelteKitPage = pageNamesMasked([
  [/(_app\/immutable\/[\w/-]*?[\w-]+)\.[\w-]{6,12}\.(js|css|mjs|woff2?|svg|png)/g, '$1.#.$2'],
  [/__sveltekit_[0-9a-z]+/g, '__sveltekit_#'],
]);

const sveltekit: FrameworkHome<AdapterPlan> = {
  module: import.meta.filename,
  defaultCompatibility: DEFAULT_COMPATIBILITY,
  plan(path, app): AppPlan<AdapterPlan> {
    requireVite(path, app);
    const config = svelteConfigOf(app.dir);
    if (!config) throw new UsageError(`${path} is ${describeApp(app)}; it has no svelte.config.js (or .mjs), nor a vite config passing an adapter to sveltekit(), where a SvelteKit app names its adapter`);
    const detail = svelteKitAdapters(app, readFileSync(join(app.dir, config), 'utf8'));
    const added = Object.fromEntries((['node', 'workers'] as const).flatMap((e) => { const p = detail[e]; return 'added' in p ? [[ADAPTERS[e], p.added.version]] : []; }));
    const refused = Object.fromEntries((['node', 'workers'] as const).flatMap((e) => { const p = detail[e]; return 'refused' in p ? [[e, p.refused]] : []; }));
    return {
      detail,
      refused,
      versions: { ...installedVersions(app.dir, ['@sveltejs/kit', 'vite', 'svelte', '@sveltejs/vite-plugin-svelte', ...Object.values(ADAPTERS)]), ...added },
      notes: [...adapterNotes(detail, config), ...(refused.workers ? [] : ["adapter-cloudflare's Worker finds the Cache API empty, as a workers.dev address has it: every request renders its page, as on the Node.js side"])],
    };
  },
  async build(plan, { dir, root, node, say, editions }): Promise<BuiltApp> {
    // Its build loads when a run first builds the app: finding and planning one does not load it.
    const { buildSvelteKit } = await import('./build.ts');
    const adapters = await editionAdapters(dir, plan.detail);
    const build = buildSvelteKit({ appDir: dir, node, root, versions: plan.versions, adapters, only: editions, defaultWrangler: DEFAULT_WRANGLER, say });
    const { node: nodeDir, workers: workersDir } = build.dirs;
    return {
      key: build.key,
      ...(workersDir ? { workers: { config: wranglerConfigAt(workersDir)!, preludes: [WORKERS_CACHE] } } : {}),
      // adapter-node's handler mounted by serve-app.mjs; on deno it reads the edition's folder and the app's packages.
      ...(nodeDir && build.nodeHandler
        ? { node: { source: `import { handler } from ${JSON.stringify(build.nodeHandler)};\nimport { serveNodeHandler } from ${JSON.stringify(serveAppModule)};\nserveNodeHandler(handler);\n`, reads: [nodeDir, realpathSync(join(nodeDir, 'node_modules'))] } }
        : {}),
    };
  },
  normalize: normalizeSvelteKitPage,
};

export default sveltekit;
