/**
 * A Next.js app brought as its folder, on the host: which OpenNext adapter
 * builds its Workers side (its own, or the one rtbench adds, said in a
 * note), the refusals that need no build (one line each), and its page as
 * compared across runtimes and builds: the Flight payload's chunks joined,
 * the build's id and file names masked, and anything else still different
 * on its line.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstDifferingLine } from '@rtbench/core/same-work';
import { appBuildKey, buildAfresh } from '@rtbench/host/apps';
import { buildNextApp } from '../src/apps/next/build.ts';
import { ADDED_OPENNEXT, nextAdapter } from '../src/apps/next/next.ts';
import { joinFlightChunks, normalizeNextPage } from '../src/apps/next/pages.ts';
import { locateSuite } from '../src/index.ts';

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-next-app-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
const version = (v: string, peers: Record<string, string> = {}): string => JSON.stringify({ version: v, peerDependencies: peers });

/** A Next.js app's folder as its install leaves it: next (with its bin), and the packages given. */
function nextApp(next: string, installed: Record<string, string> = {}, extra: Record<string, string> = {}): string {
  const deps = Object.fromEntries([['next', next], ...Object.keys(installed).map((name) => [name, '*'])]);
  return folder({
    'package.json': JSON.stringify({ name: 'shop', dependencies: deps }),
    'node_modules/next/package.json': version(next),
    'node_modules/next/dist/bin/next': '',
    ...Object.fromEntries(Object.entries(installed).map(([name, text]) => [`node_modules/${name}/package.json`, text])),
    ...extra,
  });
}

