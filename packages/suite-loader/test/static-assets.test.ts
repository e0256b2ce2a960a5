/**
 * A wrangler project's static assets, on the host: the `assets` table
 * checked (each refusal one line), the folder's files listed less what
 * `.assetsignore` names, and the handler a runtime serves answering from
 * them in front of the Worker by wrangler dev's rules (html_handling,
 * not_found_handling, run_worker_first, the navigation rule), with the
 * ASSETS binding in the Worker's env.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RequestSuite } from '@rtbench/core';
import { importUserModule } from '@rtbench/process';
import { locateSuite } from '../src/index.ts';
import { withAssets, type AssetFiles, type AssetsRouting } from '../src/assets-router.ts';
import { readWranglerProject, wranglerConfigAt } from '../src/wrangler-config.ts';

const PROJECT = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'workers', 'wrangler-assets');

type Fetch = (request: Request) => Promise<Response>;

async function servedHandler(path: string): Promise<{ fetch: Fetch; notes: readonly string[] }> {
  const located = locateSuite(path, { worker: { request: [] } });
  const suite = (await importUserModule(located.entry) as { default: RequestSuite }).default;
  const handler = (await importUserModule(suite.declarations[0]!.handler as string) as { default: { fetch(r: Request, env: unknown, ctx: unknown): Promise<Response> } }).default;
  return { fetch: (request) => handler.fetch(request, {}, {}), notes: located.notes ?? [] };
}

const get = (path: string, headers: Record<string, string> = {}): Request => new Request(`http://127.0.0.1${path}`, { headers });
const answer = async (fetch: Fetch, request: Request): Promise<[number, string]> => {
  const response = await fetch(request);
  return [response.status, response.headers.get('location') ?? (await response.text()).trim()];
};

describe('a wrangler project with static assets', () => {
  it('serves its files in front of the Worker, the rest to the Worker, and gives the Worker the ASSETS binding', async () => {
    const { fetch, notes } = await servedHandler(PROJECT);
    expect(await answer(fetch, get('/'))).toEqual([200, '<!doctype html><title>home</title><h1>home</h1>']);
    expect(await answer(fetch, get('/about'))).toEqual([200, '<!doctype html><title>about</title><h1>about</h1>']);
    // auto-trailing-slash: an .html name and a folder without its slash are redirected, as wrangler dev does.
    expect(await answer(fetch, get('/about.html'))).toEqual([307, '/about']);
    expect(await answer(fetch, get('/blog'))).toEqual([307, '/blog/']);
    expect(await answer(fetch, get('/blog/'))).toEqual([200, '<!doctype html><title>blog</title><h1>blog</h1>']);
    expect(await answer(fetch, get('/index.html?x=1'))).toEqual([307, '/?x=1']);
    // No file matches: the Worker answers; a navigation gets the 404 page (404-page, compatibility date after 2025-04-01).
    expect(await answer(fetch, get('/missing'))).toEqual([200, 'the Worker answered /missing']);
    expect(await answer(fetch, get('/missing', { 'sec-fetch-mode': 'navigate' }))).toEqual([404, '<!doctype html><title>not found</title><h1>no such page</h1>']);
    expect(await answer(fetch, get('/api/styled'))).toEqual([200, 'stylesheet 200: body { color: teal; }']);
    // .assetsignore's files and the file itself are not served.
    expect(await answer(fetch, get('/secret.txt'))).toEqual([200, 'the Worker answered /secret.txt']);
    expect(await answer(fetch, get('/.assetsignore'))).toEqual([200, 'the Worker answered /.assetsignore']);
    const css = await fetch(get('/app.css'));
    expect([css.headers.get('content-type'), css.headers.get('cache-control')]).toEqual(['text/css; charset=utf-8', 'public, max-age=0, must-revalidate']);
    const etag = css.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await fetch(get('/app.css', { 'if-none-match': etag }))).status).toBe(304);
    expect((await fetch(new Request('http://127.0.0.1/app.css', { method: 'POST', body: 'x' }))).status).toBe(405);
    expect(notes).toContain('wrangler.jsonc\'s static assets (5 files, 229 bytes from test/fixtures/workers/wrangler-assets/public) are served in front of the Worker on every runtime as wrangler dev serves them (html_handling auto-trailing-slash, not_found_handling 404-page), and as env.ASSETS');
  });

  it('a project of assets alone answers from them, 404 where none matches', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-assets-'));
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'index.html'), 'spa');
    writeFileSync(join(dir, 'wrangler.toml'), 'name = "spa"\n[assets]\ndirectory = "dist"\nnot_found_handling = "single-page-application"\n');
    const { fetch } = await servedHandler(dir);
    expect(await answer(fetch, get('/'))).toEqual([200, 'spa']);
    expect(await answer(fetch, get('/deep/link'))).toEqual([200, 'spa']);
    writeFileSync(join(dir, 'wrangler.toml'), 'name = "plain"\n[assets]\ndirectory = "dist"\n');
    expect(await answer((await servedHandler(dir)).fetch, get('/deep/link'))).toEqual([404, '']);
  });

  it.each([
    ['{ "main": "w.js", "assets": { "binding": "ASSETS" } }', /^wrangler\.jsonc: assets names no directory/],
    ['{ "main": "w.js", "assets": { "directory": "./nowhere" } }', /^wrangler\.jsonc: assets\.directory \.\/nowhere: no such folder/],
    ['{ "main": "w.js", "assets": { "directory": ".", "html_handling": "sometimes" } }', /^wrangler\.jsonc: assets\.html_handling "sometimes" is none of auto-trailing-slash/],
    ['{ "main": "w.js", "assets": { "directory": ".", "not_found_handling": "spa" } }', /^wrangler\.jsonc: assets\.not_found_handling "spa" is none of none/],
    ['{ "main": "w.js", "assets": { "directory": ".", "run_worker_first": "yes" } }', /^wrangler\.jsonc: assets\.run_worker_first must be true, false or a list of routes/],
    ['{ "main": "w.js", "assets": { "directory": ".", "cache": true } }', /^wrangler\.jsonc: assets\.cache is not a setting of static assets rtbench knows/],
    ['{ "main": "w.js", "site": { "bucket": "./public" } }', /^wrangler\.jsonc declares the legacy Workers Sites \(site: \.\/public\): its Worker reads a KV namespace rtbench cannot stand in for/],
  ])('%s is refused in one line', (text, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-assets-'));
    writeFileSync(join(dir, 'w.js'), 'export default { fetch: () => new Response("w") };\n');
    writeFileSync(join(dir, 'wrangler.jsonc'), text);
    expect(() => readWranglerProject(wranglerConfigAt(dir)!)).toThrow(message);
  });
});

describe("the assets' rules", () => {
  const text = (s: string): string => btoa(s);
  const FILES: AssetFiles = {
    '/index.html': ['text/html', 'e-index', text('home')],
    '/a.html': ['text/html', 'e-a', text('a')],
    '/b/index.html': ['text/html', 'e-b', text('b')],
    '/api/data.json': ['application/json', 'e-data', text('{}')],
    '/docs/404.html': ['text/html', 'e-404', text('docs 404')],
    '/[x].txt': ['text/plain', 'e-x', text('bracket')],
  };
  const routing = (over: Partial<AssetsRouting>): AssetsRouting => ({ htmlHandling: 'auto-trailing-slash', notFoundHandling: 'none', runWorkerFirst: false, navigationPrefersAssets: true, ...over });
  const worker = { fetch: (request: Request) => new Response(`worker ${new URL(request.url).pathname}`) };
  const serve = (over: Partial<AssetsRouting>, withWorker = true): Fetch => {
    const served = withAssets(FILES, routing(over), withWorker ? worker : undefined);
    return (request) => served.fetch(request, {}, {});
  };

  it.each([
    ['auto-trailing-slash', ['/a', '/a/', '/a.html', '/b', '/b/', '/b/index.html', '/index.html'], [[200, 'a'], [307, '/a'], [307, '/a'], [307, '/b/'], [200, 'b'], [307, '/b/'], [307, '/']]],
    ['force-trailing-slash', ['/a', '/a/', '/a.html', '/b', '/b/'], [[307, '/a/'], [200, 'a'], [307, '/a/'], [307, '/b/'], [200, 'b']]],
    ['drop-trailing-slash', ['/a', '/a/', '/b', '/b/', '/b/index.html', '/'], [[200, 'a'], [307, '/a'], [200, 'b'], [307, '/b'], [307, '/b'], [200, 'home']]],
    ['none', ['/a', '/a.html', '/b/', '/b/index.html'], [[200, 'worker /a'], [200, 'a'], [200, 'worker /b/'], [200, 'b']]],
  ] as const)('html_handling %s', async (htmlHandling, paths, expected) => {
    const fetch = serve({ htmlHandling });
    expect(await Promise.all(paths.map((p) => answer(fetch, get(p))))).toEqual(expected);
  });

  it('not_found_handling: the nearest 404.html, the single page, or the Worker; assets alone answer 404', async () => {
    const page = serve({ notFoundHandling: '404-page' }, false);
    expect(await answer(page, get('/docs/deep/x'))).toEqual([404, 'docs 404']);
    expect(await answer(page, get('/elsewhere'))).toEqual([404, '']);
    const spa = serve({ notFoundHandling: 'single-page-application' });
    const navigate = { 'sec-fetch-mode': 'navigate' };
    expect(await answer(spa, get('/route', navigate))).toEqual([200, 'home']);
    expect(await answer(spa, get('/route'))).toEqual([200, 'worker /route']);
    // Before the compatibility date that made navigations prefer the assets, the Worker answers them.
    expect(await answer(serve({ notFoundHandling: 'single-page-application', navigationPrefersAssets: false }), get('/route', navigate))).toEqual([200, 'worker /route']);
  });

  it('run_worker_first: every request, or the routes it lists less those it excludes', async () => {
    expect(await answer(serve({ runWorkerFirst: true }), get('/a'))).toEqual([200, 'worker /a']);
    const routes = serve({ runWorkerFirst: ['/api/*', '!/api/data.json'] });
    expect(await answer(routes, get('/api/other'))).toEqual([200, 'worker /api/other']);
    expect(await answer(routes, get('/api/data.json'))).toEqual([200, '{}']);
    expect(await answer(routes, get('/a'))).toEqual([200, 'a']);
  });

  it('a path is matched decoded and served at its encoded form; HEAD has no body', async () => {
    const fetch = serve({});
    expect(await answer(fetch, get('/%5Bx%5D.txt'))).toEqual([200, 'bracket']);
    expect(await answer(fetch, get('/[x].txt'))).toEqual([307, '/%5Bx%5D.txt']);
    const head = await fetch(new Request('http://127.0.0.1/a', { method: 'HEAD' }));
    expect([head.status, await head.text()]).toEqual([200, '']);
  });
});
