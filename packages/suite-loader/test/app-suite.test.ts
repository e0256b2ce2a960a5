/**
 * A SvelteKit app's plan, on the host and without a build: which adapter
 * builds each edition (the config's own, one the app declares, one rtbench
 * adds at a stated version), the config wrapper that names it, a package's
 * ESM entry, and the refusals said before any build (a declared binding);
 * and the two editions' pages compared with their builds' names masked;
 * and where the builds are kept.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RequestSuite } from '@rtbench/core';
import { firstDifferingLine } from '@rtbench/core/same-work';
import { packageEntry } from '../src/apps/build-parts.ts';
import { svelteConfigOf } from '../src/apps/sveltekit/config.ts';
import { viteConfigNaming, wrappedConfig } from '../src/apps/sveltekit/build.ts';
import { RESERVED as HOST_RESERVED } from '../../host-timed/src/request/paths.ts';
import { fineThreadClock, RESERVED } from '../src/serve-app.mjs';
import { inPeerRange } from '../src/apps/framework.ts';
import { ADDED_ADAPTERS, adapterNotes, normalizeSvelteKitPage, svelteKitAdapters } from '../src/apps/sveltekit/sveltekit.ts';
import { locateSuite } from '../src/index.ts';
import { cacheDir } from '../src/places.ts';
import { assetsNote, readAssetsTable } from '../src/static-assets.ts';
import { appBuildCache } from '../src/store-policy.ts';

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-app-plan-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const CLOUDFLARE_CONFIG = "import adapter from '@sveltejs/adapter-cloudflare';\nexport default { kit: { adapter: adapter() } };\n";

describe("the Node.js side's server", () => {
  it("offers the thread clock only where it counts finer than a millisecond (not deno's 10 ms ticks)", () => {
    const clock = (step: number) => {
      let t = 0;
      return () => ({ user: (t += step), system: 0 });
    };
    const fine = clock(3);
    expect(fineThreadClock(fine)).toBe(fine);
    expect(fineThreadClock(clock(10_000))).toBeUndefined();
    // A clock that never moves within its 50 ms (a stub) is none either.
    let ms = 0;
    expect(fineThreadClock(() => ({ user: 5, system: 5 }), () => (ms += 10))).toBeUndefined();
    expect(fineThreadClock(undefined)).toBeUndefined();
  });
});

describe("a SvelteKit app's adapters", () => {
  const none = folder({});
  const kit2 = { dir: none, version: '2.70.4' };
  const added2 = ADDED_ADAPTERS['2']!;

  it("the config's own adapter serves its side; the other is the app's declared one, else rtbench's for the app's kit major", () => {
    expect(svelteKitAdapters({ ...kit2, nodeAdapters: [], workersAdapters: ['@sveltejs/adapter-cloudflare'] }, CLOUDFLARE_CONFIG)).toEqual({ node: { added: added2.node }, workers: { own: true } });
    expect(svelteKitAdapters({ ...kit2, nodeAdapters: ['@sveltejs/adapter-node'], workersAdapters: ['@sveltejs/adapter-cloudflare'] }, CLOUDFLARE_CONFIG)).toEqual({ node: { declared: '@sveltejs/adapter-node' }, workers: { own: true } });
    // adapter-auto names neither: both are rtbench's.
    expect(svelteKitAdapters({ ...kit2, nodeAdapters: [], workersAdapters: [] }, "import adapter from '@sveltejs/adapter-auto';")).toEqual({ node: { added: added2.node }, workers: { added: added2.workers } });
    // adapter-cloudflare-workers is not adapter-cloudflare.
    expect(svelteKitAdapters({ ...kit2, nodeAdapters: [], workersAdapters: [] }, "import adapter from '@sveltejs/adapter-cloudflare-workers';").workers).toEqual({ added: added2.workers });
    // kit 3: adapter-node 6 takes it.
    expect(svelteKitAdapters({ dir: none, version: '3.2.0', nodeAdapters: [], workersAdapters: ['@sveltejs/adapter-cloudflare'] }, CLOUDFLARE_CONFIG).node).toEqual({ added: ADDED_ADAPTERS['3']!.node });
  });

  it("an adapter the app declares that does not support its kit refuses the app: one line", () => {
    const app = folder({ 'node_modules/@sveltejs/adapter-cloudflare/package.json': JSON.stringify({ version: '7.2.9', peerDependencies: { '@sveltejs/kit': '^2.0.0', wrangler: '^4.0.0' } }) });
    expect(() => svelteKitAdapters({ dir: app, version: '3.2.0', nodeAdapters: [], workersAdapters: ['@sveltejs/adapter-cloudflare'] }, CLOUDFLARE_CONFIG)).toThrow(/: its @sveltejs\/adapter-cloudflare supports @sveltejs\/kit \^2\.0\.0, not the app's 3\.2\.0: install a release of @sveltejs\/adapter-cloudflare for it$/);
  });

  it('a side no adapter rtbench adds supports is refused alone, saying why', () => {
    const plan = svelteKitAdapters({ dir: none, version: '3.2.0', nodeAdapters: [], workersAdapters: [] }, '');
    expect(plan.node).toEqual({ added: ADDED_ADAPTERS['3']!.node });
    expect(plan.workers).toEqual({ refused: 'the app declares no @sveltejs/adapter-cloudflare for the Workers side, and rtbench adds none for @sveltejs/kit 3.2.0 (it adds @sveltejs/adapter-cloudflare for @sveltejs/kit 2): declare one that supports it' });
    expect(adapterNotes(plan, 'svelte.config.js')).toEqual([`the app declares no @sveltejs/adapter-node: rtbench adds @sveltejs/adapter-node ${ADDED_ADAPTERS['3']!.node!.version} from its cache for the Node.js side, named in place of svelte.config.js's adapter`]);
  });

  it('reads peer ranges as adapters write them', () => {
    expect(inPeerRange('2.70.4', '^2.0.0')).toBe(true);
    expect(inPeerRange('3.2.0', '^2.0.0')).toBe(false);
    expect(inPeerRange('2.3.0', '^2.4.0')).toBe(false);
    expect(inPeerRange('3.2.0', '^3.0.0-next.0')).toBe(true);
    expect(inPeerRange('3.2.0', '^1.0.0 || ^2.0.0')).toBe(false);
    expect(inPeerRange('2.1.0', '^1.0.0 || ^2.0.0')).toBe(true);
    expect(inPeerRange('1.9.0', '>=2')).toBe(false);
    expect(inPeerRange('3.0.0', '2.x')).toBe(false);
    expect(inPeerRange('3.0.0', '*')).toBe(true);
  });

  it('reads the ranges a hand-written reader misread: comparator sets, tildes, hyphens, prereleases', () => {
    // A lower bound with an upper one beside it was read as the lower bound alone.
    expect(inPeerRange('2.3.0', '>=1.0.0 <2.0.0')).toBe(false);
    expect(inPeerRange('15.5.0', '>=15.0.0 <15.5.0')).toBe(false);
    // A tilde, a hyphen range and a < were admitted whatever the version.
    expect(inPeerRange('1.3.0', '~1.2.0')).toBe(false);
    expect(inPeerRange('3.0.0', '1.0.0 - 2.9.9')).toBe(false);
    expect(inPeerRange('15.0.0', '<15')).toBe(false);
    // A prerelease of the caret's major is in it (an adapter built for kit 3 builds its release candidates).
    expect(inPeerRange('3.0.0-next.4', '^3.0.0-next.0')).toBe(true);
    expect(inPeerRange('2.1.0-next.3', '^2.0.0')).toBe(true);
    // A range semver cannot read admits the version: the build says what is wrong.
    expect(inPeerRange('1.0.0', 'workspace:*')).toBe(true);
  });

  it('says each adapter it adds, with its version, and each it names in place of the config\'s', () => {
    const notes = adapterNotes({ node: { added: added2.node! }, workers: { declared: '@sveltejs/adapter-cloudflare' } }, 'svelte.config.js');
    expect(notes).toEqual([
      `the app declares no @sveltejs/adapter-node: rtbench adds @sveltejs/adapter-node ${added2.node!.version} from its cache for the Node.js side, named in place of svelte.config.js's adapter`,
      "the Workers side is built with the app's own @sveltejs/adapter-cloudflare, named in place of svelte.config.js's adapter",
    ]);
    expect(adapterNotes({ node: { own: true }, workers: { own: true } }, 'svelte.config.js')).toEqual([]);
    for (const added of Object.values(ADDED_ADAPTERS).flatMap((byEdition) => Object.values(byEdition))) expect(added.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("wraps the app's config: its settings kept, kit.adapter the named module's default export", () => {
    const text = wrappedConfig('svelte.config.rtbench-app.js', '/cache/node_modules/@sveltejs/adapter-node/index.js');
    expect(text).toBe(
      [
        'import config from "./svelte.config.rtbench-app.js";',
        'import adapter from "file:///cache/node_modules/@sveltejs/adapter-node/index.js";',
        'export default { ...config, kit: { ...config.kit, adapter: adapter() } };',
        '',
      ].join('\n'),
    );
  });

  it("finds a package's ESM entry (exports' import, then module, main) and the app's config", () => {
    expect(packageEntry(folder({ 'package.json': JSON.stringify({ exports: { '.': { types: './i.d.ts', import: './files/index.js' } } }) }))).toMatch(/\/files\/index\.js$/);
    expect(packageEntry(folder({ 'package.json': JSON.stringify({ exports: './e.js', main: './m.js' }) }))).toMatch(/\/e\.js$/);
    expect(packageEntry(folder({ 'package.json': JSON.stringify({ main: './m.cjs' }) }))).toMatch(/\/m\.cjs$/);
    expect(packageEntry(folder({ 'package.json': '{}' }))).toMatch(/\/index\.js$/);
    expect(svelteConfigOf(folder({ 'svelte.config.mjs': '' }))).toBe('svelte.config.mjs');
    expect(svelteConfigOf(folder({}))).toBeUndefined();
  });

  // As `npx sv create` writes it: no svelte.config.js, the adapter among sveltekit()'s options.
  const svCreated = [
    "import adapter from '@sveltejs/adapter-auto';",
    "import { sveltekit } from '@sveltejs/kit/vite';",
    "import { defineConfig } from 'vite';",
    'export default defineConfig({ plugins: [sveltekit({ compilerOptions: { runes: true }, adapter: adapter() })] });',
    '',
  ].join('\n');

  it("finds the adapter in a vite config when the app has no svelte.config, and names rtbench's adapter in its import", () => {
    expect(svelteConfigOf(folder({ 'vite.config.ts': svCreated }))).toBe('vite.config.ts');
    expect(svelteConfigOf(folder({ 'vite.config.ts': svCreated, 'svelte.config.js': '' }))).toBe('svelte.config.js');
    // A vite config that passes no adapter names none: the app's config is elsewhere or missing.
    expect(svelteConfigOf(folder({ 'vite.config.js': "export default { plugins: [sveltekit()] };" }))).toBeUndefined();
    expect(viteConfigNaming(svCreated, '/cache/node_modules/@sveltejs/adapter-node/index.js')).toBe(svCreated.replace("'@sveltejs/adapter-auto'", '"file:///cache/node_modules/@sveltejs/adapter-node/index.js"'));
    expect(viteConfigNaming(svCreated.replace('import adapter from', 'import { adapter } from'), '/a.js')).toBeUndefined();
  });
});

describe('a SvelteKit app refused before any build', () => {
  const installed = {
    'package.json': JSON.stringify({ name: 'shop', devDependencies: { '@sveltejs/kit': '3.2.0', '@sveltejs/adapter-cloudflare': '7.2.9' } }),
    'node_modules/@sveltejs/kit/package.json': '{"version":"3.2.0"}',
    'node_modules/vite/bin/vite.js': '',
    'svelte.config.js': CLOUDFLARE_CONFIG,
  };

  it('a declared binding rtbench cannot stand in for, naming it', () => {
    const app = folder({ ...installed, 'wrangler.jsonc': '{ "main": ".svelte-kit/cloudflare/_worker.js", "kv_namespaces": [{ "binding": "CART" }] }' });
    expect(() => locateSuite(app)).toThrow(/^wrangler\.jsonc declares a KV namespace binding \(kv_namespaces: CART\): rtbench cannot stand in for it/);
  });

  it('no vite installed, or no svelte.config', () => {
    const { 'node_modules/vite/bin/vite.js': _vite, ...noVite } = installed;
    expect(() => locateSuite(folder(noVite))).toThrow(/is a SvelteKit app \(@sveltejs\/kit 3\.2\.0, svelte\.config\.js\): .*; its vite is not installed \(no node_modules\/vite\)/);
    const { 'svelte.config.js': _config, ...noConfig } = installed;
    expect(() => locateSuite(folder(noConfig))).toThrow(/; it has no svelte\.config\.js \(or \.mjs\), nor a vite config passing an adapter to sveltekit\(\), where a SvelteKit app names its adapter$/);
  });

  it('a kit no Cloudflare adapter rtbench adds supports: the Workers runtime says why, the Node.js side still runs', async () => {
    const { 'svelte.config.js': _config, ...rest } = installed;
    const app = folder({ ...rest, 'package.json': JSON.stringify({ name: 'kit3', devDependencies: { '@sveltejs/kit': '3.2.0' } }), 'svelte.config.js': "import adapter from '@sveltejs/adapter-auto';\nexport default { kit: { adapter: adapter() } };\n" });
    const location = locateSuite(app);
    const why = 'the app declares no @sveltejs/adapter-cloudflare for the Workers side, and rtbench adds none for @sveltejs/kit 3.2.0 (it adds @sveltejs/adapter-cloudflare for @sveltejs/kit 2): declare one that supports it';
    expect(location.notes ?? []).toContain(`the Workers runtime cannot serve it (${why}); the runtimes with a Node.js server still run it`);
    expect((location.notes ?? []).join('\n')).not.toMatch(/Cache API|compatibility date/);
    const [declaration] = ((await import(location.entry)) as { default: RequestSuite }).default.declarations;
    expect(declaration!.handlerUnsupported?.()).toBe(why);
  });

  it('a kit no adapter rtbench adds supports on either side: the whole app, one line', () => {
    const { 'svelte.config.js': _config, ...rest } = installed;
    const app = folder({ ...rest, 'package.json': JSON.stringify({ name: 'kit9', devDependencies: { '@sveltejs/kit': '9.0.0' } }), 'node_modules/@sveltejs/kit/package.json': '{"version":"9.0.0"}', 'svelte.config.js': '' });
    expect(() => locateSuite(app)).toThrow(/is a SvelteKit app \(@sveltejs\/kit 9\.0\.0, .*; the app declares no @sveltejs\/adapter-node for the Node\.js side, .*; the app declares no @sveltejs\/adapter-cloudflare for the Workers side, .*: declare one that supports it$/);
  });

  it('an installed app is a suite of its requests, said in notes before the run, nothing built', () => {
    const location = locateSuite(folder({ ...installed, 'wrangler.jsonc': '{ "main": ".svelte-kit/cloudflare/_worker.js", "compatibility_date": "2025-09-01", "compatibility_flags": ["nodejs_compat"] }' }));
    expect(location.name).toBe('shop');
  });
});

describe("a SvelteKit page's two editions", () => {
  // GET / of test/fixtures/apps/sveltekit as adapter-node's handler and adapter-cloudflare's Worker served it, its list cut to three items in both.
  const page = (edition: string): string => readFileSync(join(import.meta.dirname, 'fixtures', 'sveltekit-pages', `${edition}.html`), 'utf8');
  const normalized = (body: string): string => normalizeSvelteKitPage({ request: { path: '/' }, status: 200, body });

  it("are the same page once the builds' chunk hashes and version-named global are masked", () => {
    const [node, workers] = [page('node'), page('workers')];
    expect(node).not.toBe(workers);
    expect(normalized(node)).toBe(normalized(workers));
    expect(normalized(node)).toContain('__sveltekit_# = {');
    expect(normalized(node)).toContain('import("./_app/immutable/entry/start.#.js")');
  });

  it('a section one edition renders and the other does not still differs, on its line', () => {
    const workers = page('workers').replace('<!--[-1--><!--]-->', '<!--[0--><aside>rendered on the Workers edition only</aside><!--]-->');
    const differs = firstDifferingLine(normalized(page('node')), normalized(workers))!;
    expect(differs.line).toBe(9);
    expect(differs.b).toContain('<aside>rendered on the Workers editi');
    expect(differs.a).toContain('<!--[-1--><!--]-->');
  });

  it('another chunk, another item or another file name still differs: only the hash is masked', () => {
    const node = normalized(page('node'));
    expect(normalized(page('workers').replace('entry/app.', 'entry/other.'))).not.toBe(node);
    expect(normalized(page('workers').replace('{id:2,', '{id:3,'))).not.toBe(node);
    expect(normalized(page('workers').replace('import("./_app/immutable/entry/app.yk96mlEU.js")', 'import("./_app/immutable/entry/app.yk96mlEU.js"), import("./_app/immutable/nodes/3.Ab12Cd34.js")'))).not.toBe(node);
  });

  it("the Node.js edition's server answers the host's reserved paths, by the host's own names", () => {
    expect(RESERVED).toEqual(HOST_RESERVED);
  });
});

describe("an app's static assets, as the note says they are served", () => {
  it("on the Workers runtime alone for an app's Worker, the other runtimes answering them through the app's Node.js server", () => {
    const dir = folder({ 'public/app.css': 'body{}' });
    const assets = readAssetsTable({ directory: 'public', binding: 'ASSETS' }, dir, 'wrangler.jsonc', { date: '2025-09-01', flags: [] });
    const app = assetsNote(assets, 'wrangler.jsonc', 1, 6, true);
    expect(app).toContain('are served in front of the Worker on the Workers runtime as wrangler dev serves them');
    expect(app).not.toContain('every runtime');
    expect(app).toMatch(/; the runtimes with a Node\.js server answer the app's client files through its Node\.js server, as the framework serves them there$/);
    // A wrangler project's Worker is served with its assets in front on every runtime.
    expect(assetsNote(assets, 'wrangler.jsonc', 1, 6)).toContain('in front of the Worker on every runtime');
  });
});

describe("where an app's builds are kept", () => {
  it("in the folder RTBENCH_APP_BUILD_CACHE names (several checkouts sharing them), else the cache's apps folder", () => {
    expect(appBuildCache({ RTBENCH_APP_BUILD_CACHE: '/shared/app-builds' })).toBe('/shared/app-builds');
    expect(appBuildCache({})).toBe(join(cacheDir, 'apps'));
    expect(appBuildCache({ RTBENCH_APP_BUILD_CACHE: '' })).toBe(join(cacheDir, 'apps'));
  });
});
