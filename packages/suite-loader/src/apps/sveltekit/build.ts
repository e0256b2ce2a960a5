/**
 * A SvelteKit app built twice with its own toolchain (its installed vite and
 * @sveltejs/kit): once through a Node.js adapter (adapter-node: the
 * `handler` its server mounts) and once through the Cloudflare adapter
 * (adapter-cloudflare: `_worker.js` and its client files), each edition in
 * its own folder of rtbench's cache named by the app's files and the
 * versions it is built with (@rtbench/host's app-build.ts). The adapter the app's
 * svelte.config (or, without one, its vite config) names serves its own side
 * as configured; for the other side the config is wrapped so that
 * `kit.adapter` is the other adapter (a vite config: its adapter's import
 * names the other adapter's module instead) (the
 * app's own installed one when it declares it, else the one rtbench added
 * to its cache). A folder with a whole build is reused; a failed build
 * leaves none and is one line quoting the build's last error.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AppBuildFailed, buildEditions, copyAppInto, runBuildStep, type AppBuildInput, type Edition, type EditionsBuild } from '@rtbench/host/apps';
import { svelteConfigOf, VITE_ADAPTER } from './config.ts';

/** An adapter for one edition: the app's config as it is, or a wrapper naming this adapter's module. */
export type EditionAdapter = { readonly own: true } | { readonly module: string };

export interface SvelteKitBuildInput extends AppBuildInput {
  /** Each edition built, by its adapter: an edition not named is not built. */
  readonly adapters: Readonly<Partial<Record<Edition, EditionAdapter>>>;
  /** The editions built now (absent: every one with an adapter); the key still names every adapter, so a later run builds the others beside them. */
  readonly only?: readonly Edition[];
  /** A wrangler config written into the Workers edition when the app has none (the Cloudflare adapter reads it). */
  readonly defaultWrangler?: string;
}

export interface SvelteKitBuild extends EditionsBuild {
  /** adapter-node's handler module, when the Node.js edition is built. */
  readonly nodeHandler?: string;
}

/** What adapter-node writes its server to, in the edition's folder. */
const NODE_OUT = 'build';
/** The name the app's own config is moved to when rtbench wraps it. */
const APP_CONFIG = 'svelte.config.rtbench-app';

/**
 * A vite config that names its adapter in sveltekit()'s options, with the
 * module that adapter is imported from replaced by the named adapter's (its
 * default export, called as the config calls it); undefined when the config
 * does not import the adapter it calls by a default import.
 */
export function viteConfigNaming(text: string, adapterModule: string): string | undefined {
  const binding = VITE_ADAPTER.exec(text)?.[1];
  if (!binding) return undefined;
  const from = new RegExp(`(\\bimport\\s+${binding.replace(/\$/g, '\\$')}\\s+from\\s*)(['"])[^'"]+\\2`);
  if (!from.test(text)) return undefined;
  return text.replace(from, (_, head: string) => `${head}${JSON.stringify(pathToFileURL(adapterModule).href)}`);
}

/** The wrapper written as svelte.config.js: the app's config, with `kit.adapter` the named adapter's default export called with no options. */
export function wrappedConfig(appConfig: string, adapterModule: string): string {
  return [
    `import config from ${JSON.stringify(`./${appConfig}`)};`,
    `import adapter from ${JSON.stringify(pathToFileURL(adapterModule).href)};`,
    'export default { ...config, kit: { ...config.kit, adapter: adapter() } };',
    '',
  ].join('\n');
}

/** Files of the app not copied into an edition: its installed packages, its repository, and outputs of an earlier build. */
const NOT_COPIED = new Set(['node_modules', '.git', '.svelte-kit', NODE_OUT]);

/** One edition built in `dir`: the app's files, its node_modules linked, the config wrapped when the adapter is not the app's own, vite build. */
function buildEdition(input: SvelteKitBuildInput, edition: Edition, dir: string, log: string): void {
  copyAppInto(input.appDir, dir, NOT_COPIED);
  const adapter = input.adapters[edition]!;
  if ('module' in adapter) {
    const config = svelteConfigOf(dir);
    if (!config) throw new AppBuildFailed(`${input.appDir} has no svelte.config.js, nor a vite config passing an adapter to sveltekit(), for rtbench to name its adapter in`);
    if (config.startsWith('vite.config')) {
      const named = viteConfigNaming(readFileSync(join(dir, config), 'utf8'), adapter.module);
      if (named === undefined) throw new AppBuildFailed(`${input.appDir}: ${config} calls an adapter in sveltekit()'s options that it does not import by a default import (import adapter from '…'), which rtbench replaces`);
      writeFileSync(join(dir, config), named);
    } else {
      const moved = `${APP_CONFIG}${config.slice(config.lastIndexOf('.'))}`;
      renameSync(join(dir, config), join(dir, moved));
      writeFileSync(join(dir, 'svelte.config.js'), wrappedConfig(moved, adapter.module));
    }
  }
  if (edition === 'workers' && input.defaultWrangler && !['wrangler.json', 'wrangler.jsonc', 'wrangler.toml'].some((f) => existsSync(join(dir, f)))) writeFileSync(join(dir, 'wrangler.jsonc'), input.defaultWrangler);
  runBuildStep(`vite build (${edition === 'node' ? 'the Node.js adapter' : 'the Cloudflare adapter'})`, input.node, join(input.appDir, 'node_modules', 'vite', 'bin', 'vite.js'), ['build'], dir, log);
  if (edition === 'node' && !existsSync(join(dir, NODE_OUT, 'handler.js'))) throw new AppBuildFailed(`vite build wrote no ${NODE_OUT}/handler.js: is the Node.js adapter adapter-node? (its output: ${log})`);
}

/** The app built into its editions (reused when its key's folders hold whole builds, proven: cachedBuildProblem). */
export function buildSvelteKit(input: SvelteKitBuildInput): SvelteKitBuild {
  const build = buildEditions({
    appDir: input.appDir,
    root: input.root,
    versions: { ...input.versions, ...Object.fromEntries(Object.entries(input.adapters).map(([edition, a]) => [`adapter:${edition}`, 'own' in a ? 'own' : a.module])) },
    editions: (['node', 'workers'] as const).filter((edition) => input.adapters[edition] && (!input.only || input.only.includes(edition))),
    what: `its vite ${input.versions.vite ?? '?'} and @sveltejs/kit ${input.versions['@sveltejs/kit'] ?? '?'}, once per adapter`,
    ...(input.say ? { say: input.say } : {}),
    buildOne: (edition, dir, log) => buildEdition(input, edition, dir, log),
  });
  return { ...build, ...(build.dirs.node ? { nodeHandler: join(build.dirs.node, NODE_OUT, 'handler.js') } : {}) };
}

