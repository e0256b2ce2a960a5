/**
 * The library store (library-store.ts) with an installer that writes a
 * package folder as npm would: an install is recorded with the registry's
 * integrity and proven on the next use; an entry altered since, or made by
 * hand, is reinstalled (or refused when installing is not allowed); an entry
 * in folders another user controls is refused. No process is started.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LibraryStore, LibraryUnavailableError } from '../src/library-store.ts';
import type { RuntimeInstaller, SetInstaller } from '../src/npm-client.ts';

let root: string;
let installs: string[];
const installer: RuntimeInstaller = {
  async install(pkg, version, dir) {
    installs.push(`${pkg}@${version}`);
    const folder = join(dir, 'node_modules', pkg);
    mkdirSync(join(folder, 'cjs'), { recursive: true });
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: pkg, version }));
    writeFileSync(join(folder, 'cjs', 'index.js'), `module.exports = ${JSON.stringify(version)};\n`);
    writeFileSync(join(dir, 'node_modules', '.package-lock.json'), JSON.stringify({ packages: { [`node_modules/${pkg}`]: { version, integrity: `sha512-of-${version}` } } }));
  },
  command: (pkg, version, dir) => `npm install --prefix ${dir} ${pkg}@${version}`,
};

/** Installs a set as npm would: every named package, and a dependency nobody named. */
const setInstaller: SetInstaller = {
  async install(specs, dir) {
    installs.push(specs.join(' '));
    const lock: Record<string, { version: string; integrity: string }> = {};
    for (const spec of [...specs, 'dep-of-next@1.0.0']) {
      const at = spec.lastIndexOf('@');
      const [pkg, version] = [spec.slice(0, at), spec.slice(at + 1)];
      mkdirSync(join(dir, 'node_modules', pkg), { recursive: true });
      writeFileSync(join(dir, 'node_modules', pkg, 'package.json'), JSON.stringify({ name: pkg, version }));
      lock[`node_modules/${pkg}`] = { version, integrity: `sha512-of-${pkg}-${version}` };
    }
    writeFileSync(join(dir, 'node_modules', '.package-lock.json'), JSON.stringify({ packages: lock }));
  },
  command: (specs, dir) => `npm install --prefix ${dir} ${specs.join(' ')}`,
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'rtbench-library-store-test-'));
  installs = [];
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const store = (install = true, who?: { owners: number[]; groups: number[] }) => new LibraryStore({ dir: join(root, 'cache', 'libraries'), install, installer, setInstaller, ...(who ? { who } : {}) });

describe('LibraryStore', () => {
  it('installs once, records the integrity, and proves the entry on the next use', async () => {
    const first = await store().get('react', '18.3.1');
    expect(first).toMatchObject({ name: 'react', version: '18.3.1', integrity: 'sha512-of-18.3.1', root: join(root, 'cache', 'libraries', 'react@18.3.1') });
    expect(first.dir).toBe(join(first.root, 'node_modules', 'react'));
    expect(first.sha256).toMatch(/^[0-9a-f]{64}$/);
    const again = await store(false).get('react', '18.3.1');
    expect(again).toEqual(first);
    expect(installs).toEqual(['react@18.3.1']);
  });

  it('reinstalls an entry altered since it was installed, and refuses it when installing is not allowed', async () => {
    const { dir } = await store().get('react', '18.3.1');
    appendFileSync(join(dir, 'cjs', 'index.js'), 'globalThis.forged = true;\n');
    await expect(store(false).get('react', '18.3.1')).rejects.toThrow(/^the cached react@18\.3\.1 folder has \d+ bytes, \d+ when installed; reinstall it with: rm -rf /);
    await store().get('react', '18.3.1');
    expect(installs).toEqual(['react@18.3.1', 'react@18.3.1']);
  });

  it('refuses an entry made by hand, without a record rtbench wrote', async () => {
    const entry = join(root, 'cache', 'libraries', 'react@18.3.1');
    await installer.install('react', '18.3.1', entry);
    installs = [];
    await expect(store(false).get('react', '18.3.1')).rejects.toThrow(/has no install record rtbench wrote/);
    expect(installs).toEqual([]);
  });

  it("refuses an entry in folders another user controls", async () => {
    await store().get('react', '18.3.1');
    const error = await store(true, { owners: [4242], groups: [4242] }).get('react', '18.3.1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LibraryUnavailableError);
    expect((error as Error).message).toMatch(/^rtbench will not bundle react@18\.3\.1 from its cache: .* so another user could decide what runs/);
    expect(installs).toEqual(['react@18.3.1']);
  });

  describe('a set installed together', () => {
    const SET = { next: '16.4.6', '@types/react': '19.3.0' };

    it('is one entry named by the set, installed once, its named packages proven and their integrity kept', async () => {
      const first = await store().getSet('next-page', SET);
      expect(first.root).toMatch(/\/next-page@[0-9a-f]{12}$/);
      expect(first.versions).toEqual(SET);
      expect(first.integrity).toEqual({ '@types/react': 'sha512-of-@types/react-19.3.0', next: 'sha512-of-next-16.4.6' });
      expect(await store(false).getSet('next-page', { '@types/react': '19.3.0', next: '16.4.6' })).toEqual(first);
      expect(installs).toEqual(['@types/react@19.3.0 next@16.4.6']);
      // Another version is another set.
      expect((await store().getSet('next-page', { ...SET, next: '16.4.5' })).root).not.toBe(first.root);
    });

    it('holds each package npm installed in it, at the version it installed, and nothing an entry without a record claims', async () => {
      expect(store().holds('next', '16.4.6')).toBe(false);
      await store().getSet('next-page', SET);
      expect(store().holds('next', '16.4.6')).toBe(true);
      expect(store().holds('dep-of-next', '1.0.0')).toBe(true);
      expect(store().holds('next', '16.4.5')).toBe(false);
      expect(store().holds('react', '18.3.1')).toBe(false);
      // Made by hand (no record rtbench wrote): what it claims to hold is not taken for the registry's word.
      await setInstaller.install(['next@16.4.1'], join(root, 'cache', 'libraries', 'by-hand@0'));
      expect(store().holds('next', '16.4.1')).toBe(false);
      await store().get('react', '18.3.1');
      expect(store().holds('react', '18.3.1')).toBe(true);
    });

    it('refuses a named package altered since, when installing is not allowed, and says what it is when it is not installed', async () => {
      const { root: entry } = await store().getSet('next-page', SET);
      appendFileSync(join(entry, 'node_modules', 'next', 'package.json'), ' ');
      await expect(store(false).getSet('next-page', SET)).rejects.toThrow(/^the cached next-page \(@types\/react@19\.3\.0, next@16\.4\.6\) folder has \d+ bytes, \d+ when installed; reinstall it with: rm -rf .* && npm install --prefix /);
      await expect(store(false).getSet('next-page', { next: '15.0.0' })).rejects.toThrow(/^next-page \(next@15\.0\.0\) is not installed; install it with: npm install --prefix \S+ next@15\.0\.0$/);
    });
  });
});
