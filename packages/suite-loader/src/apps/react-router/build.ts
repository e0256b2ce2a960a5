/**
 * A React Router app (framework mode) built twice with its own toolchain
 * (its installed @react-router/dev and vite: `react-router build`): once as
 * its vite config has it, with the Cloudflare Vite plugin it declares (the
 * Worker and the wrangler config the plugin writes beside it, its client
 * files as static assets), and once with that plugin left out of the
 * config, which gives React Router's own server build for a Node.js server
 * (what react-router-serve serves). Each edition in its own folder of
 * rtbench's cache named by the app's files and versions (@rtbench/host's app-build.ts); a
 * whole build is reused, a failed one is one line quoting its last error.
 */
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cloudflareWorkersStandIn } from '../build-parts.ts';
import { REACT_ROUTER_OUT, viteConfigOf } from './config.ts';
import { AppBuildFailed, buildEditions, bundleNodeServer, copyAppInto, runBuildStep, servedPluginConfig, type AppBuildInput, type Edition, type EditionsBuild } from '@rtbench/host/apps';

export interface ReactRouterBuildInput extends AppBuildInput {
  /** The editions to build. */
  readonly editions: readonly Edition[];
  /** The Worker's env (its wrangler config's vars): what `cloudflare:workers` gives the Node.js edition's modules. */
  readonly vars: Readonly<Record<string, unknown>>;
  /** The module of the Node.js request listener (@mjackson/node-fetch-server's, as @react-router/node has it). */
  readonly fetchServer: string;
}
/** The name the app's own vite config is moved to when rtbench wraps it. */
const APP_CONFIG = 'vite.config.rtbench-app';

/**
 * The wrapper written as vite.config.mjs for the Node.js edition: the app's
 * config (an object, a promise or a function of the build's env) with every
 * plugin the Cloudflare Vite plugin makes (named vite-plugin-cloudflare…)
 * left out, nested plugin arrays and promised plugins included, and
 * `cloudflare:workers` resolved to `standIn`'s text.
 */
export function withoutCloudflarePlugin(appConfig: string, standIn: string): string {
  return [
    `import config from ${JSON.stringify(`./${appConfig}`)};`,
    "const id = '\\0rtbench:cloudflare-workers';",
    `const workers = { name: 'rtbench-cloudflare-workers', enforce: 'pre', resolveId: (s) => (s === 'cloudflare:workers' ? id : undefined), load: (s) => (s === id ? ${JSON.stringify(standIn)} : undefined) };`,
    "const cloudflare = (p) => typeof p?.name === 'string' && p.name.startsWith('vite-plugin-cloudflare');",
    'const flat = async (plugins) => (await Promise.all((plugins ?? []).map(async (p) => { const v = await p; return Array.isArray(v) ? flat(v) : [v]; }))).flat();',
    'export default async (env) => {',
    "  const c = await (typeof config === 'function' ? config(env) : config);",
    '  return { ...c, plugins: [workers, ...(await flat(c.plugins)).filter((p) => !cloudflare(p))] };',
    '};',
    '',
  ].join('\n');
}

/** Files of the app not copied into an edition: its installed packages, its repository, and outputs of earlier builds and type generation. */
const NOT_COPIED = new Set(['node_modules', '.git', 'build', '.react-router', '.wrangler']);

function buildEdition(input: ReactRouterBuildInput, edition: Edition, dir: string, log: string): void {
  copyAppInto(input.appDir, dir, NOT_COPIED);
  if (edition === 'node') {
    const config = viteConfigOf(dir);
    if (config) {
      const moved = `${APP_CONFIG}${config.slice(config.lastIndexOf('.'))}`;
      renameSync(join(dir, config), join(dir, moved));
      writeFileSync(join(dir, 'vite.config.mjs'), withoutCloudflarePlugin(moved, cloudflareWorkersStandIn(input.vars)));
    }
  }
  runBuildStep(`react-router build (${edition === 'node' ? 'its Node.js server build' : 'the Cloudflare Vite plugin'})`, input.node, join(input.appDir, 'node_modules', '@react-router', 'dev', 'bin.js'), ['build'], dir, log);
  const server = join(dir, REACT_ROUTER_OUT.server);
  if (!existsSync(join(server, 'index.js'))) throw new AppBuildFailed(`react-router build wrote no ${join(REACT_ROUTER_OUT.server, 'index.js')} (its output: ${log})`);
  if (edition === 'workers') {
    if (!existsSync(join(server, 'wrangler.json'))) throw new AppBuildFailed(`react-router build wrote no ${join(REACT_ROUTER_OUT.server, 'wrangler.json')}: does the app's vite config use the Cloudflare Vite plugin with its server build as the Worker (cloudflare({ viteEnvironment: { name: 'ssr' } }))?`);
    servedPluginConfig(server);
  } else {
    // The server build, react-router's request handler and the request listener, as @react-router/node makes them.
    const entry = [`export * as build from './${join(REACT_ROUTER_OUT.server, 'index.js')}';`, "export { createRequestHandler } from 'react-router';", `export { createRequestListener } from ${JSON.stringify(input.fetchServer)};`, ''].join('\n');
    bundleNodeServer(dir, entry, join(dir, REACT_ROUTER_OUT.bundle), {}, log);
  }
}

/** The app built into the asked editions (reused when its key's folders hold whole builds, proven). */
export function buildReactRouter(input: ReactRouterBuildInput): EditionsBuild {
  return buildEditions({
    appDir: input.appDir,
    root: input.root,
    // The recipe is in the key too: a build rtbench makes otherwise (another file beside it) is not taken from the cache.
    versions: { ...input.versions, 'rtbench:react-router-build': '2' },
    editions: input.editions,
    what: `react-router build with its @react-router/dev ${input.versions['@react-router/dev'] ?? '?'} and vite ${input.versions.vite ?? '?'}, once per edition`,
    ...(input.say ? { say: input.say } : {}),
    buildOne: (edition, dir, log) => buildEdition(input, edition, dir, log),
  });
}
