/**
 * Astro (server output), as rtbench builds and serves its apps
 * (../framework.ts): each edition built with the app's own `astro build`
 * (build.ts). The Workers side is the Worker the
 * Cloudflare adapter the app declares builds (@astrojs/cloudflare, with the
 * Cloudflare Vite plugin), served with the wrangler config it writes and its
 * client files as static assets. The Node.js side is built through
 * @astrojs/node in standalone mode, the app's own when it declares it, else
 * one rtbench adds from its library cache at the version below (said in a
 * note), and served as its standalone server serves it: the client files
 * first, then the app, under serve-app.mjs. When both sides are built,
 * their server-rendered styles are built for one CSS target (config.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { UsageError } from '@rtbench/core/usage-error';
import type { Edition } from '@rtbench/host/apps';
import type { AstroAdapter } from './build.ts';
import { ASTRO_OUT, astroConfigOf, SERVER_CSS_TARGET } from './config.ts';
import { inPeerRange, installedVersions, peerRangeOf, SIDE, type FrameworkHome, type AppPlan, type BuiltApp } from '../framework.ts';
import { pageNamesMasked } from '../app-pages.ts';
import { describeApp, type FrameworkApp } from '../framework-app.ts';
import { serveAppModule } from '../../places.ts';
import { storePolicy } from '../../store-policy.ts';
import { readWranglerVars } from '../../wrangler-config.ts';

const NODE_ADAPTER = '@astrojs/node';
const CLOUDFLARE_ADAPTER = '@astrojs/cloudflare';
/** The Node.js adapter's mode whose server entry serves the client files and the app, as `node ./dist/server/entry.mjs` does. */
const STANDALONE = { mode: 'standalone' } as const;

/**
 * The @astrojs/node rtbench adds when an app does not declare one, by the
 * app's astro major: a released version and the astro range it supports
 * (its peer range). None for a major not listed, or an astro below it.
 */
const ADDED_NODE_ADAPTER: Readonly<Record<string, { readonly version: string; readonly astro: string }>> = {
  '7': { version: '11.1.6', astro: '^7.2.1' },
};

/** An edition's adapter in the plan (JSON): the config's own, a package named in place of it (`added`: rtbench's, at this version), or why none. */
type AstroAdapterPlan = { readonly own: true } | { readonly name: string; readonly options: Readonly<Record<string, unknown>>; readonly added?: string } | { readonly refused: string };

/** What the plan hands the build: each edition's adapter, the Worker's env for the Node.js side's stand-in of cloudflare:workers, and the one CSS target of both editions' server-rendered styles when both are built. */
interface AstroPlan {
  readonly adapters: Readonly<Record<Edition, AstroAdapterPlan>>;
  readonly vars: Readonly<Record<string, unknown>>;
  readonly cssTarget?: string;
}

/**
 * Which adapter builds each edition. The Node.js side: @astrojs/node in
 * standalone mode, named in place of the config's adapter, the app's own
 * installed one, else the one rtbench adds for the app's astro. The Workers
 * side: the config's own @astrojs/cloudflare, else the one the app declares
 * named in its place; one the app does not declare is not added. An adapter
 * of the app's whose peer range does not take its astro refuses the app in
 * one line; a side no adapter can build is refused alone.
 */
function astroAdapters(app: Pick<FrameworkApp, 'dir' | 'version'>, configText: string, installed: Readonly<Record<string, string>>): Record<Edition, AstroAdapterPlan> {
  const supported = (name: string): void => {
    const range = peerRangeOf(join(app.dir, 'node_modules', name), 'astro');
    if (range !== undefined && !inPeerRange(app.version, range)) throw new UsageError(`${app.dir}: its ${name} supports astro ${range}, not the app's ${app.version}: install a release of ${name} for it`);
  };
  const node = ((): AstroAdapterPlan => {
    if (installed[NODE_ADAPTER]) {
      supported(NODE_ADAPTER);
      return { name: NODE_ADAPTER, options: STANDALONE };
    }
    const added = ADDED_NODE_ADAPTER[String(Number.parseInt(app.version, 10))];
    if (!added || !inPeerRange(app.version, added.astro)) {
      const adds = Object.entries(ADDED_NODE_ADAPTER).map(([, a]) => `${NODE_ADAPTER} ${a.version} for astro ${a.astro}`).join(', ');
      return { refused: `the app declares no ${NODE_ADAPTER} for ${SIDE.node}, and rtbench adds none for astro ${app.version} (it adds ${adds}): declare one that supports it` };
    }
    return { name: NODE_ADAPTER, options: STANDALONE, added: added.version };
  })();
  const workers = ((): AstroAdapterPlan => {
    if (!installed[CLOUDFLARE_ADAPTER]) return { refused: `the app declares no ${CLOUDFLARE_ADAPTER} (or it is not installed): rtbench builds ${SIDE.workers} with the Cloudflare adapter the app declares, as Astro's Cloudflare guide adds it` };
    supported(CLOUDFLARE_ADAPTER);
    if (!installed.wrangler) return { refused: `its wrangler (${CLOUDFLARE_ADAPTER}'s peer) is not installed: install the app's dependencies with its package manager first` };
    return new RegExp(`['"]${CLOUDFLARE_ADAPTER.replace('/', '\\/')}['"]`).test(configText) ? { own: true } : { name: CLOUDFLARE_ADAPTER, options: {} };
  })();
  return { node, workers };
}

