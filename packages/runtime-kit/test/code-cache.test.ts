/** The folder a case's process keeps its bundle's compiled code in: made only when asked, one per bundle and variant, gone with its bundle. */
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeCacheDir } from '../src/code-cache.ts';
import type { JobRequest } from '../src/types.ts';

function request(bundlePath: string, more: Partial<JobRequest> = {}): JobRequest {
  return {
    target: { runtime: 'node', spec: 'node', binary: '/opt/node-26/bin/node', source: 'npm', version: '26.10.0', engine: 'v8', engineVersion: '14.6' },
    flags: { args: ['--expose-gc'], env: {} },
    bundlePath,
    job: { protocol: 1, kind: 'list' },
    timeoutMs: 1000,
    ...more,
  };
}

function bundleIn(dir: string, name: string): string {
  const path = join(dir, name);
  writeFileSync(path, 'export {};\n');
  return path;
}

describe('codeCacheDir', () => {
  it('makes no folder unless the request asks for one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-code-cache-'));
    const bundle = bundleIn(dir, 'node-0123456789abcdef.mjs');
    expect(codeCacheDir(request(bundle))).toBeUndefined();
    expect(codeCacheDir(request(bundle, { codeCache: false }))).toBeUndefined();
    expect(existsSync(`${bundle}.code-cache`)).toBe(false);
  });

  it('makes an owner-only folder beside the bundle, the same for the same variant and another for other flags or another binary', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-code-cache-'));
    const bundle = bundleIn(dir, 'node-0123456789abcdef.mjs');
    const made = codeCacheDir(request(bundle, { codeCache: true }))!;
    expect(made.startsWith(`${bundle}.code-cache/`)).toBe(true);
    expect(statSync(made).mode & 0o777).toBe(0o700);
    expect(codeCacheDir(request(bundle, { codeCache: true }))).toBe(made);
    const otherFlags = codeCacheDir(request(bundle, { codeCache: true, flags: { args: ['--expose-gc', '--max-semi-space-size=16'], env: {} } }));
    const otherBinary = codeCacheDir({ ...request(bundle, { codeCache: true }), target: { ...request(bundle).target, binary: '/opt/node-24/bin/node', version: '24.21.0' } });
    expect(new Set([made, otherFlags, otherBinary]).size).toBe(3);
  });

  it("removes the folders of bundles that are gone when a changed bundle's process starts, and keeps those of bundles still there", () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-code-cache-'));
    const old = bundleIn(dir, 'node-0123456789abcdef.mjs');
    const other = bundleIn(dir, 'deno-0123456789abcdef.mjs');
    const oldCache = codeCacheDir(request(old, { codeCache: true }))!;
    writeFileSync(join(oldCache, 'entry'), 'compiled');
    const otherCache = codeCacheDir(request(other, { codeCache: true }))!;
    rmSync(old);
    const changed = bundleIn(dir, 'node-fedcba9876543210.mjs');
    const fresh = codeCacheDir(request(changed, { codeCache: true }))!;
    expect(existsSync(`${old}.code-cache`)).toBe(false);
    expect(existsSync(otherCache)).toBe(true);
    expect(existsSync(fresh)).toBe(true);
  });

  it('starts without a cache where the folder cannot be made', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-code-cache-'));
    const bundle = bundleIn(dir, 'node-0123456789abcdef.mjs');
    // A file where the folder should be (a missing write bit would not stop root).
    writeFileSync(`${bundle}.code-cache`, 'not a folder');
    expect(codeCacheDir(request(bundle, { codeCache: true }))).toBeUndefined();
  });
});
