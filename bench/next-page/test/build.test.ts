/** The build's cache key, the Next.js server's reserved paths and the Worker's compatibility: what ties them to the rest of rtbench. */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { broughtServerProblem } from '@rtbench/core';
import { RESERVED as HOST_RESERVED } from '../../../packages/host-timed/src/request/paths.ts';
import { APP_DIR, buildKey, nodePrefixed } from '../build.ts';
import { joinFlightChunks } from '../normalize.ts';
import { serverFor, WORKER_COMPATIBILITY } from '../servers.ts';
import { TOOLCHAIN } from '../toolchain.ts';
// @ts-expect-error: plain JavaScript run by the runtimes as it is, with no declarations
import { RESERVED } from '../serve-next.mjs';

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
  it("Next.js's server answers the host's reserved paths", () => {
    expect(RESERVED).toEqual(HOST_RESERVED);
  });

  it('workerd serves the adapter Worker with the flags of the app\'s wrangler config; node, bun and deno run the Next.js program', () => {
    // Its comments are whole lines.
    const text = readFileSync(join(APP_DIR, 'wrangler.jsonc'), 'utf8').replace(/^\s*\/\/.*$/gm, '');
    const config = JSON.parse(text) as { compatibility_date: string; compatibility_flags: string[] };
    expect(WORKER_COMPATIBILITY).toEqual({ date: config.compatibility_date, flags: config.compatibility_flags });
    expect(serverFor('workerd', '/x/serve.mjs')).toBeUndefined();
    for (const runtime of ['node', 'bun']) expect(serverFor(runtime, '/x/serve.mjs')).toEqual({ program: '/x/serve.mjs' });
  });

  it('deno reads the build, the toolchain its node_modules links to and serve-next.mjs, and is given the CPU count and the environment', () => {
    const root = mkdtempSync(join(tmpdir(), 'next-page-build-'));
    const [build, toolchain] = [join(root, 'build'), join(root, 'libraries', 'next-page@1')];
    mkdirSync(build);
    mkdirSync(join(toolchain, 'node_modules'), { recursive: true });
    symlinkSync(join(toolchain, 'node_modules'), join(build, 'node_modules'));
    const server = serverFor('deno', join(build, 'serve.mjs'));
    expect(server).toEqual({
      program: join(build, 'serve.mjs'),
      permissions: { read: [build, realpathSync(join(toolchain, 'node_modules')), join(APP_DIR, '..', 'serve-next.mjs')], sys: ['cpus'], env: true },
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
});