describe("a Next.js app's Workers adapter", () => {
  it("is the app's own when it declares and installed it, with wrangler", () => {
    const app = nextApp('15.4.6', { '@opennextjs/cloudflare': version('1.10.1', { wrangler: '^4.38.0' }), wrangler: version('4.42.2') });
    expect(nextAdapter({ dir: app, version: '15.4.6', workersAdapters: ['@opennextjs/cloudflare'] })).toEqual({ declared: '@opennextjs/cloudflare' });
  });

  it("is refused in one line when its range of next does not take the app's, or its wrangler is missing", () => {
    const old = nextApp('15.4.6', { '@opennextjs/cloudflare': version('1.20.17', { next: '>=15.5.29 <16 || >=16.4.5' }), wrangler: version('4.164.0') });
    expect(() => nextAdapter({ dir: old, version: '15.4.6', workersAdapters: ['@opennextjs/cloudflare'] })).toThrow(/its @opennextjs\/cloudflare supports next >=15\.5\.29 <16 \|\| >=16\.4\.5, not the app's 15\.4\.6: install a release of @opennextjs\/cloudflare for it$/);
    const noWrangler = nextApp('16.4.6', { '@opennextjs/cloudflare': version('1.20.17') });
    expect(() => nextAdapter({ dir: noWrangler, version: '16.4.6', workersAdapters: ['@opennextjs/cloudflare'] })).toThrow(/needs wrangler \(its peer\), which is not installed/);
  });

  it('is added by rtbench at its stated version when the app declares none; for another Next.js the Workers side alone is refused', () => {
    const app = nextApp('16.4.6');
    expect(nextAdapter({ dir: app, version: '16.4.6', workersAdapters: [] })).toEqual({ added: ADDED_OPENNEXT });
    expect(nextAdapter({ dir: app, version: '15.4.6', workersAdapters: [] })).toEqual({
      refused: "the app declares no @opennextjs/cloudflare for the Workers side, and the one rtbench adds (1.20.17) builds next >=15.5.29 <16 || >=16.4.5, not the app's 15.4.6: declare a release of @opennextjs/cloudflare that supports it",
    });
  });
});

describe('a Next.js app located', () => {
  it('says what it is, which adapter builds the Workers side (added: its version) and how pages are compared', () => {
    const location = locateSuite(nextApp('16.4.6', {}, { 'next.config.ts': '' }), { worker: { request: ['GET /bench'] } });
    expect(location.name).toBe('shop');
    const notes = location.notes!.join('\n');
    expect(notes).toMatch(/is a Next\.js app \(next 16\.4\.6, next\.config\.ts\): built with next build/);
    expect(notes).toContain(`rtbench adds @opennextjs/cloudflare ${ADDED_OPENNEXT.version} (with wrangler ${ADDED_OPENNEXT.peers.wrangler}) from its cache for the Workers side`);
    // Said when the Workers runtime runs (the plan says it then).
    expect(location.servedModuleNotes!.join('\n')).toContain("rtbench's default wrangler config's compatibility date 2025-09-01 and flags nodejs_compat, global_fetch_strictly_public");
    expect(notes).toContain("Next.js's inline Flight payload's chunks joined");
  });

  it('an app on a Next.js the added adapter does not build: the Workers runtime says why, the Node.js side still runs', () => {
    const notes = locateSuite(nextApp('15.4.6')).notes!.join('\n');
    expect(notes).toMatch(/the Workers runtime cannot serve it \(the app declares no @opennextjs\/cloudflare for the Workers side, .*\); the runtimes with a Node\.js server still run it/);
  });

  it('an app that loads next/font/google is said to have its fonts stood in for', () => {
    const notes = locateSuite(nextApp('16.4.6', {}, { 'app/layout.tsx': "import { Geist } from 'next/font/google';\n" })).notes!.join('\n');
    expect(notes).toMatch(/loads fonts with next\/font\/google, .* stood in for by @font-face rules/);
    expect(locateSuite(nextApp('16.4.6')).notes!.join('\n')).not.toMatch(/next\/font\/google/);
  });

  it('a binding in its wrangler config, or next not installed whole, is one line before any build', () => {
    const bound = nextApp('16.4.6', {}, { 'wrangler.jsonc': JSON.stringify({ main: '.open-next/worker.js', compatibility_date: '2025-09-01', kv_namespaces: [{ binding: 'KV', id: 'x' }] }) });
    expect(() => locateSuite(bound)).toThrow(/kv_namespaces/);
    const half = folder({ 'package.json': JSON.stringify({ dependencies: { next: '16.4.6' } }), 'node_modules/next/package.json': version('16.4.6') });
    expect(() => locateSuite(half)).toThrow(/its next is not installed whole \(no node_modules\/next\/dist\/bin\/next\): install its dependencies with its package manager first$/);
  });
});

describe('a Next.js page compared across runtimes', () => {
  const page = (chunks: string[]): string => `<html><body><main>hi</main><script>self.__next_f.push([0])</script>${chunks.map((c) => `<script>self.__next_f.push(${JSON.stringify([1, c])})</script>`).join('')}</body></html>`;
  const normalize = (body: string): string => joinFlightChunks({ request: { path: '/' }, status: 200, contentType: 'text/html', body });

  it('is the same however the Flight payload was cut into scripts', () => {
    expect(normalize(page(['1:"a"\n', '2:"b"\n', '0:["$","main"]\n']))).toBe(normalize(page(['1:"a"\n2:"b"\n0:["$","main"]\n'])));
  });

  it('differs when the payload, its order or the HTML around it does', () => {
    const one = normalize(page(['1:"a"\n', '2:"b"\n']));
    expect(normalize(page(['1:"a"\n', '2:"c"\n']))).not.toBe(one);
    expect(normalize(page(['2:"b"\n', '1:"a"\n']))).not.toBe(one);
    expect(normalize(page(['1:"a"\n', '2:"b"\n']).replace('hi', 'ho'))).not.toBe(one);
  });

  it('leaves a page with no Flight scripts as it is', () => {
    expect(normalize('<p>plain</p>')).toBe('<p>plain</p>');
  });

  // Two builds of one app, as two Next.js versions served it: only these names differ.
  const built = (id: string, chunk: string, runtime: number, reference: number, section = ''): string =>
    `<html><link rel="stylesheet" href="/_next/static/css/${chunk}.css"/><script src="/_next/static/chunks/app/bench/page-${chunk}.js" async=""></script>` +
    `<script>(self.TURBOPACK=[]).push({"otherChunks":["static/chunks/${chunk}.js"],"runtimeModuleIds":[${runtime}]});</script><main>${section}</main>` +
    `<script>self.__next_f.push(${JSON.stringify([1, `0:{"P":null,"b":"${id}","p":"","c":["","bench"]}\n2:"/_next/static/${id}/_ssgManifest.js"\n12:I[${reference},["$2"],"AddToCart"]\n`])})</script></html>`;
  const compared = (body: string): string => normalizeNextPage({ request: { path: '/' }, status: 200, contentType: 'text/html', body });

  it("is the same under another build's id, chunk names and module ids, and differs in anything else", () => {
    const one = compared(built('Xk2lq9Zr0aPq3mV1tYb7c', '1nw2lm4wlpuye', 6497, 42060));
    expect(compared(built('rtbench-next-page', '1ndzxn_uy9gr-', 74860, 60726))).toBe(one);
    expect(one).not.toContain('Xk2lq9Zr0aPq3mV1tYb7c');
    expect(compared(built('Xk2lq9Zr0aPq3mV1tYb7c', '1nw2lm4wlpuye', 6497, 42060).replace('AddToCart', 'RemoveFromCart'))).not.toBe(one);
    expect(compared(built('Xk2lq9Zr0aPq3mV1tYb7c', '1nw2lm4wlpuye', 6497, 42060).replace('.js" async', '.css" async'))).not.toBe(one);
  });

  it('a section only one runtime renders reads as a difference on its line', () => {
    const node = compared(built('Xk2lq9Zr0aPq3mV1tYb7c', 'a1', 1, 2));
    const workers = compared(built('Xk2lq9Zr0aPq3mV1tYb7c', 'b2', 3, 4, '<aside>only on the Workers runtime</aside>'));
    const differs = firstDifferingLine(node, workers)!;
    expect(differs.line).toBe(1);
    expect(differs.b).toContain('<aside>only on the Workers runti');
  });

  it("a Next.js app's Node.js side alone: its own build, or the whole one the cache holds (nothing run either way)", () => {
    const app = mkdtempSync(join(tmpdir(), 'rtbench-next-app-'));
    writeFileSync(join(app, 'page.js'), 'export default 1;\n');
    const root = mkdtempSync(join(tmpdir(), 'rtbench-next-builds-'));
    const versions = { next: '16.4.6' };
    const input = { appDir: app, modules: join(app, 'node_modules'), node: '/no/node', root, versions, server: () => '', workers: false };
    // A cached build of each kind, proven as rtbench proves its builds (a step run here would fail: no node at /no/node).
    const cached = (key: string): void => buildAfresh(join(root, key), () => mkdirSync(join(root, key), { mode: 0o700 }));
    cached(appBuildKey(app, { ...versions, 'rtbench:workers-side': 'none' }));
    expect(buildNextApp(input)).toMatchObject({ built: false, workers: false });
    cached(appBuildKey(app, versions));
    expect(buildNextApp(input)).toMatchObject({ key: appBuildKey(app, versions), built: false, workers: true });
  });
});
