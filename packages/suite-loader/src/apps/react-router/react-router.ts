/**
 * React Router in framework mode, as rtbench builds and serves its apps
 * (../framework.ts): each edition built with the app's own
 * `react-router build` (build.ts). The Workers
 * side is the Worker the Cloudflare Vite plugin the app declares builds
 * (React Router's Cloudflare template: its workers/app.ts and
 * wrangler.jsonc), served with the wrangler config the plugin writes and
 * its client files as static assets. The Node.js side is the same app
 * built without that plugin (React Router's own server build), served as
 * react-router-serve serves it: NODE_ENV production, the client files
 * first, then @react-router/node's request listener. That listener is
 * @mjackson/node-fetch-server's around the app's own react-router request
 * handler; rtbench makes it of those two as @react-router/node does, since
 * @react-router/node imports Node.js built-ins by bare name, which deno
 * refuses. The fetch server is the app's own (installed with
 * @react-router/node), else one rtbench adds from its library cache with
 * @react-router/node at the app's react-router version, and says so.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import { UsageError } from '@rtbench/core/usage-error';
import type { Edition } from '@rtbench/host/apps';
import { packageEntry } from '../build-parts.ts';
import { REACT_ROUTER_OUT, viteConfigOf } from './config.ts';
import { installedVersions, requireVite, type FrameworkHome, type AppPlan, type BuiltApp } from '../framework.ts';
import { pageNamesMasked } from '../app-pages.ts';
import { describeApp } from '../framework-app.ts';
import { serveAppModule } from '../../places.ts';
import { storePolicy } from '../../store-policy.ts';
import { readWranglerVars } from '../../wrangler-config.ts';

const CLOUDFLARE_PLUGIN = '@cloudflare/vite-plugin';
const NODE_LISTENER = '@react-router/node';
/** The Node.js request listener @react-router/node makes its own of. */
const FETCH_SERVER = '@mjackson/node-fetch-server';

/** The fetch server beside a @react-router/node in `root`'s node_modules: nested in its folder, else hoisted. */
function fetchServerIn(root: string): string | undefined {
  return [join(root, 'node_modules', NODE_LISTENER, 'node_modules', FETCH_SERVER), join(root, 'node_modules', FETCH_SERVER)].find((dir) => existsSync(join(dir, 'package.json')));
}

/** Where the Node.js side's request listener comes from: the app's node_modules, or rtbench's cache at this version. */
type ListenerPlan = { readonly installed: string } | { readonly added: string };

/** What the plan hands the build: where @react-router/node comes from. */
interface ReactRouterPlan {
  readonly listener: ListenerPlan;
  /** The Worker's env (its wrangler config's vars), which `cloudflare:workers` gives the Node.js side's modules. */
  readonly vars: Readonly<Record<string, unknown>>;
}

/**
 * React Router's build names, masked when its two editions' pages are
 * compared: a client file under /assets/ carries a content hash
 * (`entry.client-Bcg1p26r.js`, `root-w3SWnYCO.css`), the manifest the page
 * names is hashed by the build (`manifest-db91f62c.js`, its `"version"`),
 * and ScrollRestoration's inline script is its function's source text as
 * each build's bundler rewrote it (the Worker's bundle holds React Router,
 * the Node.js server loads it as published): that text is masked, its
 * arguments (the storage key) kept.
 */
