/**
 * A React Router app's plan, on the host and without a build: the Workers
 * side refused alone when its vite config builds no Worker, the Node.js
 * side's request listener the app's own or one rtbench adds (said, with its
 * version); the Node.js edition's vite config (the app's, the Cloudflare
 * plugin left out, cloudflare:workers stood in for); and the two editions'
 * pages compared with their builds' names and rewritten inline script masked.
 * The apps create-react-router makes today (fixtures/templates): its default
 * template on the Node.js side alone, its Cloudflare template on both.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RequestSuite } from '@rtbench/core';
import { firstDifferingLine } from '@rtbench/core/same-work';
import { cloudflareWorkersStandIn } from '../src/apps/build-parts.ts';
import { withoutCloudflarePlugin } from '../src/apps/react-router/build.ts';
import { normalizeReactRouterPage } from '../src/apps/react-router/react-router.ts';
import { locateSuite } from '../src/index.ts';
import { templateApp } from './template-app.ts';

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-rr-plan-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const version = (v: string): string => JSON.stringify({ version: v });
const TEMPLATE = {
  'package.json': JSON.stringify({ name: 'shop', dependencies: { 'react-router': '7.16.0' }, devDependencies: { '@react-router/dev': '7.16.0', '@cloudflare/vite-plugin': '1.64.0' } }),
  'node_modules/@react-router/dev/package.json': version('7.16.0'),
  'node_modules/react-router/package.json': version('7.16.0'),
  'node_modules/@react-router/node/package.json': version('7.16.0'),
  'node_modules/@mjackson/node-fetch-server/package.json': version('0.2.0'),
  'node_modules/@cloudflare/vite-plugin/package.json': version('1.64.0'),
  'node_modules/vite/bin/vite.js': '',
  'react-router.config.ts': '',
  'vite.config.ts': "import { cloudflare } from '@cloudflare/vite-plugin';\n",
  'wrangler.jsonc': '{ "main": "./workers/app.ts", "compatibility_date": "2025-04-04", "vars": { "GREETING": "hi" } }',
};

describe("a React Router app's plan", () => {
  it("as the Cloudflare template has it: both sides, the app's own listener, its vars the Node.js side's cloudflare:workers env", () => {
    const notes = locateSuite(folder(TEMPLATE)).notes ?? [];
    expect(notes).toContain("the Node.js side is React Router's server build without the Cloudflare Vite plugin, served as react-router-serve serves it (its client files first, NODE_ENV production) by the app's own @react-router/node 7.16.0");
    expect(notes).toContain('the Workers side is the Worker the app\'s @cloudflare/vite-plugin 1.64.0 builds, served with the wrangler config it writes (build/server/wrangler.json)');
    expect(notes).toContain("on the Node.js side, cloudflare:workers is rtbench's stand-in: its env is wrangler.jsonc's vars, as the Worker's");
    expect(notes.join('\n')).not.toContain('cannot serve it');
  });

  it('no @react-router/node installed: rtbench adds it at the app\'s react-router version, and says so', () => {
    const { 'node_modules/@react-router/node/package.json': _listener, ...rest } = TEMPLATE;
    expect(locateSuite(folder(rest)).notes).toContain(
      "the app has no @react-router/node 7.16.0: rtbench adds @react-router/node 7.16.0 from its cache for the Node.js side, which serves React Router's server build without the Cloudflare Vite plugin as react-router-serve does (its client files first, NODE_ENV production)",
    );
  });

  it('a vite config that builds no Worker: the Workers runtime says why, the Node.js side still runs', async () => {
    const location = locateSuite(folder({ ...TEMPLATE, 'vite.config.ts': "import { reactRouter } from '@react-router/dev/vite';\n" }));
    const why = "its vite.config.ts builds no Worker (no @cloudflare/vite-plugin in it, or not installed): add the Cloudflare Vite plugin as React Router's Cloudflare template has it";
    expect(location.notes).toContain(`the Workers runtime cannot serve it (${why}); the runtimes with a Node.js server still run it`);
    const [declaration] = ((await import(location.entry)) as { default: RequestSuite }).default.declarations;
    expect(declaration!.handlerUnsupported?.()).toBe(why);
  });

  it('no react-router installed: one line, before any build', () => {
    const { 'node_modules/react-router/package.json': _router, ...rest } = TEMPLATE;
    expect(() => locateSuite(folder(rest))).toThrow(/is a React Router \(framework mode\) app .*; its react-router is not installed \(no node_modules\/react-router\): install its dependencies with its package manager first$/);
  });
});

describe('the apps create-react-router makes', () => {
  it("its default template: recognised as made, served by its own @react-router/node; the Workers side names the way on", async () => {
    const location = locateSuite(templateApp('react-router-node', { '@mjackson/node-fetch-server': '0.2.0' }));
    const notes = location.notes ?? [];
    expect(notes[0]).toMatch(/ is a React Router \(framework mode\) app \(@react-router\/dev 7\.16\.0, react-router\.config\.ts\): built with react-router build, once per edition, served by @react-router\/node's request listener, as react-router-serve serves it \(@react-router\/node, @react-router\/serve\) on the runtimes with a Node\.js server /);
    expect(notes).toContain("the Node.js side is React Router's server build without the Cloudflare Vite plugin, served as react-router-serve serves it (its client files first, NODE_ENV production) by the app's own @react-router/node 7.16.0");
    const [declaration] = ((await import(location.entry)) as { default: RequestSuite }).default.declarations;
    expect(declaration!.handlerUnsupported?.()).toBe("its vite.config.ts builds no Worker (no @cloudflare/vite-plugin in it, or not installed): add the Cloudflare Vite plugin as React Router's Cloudflare template has it");
  });

  it('its Cloudflare template: recognised as made, the Worker its plugin builds on the Workers runtime, @react-router/node added for the Node.js side', async () => {
    const location = locateSuite(templateApp('react-router-cloudflare'));
    const notes = location.notes ?? [];
    expect(notes[0]).toMatch(/ is a React Router \(framework mode\) app \(@react-router\/dev 7\.16\.0, react-router\.config\.ts, wrangler\.jsonc\): /);
    expect(notes).toContain("the Workers side is the Worker the app's @cloudflare/vite-plugin 1.29.1 builds, served with the wrangler config it writes (build/server/wrangler.json)");
    expect(notes).toContain('the app has no @react-router/node 7.16.0: rtbench adds @react-router/node 7.16.0 from its cache for the Node.js side, which serves React Router\'s server build without the Cloudflare Vite plugin as react-router-serve does (its client files first, NODE_ENV production)');
    const [declaration] = ((await import(location.entry)) as { default: RequestSuite }).default.declarations;
    expect(declaration!.handlerUnsupported?.()).toBeUndefined();
  });
});

describe("the Node.js edition's vite config", () => {
  it("is the app's, every Cloudflare plugin left out however nested, cloudflare:workers resolved to the stand-in", async () => {
    const dir = folder({
      'vite.config.rtbench-app.mjs': "export default async () => ({ base: '/x/', plugins: [{ name: 'vite-plugin-cloudflare' }, [Promise.resolve({ name: 'vite-plugin-cloudflare:dev' }), { name: 'react-router' }]] });\n",
    });
    const standIn = cloudflareWorkersStandIn({ GREETING: 'hi' });
    writeFileSync(join(dir, 'vite.config.mjs'), withoutCloudflarePlugin('vite.config.rtbench-app.mjs', standIn));
    const make = (await import(pathToFileURL(join(dir, 'vite.config.mjs')).href)) as { default: (env: unknown) => Promise<{ base: string; plugins: { name: string; resolveId?: (s: string) => string | undefined; load?: (s: string) => string | undefined }[] }> };
    const config = await make.default({ command: 'build', mode: 'production' });
    expect(config.base).toBe('/x/');
    expect(config.plugins.map((p) => p.name)).toEqual(['rtbench-cloudflare-workers', 'react-router']);
    const workers = config.plugins[0]!;
    const id = workers.resolveId!('cloudflare:workers')!;
    expect(workers.resolveId!('react')).toBeUndefined();
    expect(workers.load!(id)).toBe(standIn);
    expect(standIn).toContain('export const env = {"GREETING":"hi"};');
  });
});

describe("a React Router page's two editions", () => {
  // GET /planted of test/fixtures/apps/react-router as the Node.js side served it; the Workers edition's page holds
  // ScrollRestoration's function as the Worker's bundle rewrote it.
  const page = (edition: string): string => readFileSync(join(import.meta.dirname, 'fixtures', 'react-router-pages', `${edition}.html`), 'utf8');
  const normalized = (body: string): string => normalizeReactRouterPage({ request: { path: '/planted' }, status: 200, body });

  it("are the same page once the builds' asset hashes, manifest version and rewritten inline script are masked", () => {
    const [node, workers] = [page('node'), page('workers')];
    expect(node).not.toBe(workers);
    expect(normalized(node)).toBe(normalized(workers));
    expect(normalized(node)).toContain('<script>(restoreScroll#)("react-router-scroll-positions", null)</script>');
    expect(normalized(node)).toContain('import("/assets/entry.client-#.js")');
    expect(normalized(node)).toContain('"version": "#"');
  });

  it('a section one edition renders and the other does not still differs, on its line', () => {
    const workers = page('workers').replace('<h1>The same page?</h1>', '<h1>The same page?</h1><aside>rendered on the Workers edition only</aside>');
    const differs = firstDifferingLine(normalized(page('node')), normalized(workers))!;
    expect(differs.line).toBe(1);
    expect(differs.b).toContain('<aside>rendered on the Workers editi');
  });

  it('another chunk, another storage key or another loader value still differs: only the names are masked', () => {
    const node = normalized(page('node'));
    expect(normalized(page('workers').replace('/assets/entry.client-', '/assets/other.client-'))).not.toBe(node);
    expect(normalized(page('workers').replace('"react-router-scroll-positions"', '"other-positions"'))).not.toBe(node);
    expect(normalized(page('workers').replace('\\"onWorkers\\",false', '\\"onWorkers\\",true'))).not.toBe(node);
  });
});
