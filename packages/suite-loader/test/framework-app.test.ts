/**
 * A framework app recognised from its folder, on the host: its package.json
 * names the framework, its config files and adapters are found, its
 * installed version read, and what rtbench would build and serve said in
 * one line; a folder whose package.json names no framework is not an app
 * (its wrangler project stays a Worker), and an app rtbench cannot build is
 * refused in one line before anything runs.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isWorkerTarget, locateSuite } from '../src/index.ts';
import { FRAMEWORKS } from '../src/apps/all.ts';
import { describeApp, frameworkAppAt } from '../src/apps/framework-app.ts';

/** A folder with these files (path → text). */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rtbench-app-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
const pkg = (deps: Record<string, string>, dev: Record<string, string> = {}): string => JSON.stringify({ name: 'app', dependencies: deps, devDependencies: dev });

describe('a framework app', () => {
  it.each([
    ['Next.js', { 'package.json': pkg({ next: '16.4.6', react: '19.3.1' }, { '@opennextjs/cloudflare': '^1.20.0' }), 'next.config.ts': '', 'node_modules/next/package.json': '{"version":"16.4.6"}', 'wrangler.jsonc': '{}' },
      "a Next.js app (next 16.4.6, next.config.ts, wrangler.jsonc): built with next build, served by Next.js's own server (what next start runs) on the runtimes with a Node.js server and by OpenNext's Worker (opennextjs-cloudflare build) (@opennextjs/cloudflare) on the Workers runtime"],
    ['SvelteKit', { 'package.json': pkg({}, { '@sveltejs/kit': '^2.20.0', '@sveltejs/adapter-node': '^5.0.0' }), 'svelte.config.js': '' },
      "a SvelteKit app (@sveltejs/kit ^2.20.0 (declared, not installed), svelte.config.js): built with vite build, once per adapter, served by adapter-node's server (@sveltejs/adapter-node) on the runtimes with a Node.js server and by adapter-cloudflare's Worker, whose adapter (@sveltejs/adapter-cloudflare) it does not declare on the Workers runtime"],
    ['SvelteKit as npx sv create makes it', { 'package.json': pkg({}, { '@sveltejs/kit': '^2.63.0', '@sveltejs/adapter-auto': '^7.0.1' }), 'vite.config.ts': '' },
      "a SvelteKit app (@sveltejs/kit ^2.63.0 (declared, not installed), vite.config.ts): built with vite build, once per adapter, served by adapter-node's server, whose adapter (@sveltejs/adapter-node) it does not declare on the runtimes with a Node.js server and by adapter-cloudflare's Worker, whose adapter (@sveltejs/adapter-cloudflare) it does not declare on the Workers runtime"],
    ['React Router', { 'package.json': pkg({ '@react-router/node': '7.9.0', '@react-router/serve': '7.9.0' }, { '@react-router/dev': '7.9.0', '@cloudflare/vite-plugin': '1.0.0' }), 'react-router.config.ts': '' },
      "a React Router (framework mode) app (@react-router/dev 7.9.0 (declared, not installed), react-router.config.ts): built with react-router build, once per edition, served by @react-router/node's request listener, as react-router-serve serves it (@react-router/node, @react-router/serve) on the runtimes with a Node.js server and by the Cloudflare Vite plugin's Worker (@cloudflare/vite-plugin) on the Workers runtime"],
    ['Astro', { 'package.json': pkg({ astro: '^5.0.0', '@astrojs/cloudflare': '^12.0.0', '@astrojs/node': '^9.0.0' }), 'astro.config.mjs': '' },
      "an Astro app (astro ^5.0.0 (declared, not installed), astro.config.mjs): built with astro build, once per adapter, served by @astrojs/node's standalone server (@astrojs/node) on the runtimes with a Node.js server and by @astrojs/cloudflare's Worker (@astrojs/cloudflare) on the Workers runtime"],
  ])('%s: its framework, version, config and adapters, said in one line', (_name, files, said) => {
    const app = frameworkAppAt(folder(files), FRAMEWORKS)!;
    expect(describeApp(app)).toBe(said);
  });

  it('a folder whose package.json names no framework is no app: its wrangler project is a Worker', () => {
    const worker = folder({ 'package.json': pkg({ hono: '^4.0.0' }), 'wrangler.toml': 'main = "w.js"\n', 'w.js': 'export default { fetch: () => new Response("w") };\n' });
    expect(frameworkAppAt(worker, FRAMEWORKS)).toBeUndefined();
    expect(isWorkerTarget(worker)).toBe(true);
    expect(frameworkAppAt(folder({ 'index.js': '' }), FRAMEWORKS)).toBeUndefined();
    // The file itself, not its folder: a wrangler config is a Worker even in an app's folder.
    expect(frameworkAppAt(join(folder({ 'package.json': pkg({ next: '16.4.6' }) }), 'package.json'), FRAMEWORKS)).toBeUndefined();
  });

  it('an app is refused in one line before anything runs: one not installed, one rtbench does not build yet', () => {
    const missing = folder({ 'package.json': pkg({ nuxt: '^4.0.0' }) });
    expect(isWorkerTarget(missing)).toBe(true);
    expect(() => locateSuite(missing)).toThrow(/^.* is a Nuxt app \(nuxt \^4\.0\.0 \(declared, not installed\)\): .*; its dependencies are not installed \(no node_modules\/nuxt\): install them with its package manager first$/);
    const built = folder({ 'package.json': pkg({ nuxt: '4.0.0' }), 'node_modules/nuxt/package.json': '{"version":"4.0.0"}', 'wrangler.jsonc': '{ "main": ".output/server/index.mjs" }' });
    expect(() => locateSuite(built)).toThrow(/^.* is a Nuxt app \(nuxt 4\.0\.0, wrangler\.jsonc\): .*; rtbench builds Next\.js, SvelteKit, React Router \(framework mode\) and Astro apps, not Nuxt apps yet: build it with its own toolchain, then run its Worker \(rtbench run .*wrangler\.jsonc\)$/);
    expect(() => frameworkAppAt(folder({ 'package.json': '{ nope' }), FRAMEWORKS)).toThrow(/package\.json is not JSON: /);
  });
});
