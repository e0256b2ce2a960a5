/**
 * Pins of packages a request suite installs itself (package-pins.ts): they
 * are checked against the registry's versions, handed to the declaration's
 * prepare once per arm, and what it installed is the arm's record; a version
 * the registry lacks, a path, or a failed preparation is one line naming the
 * arm; an exact pin of a version a set in the cache holds asks no registry.
 * A fixture suite installs nothing and a fake registry answers: no process,
 * no bundle.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ArmPackages } from '@rtbench/core';
import { LibraryStore } from '@rtbench/host/installs';
import type { RuntimeTarget } from '@rtbench/runtime-kit';
import { pluginNamed, type ResolvedVariant } from '@rtbench/runtime-registry';
import { storePolicy, type SuiteLocation } from '@rtbench/suite-loader';
import { installedRecord, pinPackages, splitPins, type VersionsOf } from '../src/package-pins.ts';
import { parseVariant } from '../src/variants.ts';

const suite: SuiteLocation = { name: 'installing-suite', entry: join(import.meta.dirname, 'fixtures', 'installing-suite', 'index.ts') };
const node = pluginNamed('node')!;
/** A variant as resolving it would give, without probing a binary: pinPackages reads its spec and plugin and writes its record. */
const armOf = (text: string): ResolvedVariant => ({ spec: parseVariant(text), plugin: node, target: {} as RuntimeTarget, flags: { args: [], env: {} }, record: {} as ResolvedVariant['record'] });

const PUBLISHED: Record<string, string[]> = { fakefw: ['1.0.0', '1.0.1', '1.2.0', '1.2.3', '2.0.0', '0.0.1'].sort(), 'fakefw-adapter': ['2.0.0'] };
const asked: string[] = [];
const registry: VersionsOf = async (name) => {
  asked.push(name);
  return PUBLISHED[name] ?? [];
};
const calls = (): ArmPackages[] => (globalThis as { installingSuiteCalls?: ArmPackages[] }).installingSuiteCalls ?? [];
const serves = (): unknown[] => (globalThis as { installingSuiteServes?: unknown[] }).installingSuiteServes ?? [];

beforeEach(() => {
  calls().length = 0;
  serves().length = 0;
  asked.length = 0;
});

