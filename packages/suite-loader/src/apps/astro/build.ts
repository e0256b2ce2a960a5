/**
 * An Astro app (server output) built twice with its own toolchain (its
 * installed astro: `astro build`), once per adapter: through the Cloudflare
 * adapter (@astrojs/cloudflare, which builds the Worker with the Cloudflare
 * Vite plugin and writes its wrangler config beside it; its client files
 * are the static assets), and through @astrojs/node in standalone mode,
 * whose server entry exports the handler its standalone server mounts
 * (the client files first, then the app). The adapter the app's
 * astro.config names serves its own side as configured; for the other side
 * the config is wrapped so that `adapter` is that side's. When both sides
 * are built, both configs are wrapped so that their server-rendered styles
 * have one CSS target (astro.ts's note says why). Each edition in
 * its own folder of rtbench's cache named by the app's files and versions
 * (@rtbench/host's app-build.ts); a whole build is reused, a failed one is one line quoting
 * its last error.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AppBuildFailed, buildEditions, bundleNodeServer, copyAppFiles, copyAppInto, runBuildStep, servedPluginConfig, type AppBuildInput, type Edition, type EditionsBuild } from '@rtbench/host/apps';
import { cloudflareWorkersStandIn } from '../build-parts.ts';
import { ASTRO_OUT, astroConfigOf } from './config.ts';

/** An edition's adapter: the app's config as it is, or a package named in place of its adapter with these options. */
export type AstroAdapter =
  | { readonly own: true }
  | {
      readonly name: string;
      readonly options: Readonly<Record<string, unknown>>;
      /** When rtbench added the package: the folder whose node_modules holds it and its dependencies (its cache). */
      readonly addedFrom?: string;
    };

export interface AstroBuildInput extends AppBuildInput {
  /** Each edition built, by its adapter: an edition not named is not built. */
  readonly adapters: Readonly<Partial<Record<Edition, AstroAdapter>>>;
  /** The editions built now (absent: every one with an adapter); the key still names every adapter, so a later run builds the others beside them. */
  readonly only?: readonly Edition[];
  /** The Worker's env (its wrangler config's vars): what `cloudflare:workers` gives the Node.js edition's modules. */
  readonly vars: Readonly<Record<string, unknown>>;
  /** The CSS target both editions' server-rendered styles are built for, when both are planned (astro.ts says why). */
  readonly cssTarget?: string;
}

export interface AstroBuild extends EditionsBuild {
  /** The Worker's settings the Cloudflare adapter adds of its own that rtbench leaves out (wrangler config keys). */
  readonly leftOut: readonly string[];
}
/** The name the app's own config is moved to when rtbench wraps it. */
const APP_CONFIG = 'astro.config.rtbench-app';

/** What rtbench changes in an edition's config: its adapter, its stand-in for `cloudflare:workers`, its server-rendered styles' CSS target. */
export interface EditionConfig {
  /** The package named as `adapter`, called with these options (absent: the config's own adapter). */
  readonly adapter?: { readonly name: string; readonly options: Readonly<Record<string, unknown>> };
  /** The module `cloudflare:workers` resolves to (the Node.js side has no Workers runtime to import it from). */
  readonly standIn?: string;
  /** The CSS target every server environment's styles are built for (each edition's own when absent). */
  readonly cssTarget?: string;
}

/**
 * The wrapper written as astro.config.mjs: the app's config with what
 * `edition` changes. The CSS target is set in each server environment's
 * options as the last of Vite's `configEnvironment` hooks, after the
 * Cloudflare Vite plugin has set its Worker's (a plugin's value would
 * otherwise win over the config's), and in place rather than merged (Vite
 * merges a list of targets into the one before).
 */
export function editionConfig(appConfig: string, edition: EditionConfig): string {
  const plugins = [
    ...(edition.standIn === undefined ? [] : [
      "const id = '\\0rtbench:cloudflare-workers';",
      `const workers = { name: 'rtbench-cloudflare-workers', enforce: 'pre', resolveId: (s) => (s === 'cloudflare:workers' ? id : undefined), load: (s) => (s === id ? ${JSON.stringify(edition.standIn)} : undefined) };`,
    ]),
    ...(edition.cssTarget === undefined ? [] : [
      `const cssTarget = { name: 'rtbench-css-target', enforce: 'post', configEnvironment(name, options) { if ((options.consumer ?? (name === 'client' ? 'client' : 'server')) !== 'server') return; options.build ??= {}; options.build.cssTarget = ${JSON.stringify(edition.cssTarget)}; } };`,
    ]),
  ];
  const added = [...(edition.standIn === undefined ? [] : ['workers']), ...(edition.cssTarget === undefined ? [] : ['cssTarget'])];
  return [
    `import config from ${JSON.stringify(`./${appConfig}`)};`,
    ...(edition.adapter ? [`import adapter from ${JSON.stringify(edition.adapter.name)};`] : []),
    ...plugins,
    `export default { ...config${edition.adapter ? `, adapter: adapter(${JSON.stringify(edition.adapter.options)})` : ''}${added.length ? `, vite: { ...config.vite, plugins: [${added.join(', ')}, ...(config.vite?.plugins ?? [])] }` : ''} };`,
    '',
  ].join('\n');
}

/** The package names in a node_modules folder (scoped ones as `@scope/name`), less its own entries (`.bin`, `.vite`, …). */
function packagesIn(modules: string): string[] {
  return readdirSync(modules)
    .filter((e) => !e.startsWith('.'))
    .flatMap((e) => (e.startsWith('@') ? readdirSync(join(modules, e)).map((s) => `${e}/${s}`) : [e]));
}

