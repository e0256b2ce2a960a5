/**
 * `rtbench bisect --clean` removes every release the bisect installed, the
 * two ends of the range included (they are installed while the range is
 * resolved, before the bisect's folder opens), and leaves a release that was
 * in the runtime cache before. The releases are versions of a tiny npm
 * package served from a registry of the test's own on 127.0.0.1
 * (test/fixtures/release-runtime/plugin.ts: "relrt"), whose binary is a
 * script that starts this Node.js; from version 2.0.0 on it starts it with
 * --jitless, a change the bisect finds in a few rounds, so it also installs a
 * release between the ends.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { releaseRuntime, RuntimeStore } from '@rtbench/runtime-kit';
import relrt, { BINARY, RELEASE_PACKAGE } from '../../../test/fixtures/release-runtime/plugin.ts';
import { cacheDir } from '../src/paths.ts';
import { fixture, repoRoot, runCliAsync, type CliResult } from '../../../test/helpers/cli.ts';

const VERSIONS = ['1.0.0', '2.0.0', '3.0.0', '4.0.0', '5.0.0'];
const RUNTIMES = join(cacheDir, 'runtimes');
const scratch = mkdtempSync(join(tmpdir(), 'rtbench-bisect-clean-'));

/** One version's tarball as npm publishes it (package/…), and its integrity. */
function packVersion(version: string): { tarball: Buffer; integrity: string; shasum: string } {
  const dir = join(scratch, 'pack', version);
  mkdirSync(join(dir, 'package', 'bin'), { recursive: true });
  writeFileSync(join(dir, 'package', 'package.json'), JSON.stringify({ name: RELEASE_PACKAGE, version, bin: { 'fake-rt': BINARY } }));
  const slower = version === VERSIONS[0] ? '' : ' --jitless';
  writeFileSync(join(dir, 'package', BINARY), `#!/bin/sh\nexec '${process.execPath}'${slower} "$@"\n`);
  chmodSync(join(dir, 'package', BINARY), 0o755);
  const file = join(dir, 'package.tgz');
  execFileSync('tar', ['-czf', file, '-C', dir, 'package']);
  const tarball = readFileSync(file);
  return { tarball, integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`, shasum: createHash('sha1').update(tarball).digest('hex') };
}

/** The registry: the package's packument and each version's tarball, nothing else. */
function serveRegistry(): Promise<{ server: Server; url: string }> {
  const packed = new Map(VERSIONS.map((v) => [v, packVersion(v)]));
  const tarballPath = (v: string): string => `/${RELEASE_PACKAGE}/-/${RELEASE_PACKAGE}-${v}.tgz`;
  const server = createServer((req, res) => {
    const url = `http://${req.headers.host}`;
    if (req.url === `/${RELEASE_PACKAGE}`) {
      const versions = Object.fromEntries(
        VERSIONS.map((v) => [v, { name: RELEASE_PACKAGE, version: v, bin: { 'fake-rt': BINARY }, dist: { tarball: `${url}${tarballPath(v)}`, integrity: packed.get(v)!.integrity, shasum: packed.get(v)!.shasum } }]),
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: RELEASE_PACKAGE, 'dist-tags': { latest: VERSIONS.at(-1) }, versions }));
      return;
    }
    const version = VERSIONS.find((v) => req.url === tarballPath(v));
    if (version) res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(packed.get(version)!.tarball);
    else res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/` })));
}

/** The cache entries of the test package's releases. */
const cached = (): string[] => (existsSync(RUNTIMES) ? readdirSync(RUNTIMES).filter((name) => name.startsWith(`${RELEASE_PACKAGE}@`)).sort() : []);
const entry = (version: string): string => join(RUNTIMES, `${RELEASE_PACKAGE}@${version}`);
const removeCached = (): void => {
  for (const name of cached()) rmSync(join(RUNTIMES, name), { recursive: true, force: true });
};

let registry: { server: Server; url: string };
let env: Record<string, string>;

beforeAll(async () => {
  removeCached();
  registry = await serveRegistry();
  env = {
    RTBENCH_RUNTIME_PLUGINS: join(repoRoot, 'test/fixtures/release-runtime/plugin.ts'),
    npm_config_registry: registry.url,
    npm_config_cache: join(scratch, 'npm-cache'),
    npm_config_fetch_retries: '0',
  };
});
afterAll(async () => {
  removeCached();
  await new Promise((resolve) => registry.server.close(resolve));
  rmSync(scratch, { recursive: true, force: true });
});

/** A bisect of a range on the tiny suite's longer sum, a few short rounds per step. */
function bisectClean(range: string, dir: string): Promise<CliResult> {
  return runCliAsync(
    ['bisect', range, fixture('tiny'), '--filter', 'n=1600', '--threshold', '50%', '--time', '10ms', '--warmup', '5ms', '--rounds', '6', '--max-rounds', '12', '--budget', '2m', '--timeout', '60s', '--dir', dir, '--clean'],
    env,
  );
}

/** The cache entries of these releases that are in the cache now. */
const cachedOf = (versions: readonly string[]): string[] => cached().filter((name) => versions.some((v) => name === `${RELEASE_PACKAGE}@${v}`));

// The two bisects' ranges share no release, so they run side by side.
describe.concurrent('bisect --clean', () => {
  it('removes every release it installed, both ends of the range included', async () => {
    const range = VERSIONS.slice(0, 3);
    expect(cachedOf(range)).toEqual([]);
    const r = await bisectClean(`relrt@${range[0]}..relrt@${range[2]}`, join(scratch, 'fresh'));
    expect([0, 1], r.stderr).toContain(r.status);
    const installed = range.filter((v) => r.stderr.includes(`installing relrt@${v} (${RELEASE_PACKAGE}@${v})`));
    // Both ends, and the release between them that the change's search measured.
    expect(installed, r.stderr).toEqual(range);
    expect(cachedOf(range)).toEqual([]);
    expect(r.stderr).toContain(`--clean: removed ${installed.length} releases this bisect installed`);
  });

  it('leaves an end of the range that was in the cache before', async () => {
    const [older, newer] = VERSIONS.slice(3) as [string, string];
    // Installed as any run installs it: through the runtime store, into the CLI's cache.
    vi.stubEnv('npm_config_registry', env.npm_config_registry!);
    vi.stubEnv('npm_config_cache', env.npm_config_cache!);
    try {
      await new RuntimeStore({ dir: RUNTIMES, install: true, workspace: false }).get(releaseRuntime(relrt.releases!, older, `relrt@${older}`));
    } finally {
      vi.unstubAllEnvs();
    }
    const binary = join(entry(older), 'node_modules', RELEASE_PACKAGE, BINARY);
    const before = statSync(binary);

    const r = await bisectClean(`relrt@${older}..relrt@${newer}`, join(scratch, 'one-end-cached'));
    expect([0, 1], r.stderr).toContain(r.status);
    expect(r.stderr).not.toContain(`installing relrt@${older} `);
    expect(r.stderr).toContain(`installing relrt@${newer} `);
    expect(cachedOf([older, newer])).toEqual([`${RELEASE_PACKAGE}@${older}`]);
    expect(statSync(binary).ino).toBe(before.ino);
    expect(r.stderr).toContain('--clean: removed 1 release this bisect installed');
  });
});