/** The files of an app's src/ that can make a page render on request: pages, endpoints and components. */
const SOURCE_FILE = /\.(astro|[cm]?[jt]sx?|mdx?)$/;
/** An output other than 'static' named in the config (a value it computes counts as one). */
const OUTPUT_NOT_STATIC = /\boutput\s*:\s*(?!['"]static['"])/;
const RENDERED_ON_REQUEST = /\bexport\s+const\s+prerender\s*=\s*false\b|\bserver:defer\b/;

/**
 * Whether the app renders anything on request: its config names an output
 * other than 'static', or a file under src/ exports `prerender = false` or
 * holds a server island (`server:defer`). An app made by create-astro does
 * none of these: every page is built ahead of time, the Node.js adapter
 * serves the built files, and the Cloudflare adapter builds static assets
 * with no Worker (astro's build output stays 'static').
 */
function rendersOnRequest(dir: string, configText: string): boolean {
  if (OUTPUT_NOT_STATIC.test(configText)) return true;
  const src = join(dir, 'src');
  if (!existsSync(src)) return false;
  return readdirSync(src, { recursive: true, encoding: 'utf8' }).some((file) => SOURCE_FILE.test(file) && !file.split(/[\\/]/).includes('node_modules') && RENDERED_ON_REQUEST.test(readFileSync(join(src, file), 'utf8')));
}

/** Why an app that renders nothing on request is what it is, in words for its lines. */
const prerenderedWhy = (config: string): string => `every page is prerendered (${config} sets no output: 'server', and no file under src/ exports prerender = false or holds a server island, as create-astro's templates are made)`;

/**
 * Astro's build names, masked when its two editions' pages are compared: a
 * client file under `/_astro/` carries a content hash (`Counter.BeQA1gps.js`,
 * an island's component and renderer scripts, style sheets, images), and an
 * island's `uid` is a hash of its component's file, its rendered HTML and
 * its props (each edition's build names the file apart; the HTML and the
 * props are on the page and still compared).
 */
export const normalizeAstroPage = pageNamesMasked([
  [/(\/_astro\/[\w.-]*?)\.[\w-]{8}\.(js|mjs|css|svg|png|jpe?g|webp|avif|gif|woff2?)/g, '$1.#.$2'],
  [/(<astro-island\b[^>]*?\suid=")[\w-]+(")/g, '$1#$2'],
]);

const astro: FrameworkHome<AstroPlan> = {
  module: import.meta.filename,
  defaultCompatibility: { date: '2025-09-01', flags: ['nodejs_compat'] },
  plan(path, app): AppPlan<AstroPlan> {
    const config = astroConfigOf(app.dir);
    if (!config) throw new UsageError(`${path} is ${describeApp(app)}; it has no astro.config.mjs (or .js, .ts), where an Astro app names its adapter`);
    const versions = installedVersions(app.dir, ['astro', 'vite', NODE_ADAPTER, CLOUDFLARE_ADAPTER, '@cloudflare/vite-plugin', 'wrangler']);
    const configText = readFileSync(join(app.dir, config), 'utf8');
    const prerendered = !rendersOnRequest(app.dir, configText);
    const adapters = astroAdapters(app, configText, versions);
    if (prerendered && !('refused' in adapters.workers)) {
      adapters.workers = { refused: `${prerenderedWhy(config)}: ${CLOUDFLARE_ADAPTER} then builds the pages as static assets, with no Worker to serve them; set output: 'server' in ${config}, or export const prerender = false from the pages to render on request` };
    }
    const refused = Object.fromEntries((['node', 'workers'] as const).flatMap((e) => { const a = adapters[e]; return 'refused' in a ? [[e, a.refused]] : []; }));
    const node = adapters.node;
    const both = !('refused' in node) && !('refused' in adapters.workers);
    const notes = [
      ...('name' in node
        ? [node.added
            ? `the app declares no ${NODE_ADAPTER}: rtbench adds ${NODE_ADAPTER} ${node.added} from its cache for ${SIDE.node}, in standalone mode, named in place of ${config}'s adapter; its handler serves the client files first, then the app, as its standalone server does`
            : `${SIDE.node} is built with the app's own ${NODE_ADAPTER} ${versions[NODE_ADAPTER]} in standalone mode, named in place of ${config}'s adapter; its handler serves the client files first, then the app, as its standalone server does`]
        : []),
      ...('refused' in adapters.workers ? [] : [`${SIDE.workers} is the Worker the app's ${CLOUDFLARE_ADAPTER} ${versions[CLOUDFLARE_ADAPTER]} builds${'own' in adapters.workers ? '' : `, named in place of ${config}'s adapter`}, served with the wrangler config it writes (${join(ASTRO_OUT.server, 'wrangler.json')})`]),
      ...(both ? [`both sides' server-rendered styles are built for one CSS target, ${SERVER_CSS_TARGET} (the Cloudflare Vite plugin's for the Worker; astro builds the Node.js side's server for esnext, which would leave out the vendor prefixes, such as -webkit-backdrop-filter, that the Worker's page carries)`] : []),
      ...(prerendered && !('refused' in node) ? [`${prerenderedWhy(config)}: ${SIDE.node} serves the built pages as files, rendering none per request; set output: 'server' in ${config} to measure rendering`] : []),
      ...(app.wrangler && !('refused' in node) ? [`on the Node.js side, cloudflare:workers is rtbench's stand-in: its env is ${basename(app.wrangler)}'s vars, as the Worker's`] : []),
    ];
    return {
      detail: { adapters, vars: app.wrangler ? readWranglerVars(app.wrangler) : {}, ...(both ? { cssTarget: SERVER_CSS_TARGET } : {}) },
      refused,
      versions: { ...versions, ...('added' in node && node.added ? { [NODE_ADAPTER]: node.added } : {}) },
      notes,
    };
  },
  async build(plan, { dir, root, node, say, editions }): Promise<BuiltApp> {
    // Its build and the library store load when a run first builds the app: finding and planning one loads neither.
    const [{ buildAstro }, { LibraryStore }] = await Promise.all([import('./build.ts'), import('@rtbench/host/installs')]);
    const adapters: Partial<Record<Edition, AstroAdapter>> = {};
    for (const edition of ['node', 'workers'] as const) {
      const a = plan.detail.adapters[edition];
      if ('refused' in a) continue;
      // An edition not built now keeps its adapter in the build's key, not installed.
      if ('own' in a || !a.added || !editions.includes(edition)) adapters[edition] = 'own' in a ? a : { name: a.name, options: a.options };
      else adapters[edition] = { name: a.name, options: a.options, addedFrom: (await new LibraryStore(storePolicy('libraries')).get(a.name, a.added)).root };
    }
    const build = buildAstro({ appDir: dir, node, root, versions: plan.versions, adapters, only: editions, vars: plan.detail.vars, ...(plan.detail.cssTarget === undefined ? {} : { cssTarget: plan.detail.cssTarget }), say });
    if (build.leftOut.length) say(`left out of the served Worker: what ${CLOUDFLARE_ADAPTER} adds to its wrangler config of its own (${build.leftOut.join(', ')}: its sessions' KV namespace, its Images binding), which the app does not declare; a page that uses Astro.session or /_image fails on the Workers runtime`);
    const { node: nodeDir, workers: workersDir } = build.dirs;
    return {
      key: build.key,
      ...(workersDir ? { workers: { config: join(workersDir, ASTRO_OUT.server, 'wrangler.jsonc') } } : {}),
      // @astrojs/node's standalone handler, bundled with the app's server (build.ts), mounted by serve-app.mjs; on deno it reads the edition's folder (the bundle and the client files).
      ...(nodeDir
        ? { node: { source: `const { handler } = await import(${JSON.stringify(join(nodeDir, ASTRO_OUT.bundle))});\nconst { serveNodeHandler } = await import(${JSON.stringify(serveAppModule)});\nserveNodeHandler(handler);\n`, reads: [nodeDir] } }
        : {}),
    };
  },
  normalize: normalizeAstroPage,
};

export default astro;