describe('pins of packages a request suite installs', () => {
  it('are split from the pins its bundle resolves', () => {
    const { installed, bundled } = splitPins(parseVariant('node fakefw@1.2.x react@19.2.0'), new Set(['fakefw']));
    expect(installed).toEqual([{ name: 'fakefw', version: '1.2.x' }]);
    expect(bundled).toEqual([{ name: 'react', version: '19.2.0' }]);
  });

  it('resolve against the registry, reach prepare per arm, and record what it installed (set, version, integrity) on every arm', async () => {
    const plain = armOf('node');
    const pinned = armOf('node fakefw@1.2.x');
    await pinPackages(suite, [plain, pinned], registry);
    // The newest 1.2 release; the arm that pins nothing gets the suite's own set.
    expect(calls()).toEqual([{}, { fakefw: '1.2.3' }]);
    expect(asked).toEqual(['fakefw']);
    expect(plain.record.packages?.map((p) => [p.name, p.version, p.set, p.integrity])).toEqual([
      ['fakefw', '1.0.0', 'fixture', 'sha512-fakefw1.0.0'],
      ['fakefw-adapter', '2.0.0', 'fixture', undefined],
    ]);
    expect(pinned.record.packages?.map((p) => [p.name, p.version])).toEqual([
      ['fakefw', '1.2.3'],
      ['fakefw-adapter', '2.0.0'],
    ]);
  });

  it('install into the library store RTBENCH_LIBRARY_CACHE names, else the cache\'s libraries folder', () => {
    const before = process.env.RTBENCH_LIBRARY_CACHE;
    try {
      process.env.RTBENCH_LIBRARY_CACHE = '/shared/libraries';
      expect(storePolicy('libraries').dir).toBe('/shared/libraries');
      // Only the library store moves.
      expect(storePolicy('runtimes').dir).not.toContain('/shared');
      delete process.env.RTBENCH_LIBRARY_CACHE;
      expect(storePolicy('libraries').dir).toMatch(/[\\/]libraries$/);
      expect(storePolicy('libraries').dir).not.toContain('/shared');
    } finally {
      if (before === undefined) delete process.env.RTBENCH_LIBRARY_CACHE;
      else process.env.RTBENCH_LIBRARY_CACHE = before;
    }
  });

  it('tell prepare what the runtimes of the arms with its packages serve: the server, the handler, or both', async () => {
    const workerdArm = (text: string): ResolvedVariant => ({ ...armOf(text), plugin: pluginNamed('workerd')! });
    await pinPackages(suite, [armOf('node'), armOf('node fakefw@1.2.x'), workerdArm('workerd fakefw@1.2.x')], registry);
    expect(calls()).toEqual([{}, { fakefw: '1.2.3' }, { fakefw: '1.2.3' }]);
    // The app as it is on node alone: its server; the pinned set on node and workerd: both, for each of its arms.
    expect(serves()).toEqual([['server'], ['server', 'handler'], ['server', 'handler']]);
  });

  it("return the arms an app's failed build costs, prepared again with what their own runtime serves; the others' records written", async () => {
    const workerdArm = (text: string): ResolvedVariant => ({ ...armOf(text), plugin: pluginNamed('workerd')! });
    const nodeArm = armOf('node fakefw@1.0.1');
    const failed = await pinPackages(suite, [nodeArm, workerdArm('workerd fakefw@1.0.1')], registry);
    expect(failed.map((v) => [v.spec.id, v.kind, v.reason])).toEqual([['workerd fakefw@1.0.1', 'build', 'the Workers side was not built: fakefw build failed (exit 1): no worker']]);
    expect(nodeArm.record.packages?.map((p) => [p.name, p.version])).toEqual([
      ['fakefw', '1.0.1'],
      ['fakefw-adapter', '2.0.0'],
    ]);
    // Each arm first with both sides (one build for the two), then with its own side alone.
    expect(serves()).toEqual([['server', 'handler'], ['server'], ['server', 'handler'], ['handler']]);
    // The Node.js side alone asks no Workers edition: nothing fails (a preparation failing otherwise refuses the run: below).
    expect(await pinPackages(suite, [armOf('node fakefw@1.0.1')], registry)).toEqual([]);
  });

  it('refuse a version the registry lacks, a path, and a failed preparation, each in one line naming the arm', async () => {
    await expect(pinPackages(suite, [armOf('node fakefw@9.9.9')], registry)).rejects.toThrow(/^node fakefw@9\.9\.9: fakefw has no release 9\.9\.9 on npm \(the newest is 2\.0\.0\)$/);
    // A list that is only what this machine holds says so, never "on npm".
    const held: VersionsOf = Object.assign(registry.bind(undefined), { offline: 'RTBENCH_NO_INSTALL is set' });
    await expect(pinPackages(suite, [armOf('node fakefw@9.9.9')], held)).rejects.toThrow(/^node fakefw@9\.9\.9: fakefw has no release 9\.9\.9 among the versions this machine holds \(RTBENCH_NO_INSTALL is set, so npm was not asked\) \(the newest is 2\.0\.0\)$/);
    await expect(pinPackages(suite, [armOf('node fakefw=/src/fakefw')], registry)).rejects.toThrow(/^node fakefw=\/src\/fakefw: fakefw is installed by the suite itself, from npm: pin a version \(fakefw@<version>\), not a folder$/);
    await expect(pinPackages(suite, [armOf('node fakefw@0.0.1')], registry)).rejects.toThrow(/^node fakefw@0\.0\.1: fakefw build failed \(exit 1\): broken$/);
    // Nothing was prepared for an arm refused before its preparation.
    expect(calls()).toEqual([{ fakefw: '0.0.1' }]);
  });

  it("check every arm before preparing any: a version the registry lacks or the suite refuses in a later arm prepares nothing", async () => {
    await expect(pinPackages(suite, [armOf('node fakefw@1.2.3'), armOf('node fakefw@2.0.0')], registry)).rejects.toThrow(/^node fakefw@2\.0\.0: fakefw-adapter 2\.0\.0 supports fakefw \^1\.0\.0, not 2\.0\.0$/);
    await expect(pinPackages(suite, [armOf('node fakefw@1.2.3'), armOf('node fakefw@9.9.9')], registry)).rejects.toThrow(/^node fakefw@9\.9\.9: fakefw has no release 9\.9\.9/);
    expect(calls()).toEqual([]);
  });

  it('refuse an exact version the suite refuses before asking the registry whether it exists', async () => {
    await expect(pinPackages(suite, [armOf('node fakefw@2.0.0')], registry)).rejects.toThrow(/^node fakefw@2\.0\.0: fakefw-adapter 2\.0\.0 supports fakefw \^1\.0\.0, not 2\.0\.0$/);
    expect(asked).toEqual([]);
    // An x-range is its newest release in range: the registry says which before the suite is asked.
    await expect(pinPackages(suite, [armOf('node fakefw@2.0.x')], registry)).rejects.toThrow(/supports fakefw \^1\.0\.0, not 2\.0\.0$/);
    expect(asked).toEqual(['fakefw']);
    expect(calls()).toEqual([]);
  });

  it('resolve an exact pin of a set the cache holds without the registry, and ask it for one the cache lacks', async () => {
    // A set as a declaration's prepare leaves it in the library cache: npm's install, faked, with its record.
    const cached = { fakefw: '1.2.77', 'fakefw-adapter': '2.0.0' };
    const libraries = new LibraryStore({
      ...storePolicy('libraries'),
      log: () => {},
      setInstaller: {
        async install(specs, dir) {
          const lock: Record<string, { version: string; integrity: string }> = {};
          for (const [name, version] of Object.entries(cached)) {
            mkdirSync(join(dir, 'node_modules', name), { recursive: true });
            writeFileSync(join(dir, 'node_modules', name, 'package.json'), JSON.stringify({ name, version }));
            lock[`node_modules/${name}`] = { version, integrity: `sha512-${name}` };
          }
          writeFileSync(join(dir, 'node_modules', '.package-lock.json'), JSON.stringify({ packages: lock }));
        },
        command: () => 'npm install',
      },
    });
    const { root } = await libraries.getSet('installed-pins-test', cached);
    // npm's registry is one that counts every connection: the npm client (npm view) would reach it.
    const connections: Socket[] = [];
    const registryServer = createServer((socket) => void connections.push(socket.destroy()));
    await new Promise<void>((resolve) => registryServer.listen(0, '127.0.0.1', resolve));
    const before = process.env.npm_config_registry;
    process.env.npm_config_registry = `http://127.0.0.1:${(registryServer.address() as AddressInfo).port}/`;
    try {
      const pinned = armOf('node fakefw@1.2.77');
      await pinPackages(suite, [pinned]);
      expect(calls()).toEqual([{ fakefw: '1.2.77' }]);
      expect(connections).toHaveLength(0);
      // Not cached: the registry says whether it exists.
      await pinPackages(suite, [armOf('node fakefw@1.2.3')], registry);
      expect(asked).toEqual(['fakefw']);
      expect(calls().at(-1)).toEqual({ fakefw: '1.2.3' });
    } finally {
      if (before === undefined) delete process.env.npm_config_registry;
      else process.env.npm_config_registry = before;
      registryServer.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('record each package once, as installed', () => {
    const one = { name: 'a', version: '1.0.0', dir: '/x/a', sha256: 'd'.repeat(64), set: 's' };
    expect(installedRecord([one, { ...one, version: '2.0.0' }])).toEqual([one]);
  });
});