export const normalizeReactRouterPage = pageNamesMasked([
  [/(\/assets\/[\w.-]*?)-[\w-]{8}\.(js|css|mjs|svg|png|jpg|webp|woff2?)/g, '$1-#.$2'],
  [/("version":\s*")[0-9a-f]{8}(")/g, '$1#$2'],
  [/(<script[^>]*>)\(\([\w$]+, *[\w$]+\) *=> *\{(?:(?!<\/script>)[\s\S])*?sessionStorage(?:(?!<\/script>)[\s\S])*?\}\)\(/g, '$1(restoreScroll#)('],
]);

const reactRouter: FrameworkHome<ReactRouterPlan> = {
  module: import.meta.filename,
  defaultCompatibility: { date: '2025-09-01', flags: ['nodejs_compat'] },
  plan(path, app): AppPlan<ReactRouterPlan> {
    requireVite(path, app);
    const versions = installedVersions(app.dir, ['@react-router/dev', 'react-router', 'vite', 'react', 'react-dom', CLOUDFLARE_PLUGIN, 'wrangler', NODE_LISTENER]);
    const routerVersion = versions['react-router'];
    if (!routerVersion) throw new UsageError(`${path} is ${describeApp(app)}; its react-router is not installed (no node_modules/react-router): install its dependencies with its package manager first`);
    const config = viteConfigOf(app.dir);
    const pluginUsed = config !== undefined && readFileSync(join(app.dir, config), 'utf8').includes(CLOUDFLARE_PLUGIN);
    const refused: Partial<Record<Edition, string>> = {};
    if (!pluginUsed || !existsSync(join(app.dir, 'node_modules', CLOUDFLARE_PLUGIN, 'package.json'))) {
      refused.workers = `its ${config ?? 'vite config (none)'} builds no Worker (no ${CLOUDFLARE_PLUGIN} in it, or not installed): add the Cloudflare Vite plugin as React Router's Cloudflare template has it`;
    }
    const own = versions[NODE_LISTENER];
    const listener: ListenerPlan = own === routerVersion && fetchServerIn(app.dir) ? { installed: own } : { added: routerVersion };
    const notes = [
      'installed' in listener
        ? `the Node.js side is React Router's server build without the Cloudflare Vite plugin, served as react-router-serve serves it (its client files first, NODE_ENV production) by the app's own ${NODE_LISTENER} ${listener.installed}`
        : `the app has no ${NODE_LISTENER} ${routerVersion}: rtbench adds ${NODE_LISTENER} ${listener.added} from its cache for the Node.js side, which serves React Router's server build without the Cloudflare Vite plugin as react-router-serve does (its client files first, NODE_ENV production)`,
      ...(refused.workers ? [] : [`the Workers side is the Worker the app's ${CLOUDFLARE_PLUGIN} ${versions[CLOUDFLARE_PLUGIN] ?? '?'} builds, served with the wrangler config it writes (${join(REACT_ROUTER_OUT.server, 'wrangler.json')})`]),
    ];
    const vars = app.wrangler ? readWranglerVars(app.wrangler) : {};
    if (app.wrangler) notes.push(`on the Node.js side, cloudflare:workers is rtbench's stand-in: its env is ${basename(app.wrangler)}'s vars, as the Worker's`);
    return { detail: { listener, vars }, refused, versions: { ...versions, ...('added' in listener ? { [NODE_LISTENER]: listener.added } : {}) }, notes };
  },
  async build(plan, { dir, root, node, say, editions: asked }): Promise<BuiltApp> {
    const listener = plan.detail.listener;
    // Its build and the library store load when a run first builds the app: finding and planning one loads neither.
    const [{ buildReactRouter }, { LibraryStore }] = await Promise.all([import('./build.ts'), import('@rtbench/host/installs')]);
    const listenerRoot = 'installed' in listener ? realpathSync(dir) : (await new LibraryStore(storePolicy('libraries')).getSet('app-react-router-node', { [NODE_LISTENER]: listener.added })).root;
    const fetchServer = fetchServerIn(listenerRoot);
    if (!fetchServer) throw new Error(`${NODE_LISTENER} in ${listenerRoot} has no ${FETCH_SERVER} beside it`);
    const editions = (['node', 'workers'] as const).filter((edition) => !plan.refused[edition] && asked.includes(edition));
    const build = buildReactRouter({ appDir: dir, node, root, versions: plan.versions, editions, vars: plan.detail.vars, fetchServer: packageEntry(fetchServer), say });
    const { node: nodeDir, workers: workersDir } = build.dirs;
    const source = (edition: string): string =>
      [
        `const { build, createRequestHandler, createRequestListener } = await import(${JSON.stringify(join(edition, REACT_ROUTER_OUT.bundle))});`,
        `const { serveNodeHandler, staticFilesFirst } = await import(${JSON.stringify(serveAppModule)});`,
        "const handle = createRequestHandler(build, 'production');",
        `serveNodeHandler(staticFilesFirst(${JSON.stringify(join(edition, REACT_ROUTER_OUT.client))}, createRequestListener((request) => handle(request))));`,
        '',
      ].join('\n');
    return {
      key: build.key,
      ...(workersDir ? { workers: { config: join(workersDir, REACT_ROUTER_OUT.server, 'wrangler.jsonc') } } : {}),
      ...(nodeDir ? { node: { source: source(nodeDir), reads: [nodeDir] } } : {}),
    };
  },
  normalize: normalizeReactRouterPage,
};

export default reactRouter;