/**
 * The edition's node_modules when rtbench added its adapter: a link to
 * each of the app's packages, the adapter copied in (its peer, the app's
 * astro, is then found beside it, not one of the cache's), and each of the
 * adapter's dependencies the app has none of linked from rtbench's cache.
 */
function modulesWithAdded(appDir: string, dir: string, adapter: string, addedFrom: string): void {
  const modules = join(dir, 'node_modules');
  const link = (from: string, name: string): void => {
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(join(from, name), join(modules, name), 'dir');
  };
  mkdirSync(modules);
  const appModules = join(appDir, 'node_modules');
  for (const name of packagesIn(appModules)) if (name !== adapter) link(appModules, name);
  const cached = join(addedFrom, 'node_modules');
  cpSync(join(cached, adapter), join(modules, adapter), { recursive: true, dereference: true });
  for (const name of packagesIn(cached)) if (!existsSync(join(modules, name))) link(cached, name);
}

/** Files of the app not copied into an edition: its installed packages, its repository, and outputs of earlier builds. */
const NOT_COPIED = new Set(['node_modules', '.git', 'dist', '.astro', '.wrangler']);

/** What the Cloudflare adapter adds to the Worker's config of its own, which rtbench does not serve: its sessions' KV namespace and its Images binding (the app's own are refused before any build). */
const ADAPTER_BINDINGS = new Set(['kv_namespaces', 'images']);

function buildEdition(input: AstroBuildInput, edition: Edition, dir: string, log: string): void {
  const adapter = input.adapters[edition]!;
  if ('addedFrom' in adapter && adapter.addedFrom) {
    copyAppFiles(input.appDir, dir, NOT_COPIED);
    modulesWithAdded(input.appDir, dir, adapter.name, adapter.addedFrom);
  } else copyAppInto(input.appDir, dir, NOT_COPIED);
  const named = 'name' in adapter ? adapter : undefined;
  if (named || input.cssTarget !== undefined) {
    const config = astroConfigOf(dir);
    if (!config) throw new AppBuildFailed(`${input.appDir} has no astro.config.mjs for rtbench to name its adapter in`);
    const moved = `${APP_CONFIG}${config.slice(config.lastIndexOf('.'))}`;
    renameSync(join(dir, config), join(dir, moved));
    writeFileSync(join(dir, 'astro.config.mjs'), editionConfig(moved, {
      ...(named ? { adapter: { name: named.name, options: named.options } } : {}),
      ...(named && edition === 'node' ? { standIn: cloudflareWorkersStandIn(input.vars) } : {}),
      ...(input.cssTarget === undefined ? {} : { cssTarget: input.cssTarget }),
    }));
  }
  runBuildStep(`astro build (${edition === 'node' ? '@astrojs/node, standalone' : '@astrojs/cloudflare'})`, input.node, join(input.appDir, 'node_modules', 'astro', 'bin', 'astro.mjs'), ['build'], dir, log);
  const server = join(dir, ASTRO_OUT.server);
  if (!existsSync(join(server, 'entry.mjs'))) throw new AppBuildFailed(`astro build wrote no ${join(ASTRO_OUT.server, 'entry.mjs')}: does the app render on request (output 'server', or pages with prerender false)? (its output: ${log})`);
  if (edition === 'workers') {
    if (!existsSync(join(server, 'wrangler.json'))) throw new AppBuildFailed(`astro build wrote no ${join(ASTRO_OUT.server, 'wrangler.json')}: is the app's @astrojs/cloudflare one that builds with the Cloudflare Vite plugin (13 or later)? (its output: ${log})`);
    writeFileSync(join(server, LEFT_OUT), `${JSON.stringify(servedPluginConfig(server, ADAPTER_BINDINGS))}\n`);
  } else {
    // The handler @astrojs/node's standalone server mounts, the server not started (it would listen on its own port).
    bundleNodeServer(dir, `export { handler } from './${join(ASTRO_OUT.server, 'entry.mjs')}';\n`, join(dir, ASTRO_OUT.bundle), { 'process.env.ASTRO_NODE_AUTOSTART': '"disabled"' }, log);
  }
}

/** Where the Workers edition records the settings it left out, so that a cached build says them too. */
const LEFT_OUT = 'rtbench-left-out.json';

/** The app built into the asked editions (reused when its key's folders hold whole builds, proven). */
export function buildAstro(input: AstroBuildInput): AstroBuild {
  const build = buildEditions({
    appDir: input.appDir,
    root: input.root,
    // Each edition's adapter and the recipe are in the key too: a build rtbench makes otherwise is not taken from the cache.
    versions: { ...input.versions, ...Object.fromEntries(Object.entries(input.adapters).map(([edition, a]) => [`adapter:${edition}`, 'name' in a ? `${a.name} ${JSON.stringify(a.options)}` : 'own'])), ...(input.cssTarget === undefined ? {} : { 'css-target': input.cssTarget }), 'rtbench:astro-build': '2' },
    editions: (['node', 'workers'] as const).filter((edition) => input.adapters[edition] && (!input.only || input.only.includes(edition))),
    what: `astro build with its astro ${input.versions.astro ?? '?'}, once per adapter`,
    ...(input.say ? { say: input.say } : {}),
    buildOne: (edition, dir, log) => buildEdition(input, edition, dir, log),
  });
  const workers = build.dirs.workers;
  const leftOut = workers ? (JSON.parse(readFileSync(join(workers, ASTRO_OUT.server, LEFT_OUT), 'utf8')) as string[]) : [];
  return { ...build, leftOut };
}
