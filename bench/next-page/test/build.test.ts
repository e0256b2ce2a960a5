/** The build's cache key, the Next.js server's reserved paths and the Worker's compatibility: what ties them to the rest of rtbench. */
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { broughtServerProblem } from '@rtbench/core';
import { appBuildKey as buildKey, cachedBuildProblem, nodePrefixed, recordBuild } from '@rtbench/host';
import { APP_DIR } from '../build.ts';
import { joinFlightChunks, normalizePage } from '../normalize.ts';
import { serverFor, WORKER_COMPATIBILITY } from '../servers.ts';
import { installedPackages, TOOLCHAIN, toolchainFor } from '../toolchain.ts';

describe('the build cache key', () => {
  const versions = TOOLCHAIN;

  it('names every package the build is made with, each pinned to one release', () => {
    expect(Object.keys(versions)).toEqual(['next', 'react', 'react-dom', '@opennextjs/cloudflare', 'wrangler', '@types/react', '@types/react-dom']);
    for (const v of Object.values(versions)) expect(v).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('is the same for the same files and versions, and moves with a file or a version', () => {
    const dir = mkdtempSync(join(tmpdir(), 'next-page-app-'));
    cpSync(APP_DIR, dir, { recursive: true });
    const key = buildKey(dir, versions);
    expect(buildKey(APP_DIR, versions)).toBe(key);
    expect(buildKey(dir, { ...versions, next: '0.0.0' })).not.toBe(key);
    const page = join(dir, 'app', 'page.tsx');
    writeFileSync(page, `${readFileSync(page, 'utf8')}\n// edited\n`);
    expect(buildKey(dir, versions)).not.toBe(key);
  });
});

describe("an arm's toolchain", () => {
  it('is the suite\'s with the versions the arm pins of it, other packages left out, and builds under its own key', () => {
    expect(toolchainFor({})).toEqual(TOOLCHAIN);
    const other = toolchainFor({ next: '15.5.29', zod: '4.0.0' });
    expect(other).toEqual({ ...TOOLCHAIN, next: '15.5.29' });
    expect(buildKey(APP_DIR, other)).not.toBe(buildKey(APP_DIR, TOOLCHAIN));
    // An arm's record holds the whole set: read back, it is the same toolchain and the same build.
    const recorded = installedPackages({ modules: '/m', versions: other, integrity: {}, sha256: '' });
    expect(toolchainFor(Object.fromEntries(recorded.map((p) => [p.name, p.version])))).toEqual(other);
  });

  it('adds the sharp an arm pins (next 15.5.29 builds with sharp 0.34.5), in its key and its record; none unless pinned', () => {
    expect(toolchainFor({})).not.toHaveProperty('sharp');
    const withSharp = toolchainFor({ next: '15.5.29', sharp: '0.34.5' });
    expect(withSharp).toEqual({ ...TOOLCHAIN, next: '15.5.29', sharp: '0.34.5' });
    expect(buildKey(APP_DIR, withSharp)).not.toBe(buildKey(APP_DIR, toolchainFor({ next: '15.5.29' })));
    const recorded = installedPackages({ modules: '/m', versions: withSharp, integrity: {}, sha256: '' });
    expect(recorded.find((p) => p.name === 'sharp')).toMatchObject({ version: '0.34.5', dir: '/m/sharp' });
    expect(toolchainFor(Object.fromEntries(recorded.map((p) => [p.name, p.version])))).toEqual(withSharp);
  });

  it('is recorded per arm as installed: every named package with its version, folder, integrity and the set\'s proof', () => {
    const recorded = installedPackages({ modules: '/cache/next-page@abc/node_modules', versions: TOOLCHAIN, integrity: { next: 'sha512-n' }, sha256: 'e'.repeat(64) });
    expect(recorded.map((p) => p.name)).toEqual(Object.keys(TOOLCHAIN));
    expect(recorded[0]).toEqual({ name: 'next', version: TOOLCHAIN.next, dir: '/cache/next-page@abc/node_modules/next', sha256: 'e'.repeat(64), set: 'next-page', integrity: 'sha512-n' });
    expect(recorded[1]!.integrity).toBeUndefined();
  });
});

describe('the toolchain', () => {
  it('is none of the checkout\'s packages: the lockfile holds no Next.js, adapter or wrangler, the suite depends on none of its set', () => {
    const suite = JSON.parse(readFileSync(join(APP_DIR, '..', 'package.json'), 'utf8')) as { dependencies?: object; devDependencies?: object };
    const declared = Object.keys({ ...suite.dependencies, ...suite.devDependencies });
    expect(declared.filter((name) => name in TOOLCHAIN)).toEqual([]);
    const lock = readFileSync(join(APP_DIR, '..', '..', '..', 'pnpm-lock.yaml'), 'utf8');
    for (const name of ['next', '@opennextjs/cloudflare', 'wrangler']) expect(lock, name).not.toMatch(new RegExp(`^  '?${name.replace('/', '\\/')}@`, 'm'));
  });
});

describe("the Worker's imports of Node.js built-ins", () => {
  it('are written node:* where a bare name is a built-in, and nothing else changes', () => {
    const source = `import { AsyncLocalStorage } from "async_hooks";\nimport x from 'fs/promises';\nimport * as p from "node:path";\nimport y from "react";\nimport "stream";\nconst s = "from \\"path\\" in a string";`;
    expect(nodePrefixed(source)).toBe(
      `import { AsyncLocalStorage } from "node:async_hooks";\nimport x from 'node:fs/promises';\nimport * as p from "node:path";\nimport y from "react";\nimport "node:stream";\nconst s = "from \\"path\\" in a string";`,
    );
  });
});

describe('the servers', () => {
  it("Next.js's handler is mounted on the server framework apps are served by", async () => {
    // That server answers the host's reserved paths (packages/suite-loader/test/app-suite.test.ts).
    const source = readFileSync(join(import.meta.dirname, '..', 'serve-next.mjs'), 'utf8');
    const from = /from '([^']*serve-app\.mjs)'/.exec(source)?.[1];
    expect(from).toBeDefined();
    const served = join(import.meta.dirname, '..', from!);
    expect(typeof (await import(served)).serveNodeHandler).toBe('function');
  });

  it('workerd serves the adapter Worker with the flags of the app\'s wrangler config; node, bun and deno run the Next.js program', () => {
    // Its comments are whole lines.
    const text = readFileSync(join(APP_DIR, 'wrangler.jsonc'), 'utf8').replace(/^\s*\/\/.*$/gm, '');
    const config = JSON.parse(text) as { compatibility_date: string; compatibility_flags: string[] };
    expect(WORKER_COMPATIBILITY).toEqual({ date: config.compatibility_date, flags: config.compatibility_flags });
    expect(serverFor('workerd', '/x/serve.mjs')).toBeUndefined();
    for (const runtime of ['node', 'bun']) expect(serverFor(runtime, '/x/serve.mjs')).toEqual({ program: '/x/serve.mjs' });
  });

  it('deno reads the build, the toolchain its node_modules links to, serve-next.mjs and the server it mounts on, and is given the CPU count and the environment', () => {
    const root = mkdtempSync(join(tmpdir(), 'next-page-build-'));
    const [build, toolchain] = [join(root, 'build'), join(root, 'libraries', 'next-page@1')];
    mkdirSync(build);
    mkdirSync(join(toolchain, 'node_modules'), { recursive: true });
    symlinkSync(join(toolchain, 'node_modules'), join(build, 'node_modules'));
    const server = serverFor('deno', join(build, 'serve.mjs'));
    expect(server).toEqual({
      program: join(build, 'serve.mjs'),
      permissions: { read: [build, realpathSync(join(toolchain, 'node_modules')), join(APP_DIR, '..', 'serve-next.mjs'), join(APP_DIR, '..', '..', '..', 'packages', 'suite-loader', 'src', 'serve-app.mjs')], sys: ['cpus'], env: true },
    });
    expect(broughtServerProblem(server)).toBeUndefined();
  });
});

