/** The build's cache key, the Next.js server's reserved paths and the Worker's compatibility: what ties them to the rest of rtbench. */
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { broughtServerProblem } from '@rtbench/core/request';
import { appBuildKey as buildKey, cachedBuildProblem, nodePrefixed, recordBuild } from '@rtbench/host/apps';
import { nextServer } from '@rtbench/suite-loader';
import { APP_DIR, WORKER_COMPATIBILITY } from '../build.ts';
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

/** Next.js's server program, in the package that serves every framework app. */
const SERVE_NEXT = join(APP_DIR, '..', '..', '..', 'packages', 'suite-loader', 'src', 'serve-next.mjs');

describe('the servers', () => {
  it("Next.js's handler is mounted on the server framework apps are served by", async () => {
    // That server answers the host's reserved paths (packages/suite-loader/test/app-suite.test.ts).
    const source = readFileSync(SERVE_NEXT, 'utf8');
    const from = /from '([^']*serve-app\.mjs)'/.exec(source)?.[1];
    expect(from).toBeDefined();
    const served = join(dirname(SERVE_NEXT), from!);
    expect(typeof (await import(served)).serveNodeHandler).toBe('function');
  });

  it("workerd serves the adapter Worker with the flags of the app's wrangler config", () => {
    // Its comments are whole lines.
    const text = readFileSync(join(APP_DIR, 'wrangler.jsonc'), 'utf8').replace(/^\s*\/\/.*$/gm, '');
    const config = JSON.parse(text) as { compatibility_date: string; compatibility_flags: string[] };
    expect(WORKER_COMPATIBILITY).toEqual({ date: config.compatibility_date, flags: config.compatibility_flags });
  });

  it('deno reads the build, the toolchain its node_modules links to, serve-next.mjs and the server it mounts on, and is given the CPU count and the environment', () => {
    const root = mkdtempSync(join(tmpdir(), 'next-page-build-'));
    const [build, toolchain] = [join(root, 'build'), join(root, 'libraries', 'next-page@1')];
    mkdirSync(build);
    mkdirSync(join(toolchain, 'node_modules'), { recursive: true });
    symlinkSync(join(toolchain, 'node_modules'), join(build, 'node_modules'));
    const server = nextServer(join(build, 'serve.mjs'));
    expect(server).toEqual({
      program: join(build, 'serve.mjs'),
      permissions: { read: [build, realpathSync(join(toolchain, 'node_modules')), SERVE_NEXT, join(dirname(SERVE_NEXT), 'serve-app.mjs')], sys: ['cpus'], env: true },
    });
    expect(broughtServerProblem(server)).toBeUndefined();
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
