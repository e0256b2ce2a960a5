/**
 * An Astro app's plan, on the host and without a build: the Node.js side
 * through the app's own @astrojs/node or one rtbench adds (said, with its
 * version), the Workers side only through the Cloudflare adapter the app
 * declares (else refused alone), an adapter that does not support the app's
 * astro refused in one line; the config rtbench writes in place of the
 * app's (its adapter named, cloudflare:workers stood in for); the plugin's
 * wrangler config served without the adapter's own bindings; and the two
 * editions' pages compared with their builds' names masked. An app as
 * create-astro makes it today (fixtures/templates/astro-minimal): every page
 * prerendered, said, and the Workers side refused with the way to render on
 * request until a page does.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RequestSuite } from '@rtbench/core';
import { firstDifferingLine } from '@rtbench/core/same-work';
import { servedPluginConfig } from '@rtbench/host/apps';
import { editionConfig } from '../src/apps/astro/build.ts';
import { normalizeAstroPage } from '../src/apps/astro/astro.ts';
import { locateSuite } from '../src/index.ts';
import { templateApp } from './template-app.ts';

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-astro-plan-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const version = (v: string, peers?: Record<string, string>): string => JSON.stringify({ version: v, ...(peers ? { peerDependencies: peers } : {}) });
/** As test/fixtures/apps/astro has it: the Cloudflare adapter declared and named in the config, no Node.js adapter. */
const CLOUDFLARE_APP = {
  'package.json': JSON.stringify({ name: 'shop', dependencies: { astro: '7.3.5', '@astrojs/cloudflare': '14.3.3' }, devDependencies: { wrangler: '4.151.0' } }),
  'node_modules/astro/package.json': version('7.3.5'),
  'node_modules/@astrojs/cloudflare/package.json': version('14.3.3', { astro: '^7.2.0', wrangler: '^4.125.0' }),
  'node_modules/wrangler/package.json': version('4.151.0'),
  'astro.config.mjs': "import cloudflare from '@astrojs/cloudflare';\nexport default { output: 'server', adapter: cloudflare() };\n",
  'wrangler.jsonc': '{ "name": "shop", "main": "@astrojs/cloudflare/entrypoints/server", "compatibility_date": "2025-09-01", "vars": { "GREETING": "hi" } }',
};

/** Said when both sides are built, whose server-rendered styles rtbench builds for one CSS target. */
const CSS_NOTE = "both sides' server-rendered styles are built for one CSS target, es2024 (the Cloudflare Vite plugin's for the Worker; astro builds the Node.js side's server for esnext, which would leave out the vendor prefixes, such as -webkit-backdrop-filter, that the Worker's page carries)";

const suiteOf = async (dir: string): Promise<{ notes: readonly string[]; suite: RequestSuite }> => {
  const location = locateSuite(dir);
  return { notes: location.notes ?? [], suite: ((await import(location.entry)) as { default: RequestSuite }).default };
};