describe('the page compared across runtimes', () => {
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

  // Two Next.js versions' builds of the app, as 16.4.5 and 16.4.6 served it: only these names differ.
  const built = (chunk: string, runtime: number, reference: number): string =>
    `<html><script src="/_next/static/chunks/${chunk}.js" async=""></script><script>(self.TURBOPACK=[]).push({"otherChunks":["static/chunks/${chunk}.js"],"runtimeModuleIds":[${runtime}]});</script>` +
    `<script>self.__next_f.push(${JSON.stringify([1, `2:"/_next/static/chunks/${chunk}.js"\n12:I[${reference},["$2"],"AddToCart"]\n`])})</script></html>`;
  const compared = (body: string): string => normalizePage({ request: { path: '/' }, status: 200, contentType: 'text/html', body });

  it("is the same under another build's chunk names and module ids, and differs in anything else", () => {
    const one = compared(built('1nw2lm4wlpuye', 6497, 42060));
    expect(compared(built('1ndzxn_uy9gr-', 74860, 60726))).toBe(one);
    expect(compared(built('1nw2lm4wlpuye', 6497, 42060).replace('AddToCart', 'RemoveFromCart'))).not.toBe(one);
    expect(compared(built('1nw2lm4wlpuye', 6497, 42060).replace('.js" async', '.css" async'))).not.toBe(one);
  });
});

describe('a cached build', () => {
  /** A folder as a build leaves it in the cache: owner-only, with its proof beside it. */
  function built(): string {
    const dir = join(mkdtempSync(join(tmpdir(), 'next-page-cache-')), 'abc123');
    mkdirSync(join(dir, '.next'), { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    writeFileSync(join(dir, '.next', 'server.js'), 'export default 1;\n');
    writeFileSync(join(dir, 'serve.mjs'), 'await 0;\n');
    recordBuild(dir);
    return dir;
  }

  it('is reused when it is a folder of this user\'s, no one else can write to, with the files it was built with', () => {
    expect(cachedBuildProblem(built())).toBeUndefined();
  });

  it('is built again when a file changed, its proof is gone, or others can write to it', () => {
    const edited = built();
    writeFileSync(join(edited, '.next', 'server.js'), 'export default 2;\n');
    expect(cachedBuildProblem(edited)?.problem).toMatch(/^is not the build rtbench made/);
    const unproven = built();
    rmSync(`${unproven}.proof.json`);
    expect(cachedBuildProblem(unproven)).toEqual({ problem: 'has no proof of the build rtbench made' });
    const open = built();
    chmodSync(open, 0o777);
    expect(cachedBuildProblem(open)).toEqual({ problem: 'is writable by others' });
    const linked = join(dirname(built()), 'linked');
    symlinkSync(built(), linked);
    expect(cachedBuildProblem(linked)).toEqual({ problem: 'is not a folder (a link or a file)' });
  });
});