describe("an Astro app's plan", () => {
  it('is recognised and said in one line; no @astrojs/node: rtbench adds it in standalone mode and says so', async () => {
    const { notes, suite } = await suiteOf(folder(CLOUDFLARE_APP));
    expect(notes[0]).toMatch(/ is an Astro app \(astro 7\.3\.5, astro\.config\.mjs, wrangler\.jsonc\): built with astro build, once per adapter, served by @astrojs\/node's standalone server, whose adapter \(@astrojs\/node\) it does not declare on the runtimes with a Node\.js server and by @astrojs\/cloudflare's Worker \(@astrojs\/cloudflare\) on the Workers runtime$/);
    expect(notes).toContain("the app declares no @astrojs/node: rtbench adds @astrojs/node 11.1.6 from its cache for the Node.js side, in standalone mode, named in place of astro.config.mjs's adapter; its handler serves the client files first, then the app, as its standalone server does");
    expect(notes).toContain("the Workers side is the Worker the app's @astrojs/cloudflare 14.3.3 builds, served with the wrangler config it writes (dist/server/wrangler.json)");
    expect(notes).toContain("on the Node.js side, cloudflare:workers is rtbench's stand-in: its env is wrangler.jsonc's vars, as the Worker's");
    expect(notes).toContain(CSS_NOTE);
    expect(notes.join('\n')).not.toContain('cannot serve it');
    expect(suite.declarations[0]!.handlerUnsupported?.()).toBeUndefined();
  });

  it("the app's own @astrojs/node builds the Node.js side; a config naming it gets the Cloudflare adapter named in its place", () => {
    const own = { ...CLOUDFLARE_APP, 'node_modules/@astrojs/node/package.json': version('11.1.2', { astro: '^7.2.1' }) };
    expect(locateSuite(folder(own)).notes).toContain("the Node.js side is built with the app's own @astrojs/node 11.1.2 in standalone mode, named in place of astro.config.mjs's adapter; its handler serves the client files first, then the app, as its standalone server does");
    const nodeConfig = { ...own, 'astro.config.mjs': "import node from '@astrojs/node';\nexport default { output: 'server', adapter: node({ mode: 'middleware' }) };\n" };
    expect(locateSuite(folder(nodeConfig)).notes).toContain("the Workers side is the Worker the app's @astrojs/cloudflare 14.3.3 builds, named in place of astro.config.mjs's adapter, served with the wrangler config it writes (dist/server/wrangler.json)");
  });

  it('no Cloudflare adapter declared: the Workers runtime says why, the Node.js side still runs', async () => {
    const { 'node_modules/@astrojs/cloudflare/package.json': _adapter, ...rest } = CLOUDFLARE_APP;
    const { notes, suite } = await suiteOf(folder({ ...rest, 'package.json': JSON.stringify({ name: 'shop', dependencies: { astro: '7.3.5' } }) }));
    const why = "the app declares no @astrojs/cloudflare (or it is not installed): rtbench builds the Workers side with the Cloudflare adapter the app declares, as Astro's Cloudflare guide adds it";
    expect(notes).toContain(`the Workers runtime cannot serve it (${why}); the runtimes with a Node.js server still run it`);
    // One side built: its styles keep their own target.
    expect(notes).not.toContain(CSS_NOTE);
    expect(suite.declarations[0]!.handlerUnsupported?.()).toBe(why);
  });

  it('an astro rtbench adds no @astrojs/node for: the Node.js side is refused alone; with no Cloudflare adapter either, the app in one line', () => {
    const older = { ...CLOUDFLARE_APP, 'node_modules/astro/package.json': version('7.1.0'), 'node_modules/@astrojs/cloudflare/package.json': version('14.0.0', { astro: '^7.0.0' }) };
    const why = 'the app declares no @astrojs/node for the Node.js side, and rtbench adds none for astro 7.1.0 (it adds @astrojs/node 11.1.6 for astro ^7.2.1): declare one that supports it';
    expect(locateSuite(folder(older)).notes).toContain(`the runtimes with a Node.js server cannot serve it (${why}); the Workers runtime still run it`);
    const { 'node_modules/@astrojs/cloudflare/package.json': _adapter, ...neither } = older;
    expect(() => locateSuite(folder(neither))).toThrow(/ is an Astro app \(astro 7\.1\.0, astro\.config\.mjs, wrangler\.jsonc\): .*; the app declares no @astrojs\/node .*; the app declares no @astrojs\/cloudflare .*$/);
  });

  it("refused in one line before any build: an adapter that does not support the app's astro, no astro.config", () => {
    expect(() => locateSuite(folder({ ...CLOUDFLARE_APP, 'node_modules/@astrojs/cloudflare/package.json': version('12.6.0', { astro: '^5.7.0' }) }))).toThrow(/: its @astrojs\/cloudflare supports astro \^5\.7\.0, not the app's 7\.3\.5: install a release of @astrojs\/cloudflare for it$/);
    const { 'astro.config.mjs': _config, ...unconfigured } = CLOUDFLARE_APP;
    expect(() => locateSuite(folder(unconfigured))).toThrow(/ is an Astro app \(astro 7\.3\.5, wrangler\.jsonc\): .*; it has no astro\.config\.mjs \(or \.js, \.ts\), where an Astro app names its adapter$/);
  });
});

describe('an app as create-astro makes it', () => {
  const prerendered = "every page is prerendered (astro.config.mjs sets no output: 'server', and no file under src/ exports prerender = false or holds a server island, as create-astro's templates are made)";

  it('is recognised as made: every page prerendered, the Node.js side serving the built files (said), the Workers side without the adapter it does not declare', async () => {
    const { notes, suite } = await suiteOf(templateApp('astro-minimal'));
    expect(notes[0]).toMatch(/ is an Astro app \(astro 7\.3\.5, astro\.config\.mjs\): built with astro build, once per adapter, /);
    expect(notes).toContain(`${prerendered}: the Node.js side serves the built pages as files, rendering none per request; set output: 'server' in astro.config.mjs to measure rendering`);
    expect(suite.declarations[0]!.handlerUnsupported?.()).toMatch(/^the app declares no @astrojs\/cloudflare /);
  });

  it("with the Cloudflare adapter added as `astro add cloudflare` adds it: the Workers side is refused with the way on until a page renders on request", async () => {
    const withAdapter = { 'astro.config.mjs': "import { defineConfig } from 'astro/config';\nimport cloudflare from '@astrojs/cloudflare';\nexport default defineConfig({ adapter: cloudflare() });\n" };
    const beside = { '@astrojs/cloudflare': '14.3.3', wrangler: '4.151.0' };
    const why = `${prerendered}: @astrojs/cloudflare then builds the pages as static assets, with no Worker to serve them; set output: 'server' in astro.config.mjs, or export const prerender = false from the pages to render on request`;
    expect((await suiteOf(templateApp('astro-minimal', beside, withAdapter))).suite.declarations[0]!.handlerUnsupported?.()).toBe(why);
    const onRequest = { ...withAdapter, 'src/pages/now.astro': '---\nexport const prerender = false;\n---\n<p>now</p>\n' };
    const { notes, suite } = await suiteOf(templateApp('astro-minimal', beside, onRequest));
    expect(suite.declarations[0]!.handlerUnsupported?.()).toBeUndefined();
    expect(notes.join('\n')).not.toContain('every page is prerendered');
  });
});

describe('the config rtbench writes in place of the app\'s', () => {
  it("is the app's, its adapter the named one with its options, cloudflare:workers resolved to the stand-in first", async () => {
    const dir = folder({
      'astro.config.rtbench-app.mjs': "export default { output: 'server', site: 'https://x.example', adapter: 'cloudflare', vite: { base: '/x/', plugins: [{ name: 'app' }] } };\n",
      'node_modules/@astrojs/node/package.json': JSON.stringify({ name: '@astrojs/node', type: 'module', exports: { '.': './index.js' } }),
      'node_modules/@astrojs/node/index.js': 'export default (options) => ({ name: "@astrojs/node", options });\n',
    });
    writeFileSync(join(dir, 'astro.config.mjs'), editionConfig('astro.config.rtbench-app.mjs', { adapter: { name: '@astrojs/node', options: { mode: 'standalone' } }, standIn: 'export const env = {"GREETING":"hi"};' }));
    type Plugin = { name: string; resolveId?: (s: string) => string | undefined; load?: (s: string) => string | undefined };
    const config = ((await import(pathToFileURL(join(dir, 'astro.config.mjs')).href)) as { default: { output: string; site: string; adapter: unknown; vite: { base: string; plugins: Plugin[] } } }).default;
    expect(config.output).toBe('server');
    expect(config.site).toBe('https://x.example');
    expect(config.adapter).toEqual({ name: '@astrojs/node', options: { mode: 'standalone' } });
    expect(config.vite.base).toBe('/x/');
    expect(config.vite.plugins.map((p) => p.name)).toEqual(['rtbench-cloudflare-workers', 'app']);
    const workers = config.vite.plugins[0]!;
    expect(workers.resolveId!('preact')).toBeUndefined();
    expect(workers.load!(workers.resolveId!('cloudflare:workers')!)).toBe('export const env = {"GREETING":"hi"};');
    // The Workers side's: its adapter alone, the app's plugins as they are.
    expect(editionConfig('astro.config.rtbench-app.mjs', { adapter: { name: '@astrojs/cloudflare', options: {} } })).not.toContain('cloudflare:workers');
  });
});

describe("both editions' configs with one CSS target", () => {
  type Environment = { consumer?: 'client' | 'server'; build?: { cssTarget?: string | string[]; target?: string } };
  type CssPlugin = { name: string; enforce: string; configEnvironment: (name: string, options: Environment) => void };
  const load = async (edition: Parameters<typeof editionConfig>[1], files: Record<string, string> = {}): Promise<{ adapter: unknown; plugins: CssPlugin[] }> => {
    const dir = folder({ ...files, 'astro.config.rtbench-app.mjs': "export default { output: 'server', adapter: 'the app\\'s own', vite: { plugins: [{ name: 'app' }] } };\n" });
    writeFileSync(join(dir, 'astro.config.mjs'), editionConfig('astro.config.rtbench-app.mjs', edition));
    const config = ((await import(pathToFileURL(join(dir, 'astro.config.mjs')).href)) as { default: { adapter: unknown; vite: { plugins: CssPlugin[] } } }).default;
    return { adapter: config.adapter, plugins: config.vite.plugins };
  };

  it("sets the target of every server environment, over the one a plugin set before it, and leaves the client's", async () => {
    const { adapter, plugins } = await load({ cssTarget: 'es2024' });
    // The edition whose adapter the app's config names keeps it.
    expect(adapter).toBe("the app's own");
    expect(plugins.map((p) => p.name)).toEqual(['rtbench-css-target', 'app']);
    const css = plugins[0]!;
    // After the Cloudflare Vite plugin's hooks, whose Worker environments' target it replaces.
    expect(css.enforce).toBe('post');
    const ssr: Environment = {};
    const worker: Environment = { build: { cssTarget: ['es2024', 'safari15'], target: 'es2026' } };
    const prerender: Environment = { consumer: 'server' };
    const client: Environment = { build: { cssTarget: 'chrome100' } };
    css.configEnvironment('ssr', ssr);
    css.configEnvironment('worker', worker);
    css.configEnvironment('prerender', prerender);
    css.configEnvironment('client', client);
    expect([ssr.build?.cssTarget, worker.build, prerender.build?.cssTarget, client.build?.cssTarget]).toEqual(['es2024', { cssTarget: 'es2024', target: 'es2026' }, 'es2024', 'chrome100']);
    // An environment named otherwise that serves the browser is the client's kind.
    const browser: Environment = { consumer: 'client' };
    css.configEnvironment('widget', browser);
    expect(browser.build).toBeUndefined();
  });

  it('beside the adapter and the stand-in the Node.js side gets', async () => {
    const node = {
      'node_modules/@astrojs/node/package.json': JSON.stringify({ name: '@astrojs/node', type: 'module', exports: { '.': './index.js' } }),
      'node_modules/@astrojs/node/index.js': 'export default (options) => ({ name: "@astrojs/node", options });\n',
    };
    const { adapter, plugins } = await load({ adapter: { name: '@astrojs/node', options: { mode: 'standalone' } }, standIn: 'export const env = {};', cssTarget: 'es2024' }, node);
    expect(adapter).toEqual({ name: '@astrojs/node', options: { mode: 'standalone' } });
    expect(plugins.map((p) => p.name)).toEqual(['rtbench-cloudflare-workers', 'rtbench-css-target', 'app']);
  });
});

describe("the Worker's wrangler config as the Cloudflare Vite plugin writes it", () => {
  it('is served without the plugin\'s own settings and empty binding lists, and without the adapter\'s own bindings, which it names', () => {
    const server = folder({
      'wrangler.json': JSON.stringify({
        configPath: '/app/wrangler.jsonc', name: 'shop', main: 'entry.mjs', compatibility_date: '2025-09-01', compatibility_flags: [], no_bundle: true, rules: [{ type: 'ESModule' }],
        assets: { binding: 'ASSETS', directory: '../client' }, vars: {}, r2_buckets: [], durable_objects: { bindings: [] },
        kv_namespaces: [{ binding: 'SESSION' }], images: { binding: 'IMAGES' }, previews: { kv_namespaces: [{ binding: 'SESSION' }] }, d1_databases: [{ binding: 'DB' }],
      }),
    });
    expect(servedPluginConfig(server, new Set(['kv_namespaces', 'images', 'ai']))).toEqual(['kv_namespaces', 'images']);
    const served = JSON.parse(readFileSync(join(server, 'wrangler.jsonc'), 'utf8').replace(/^\/\/.*\n/, '')) as Record<string, unknown>;
    // A binding the app declared stays, for rtbench to refuse naming it.
    expect(Object.keys(served)).toEqual(['name', 'main', 'compatibility_date', 'compatibility_flags', 'assets', 'vars', 'd1_databases']);
  });
});

describe("an Astro page's two editions", () => {
  // GET / of test/fixtures/apps/astro (three of its products) as each edition served it: node through @astrojs/node,
  // the Worker through @astrojs/cloudflare. Each build names its island's scripts apart.
  const page = (edition: string): string => readFileSync(join(import.meta.dirname, 'fixtures', 'astro-pages', `${edition}.html`), 'utf8');
  const normalized = (body: string): string => normalizeAstroPage({ request: { path: '/' }, status: 200, body });

  it("are the same page once the builds' client file hashes and the island's uid are masked", () => {
    const [node, workers] = [page('node'), page('workers')];
    expect(node).not.toBe(workers);
    expect(normalized(node)).toBe(normalized(workers));
    expect(normalized(node)).toContain('<astro-island uid="#" data-preact-island-id="1" component-url="/_astro/Counter.#.js" component-export="default" renderer-url="/_astro/client.#.js"');
  });

  it('a section one edition renders and the other does not still differs, on its line', () => {
    const workers = page('workers').replace('<p data-astro-cid-lcdefpme>Total', '<aside>rendered on the Workers edition only</aside><p data-astro-cid-lcdefpme>Total');
    const differs = firstDifferingLine(normalized(page('node')), normalized(workers))!;
    // Line 2: the page's first line ends inside its scoped style.
    expect(differs.line).toBe(2);
    expect(differs.b).toContain('<aside>rendered on the Workers editi');
  });

  it("another island, another script or other props still differ: only the names are masked", () => {
    const node = normalized(page('node'));
    expect(normalized(page('workers').replace('/_astro/Counter.', '/_astro/Basket.'))).not.toBe(node);
    expect(normalized(page('workers').replace('renderer-url="/_astro/client.', 'renderer-url="/_astro/server.'))).not.toBe(node);
    expect(normalized(page('workers').replace('{&quot;start&quot;:[0,3]', '{&quot;start&quot;:[0,4]'))).not.toBe(node);
  });
});
