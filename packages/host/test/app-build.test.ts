/**
 * What every app's build shares, on the host: the cache key follows the
 * app's source (links followed), the toolchain's versions and what its package manager
 * records it installed (never the installed packages' files, nor its place),
 * and a failed step is one line quoting the last error it printed, not a
 * count of errors or a package manager's wrapper; a build made afresh is
 * proven when whole and leaves nothing when it fails; only an edition
 * without a whole build is built, under a lock. A Next.js app asked
 * for its Node.js side alone reuses a whole build the cache holds. An
 * arm's install is kept apart from the app's copies, so two checkouts
 * pointed at one folder of installs install it once.
 */
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppBuildFailed, appBuildKey, buildAfresh, buildEditions, cachedBuildProblem, failedEditions, isAppBuildFailure, lastError, withBuildLock, type Edition } from '../src/app-build.ts';
import { appInstallDir, appPackageManager, appWithVersions, lockedIntegrity, pinnedManifest, seedFromApp } from '../src/app-versions.ts';

describe("an app's build", () => {
  it('is keyed by its source files and versions, not by node_modules or .git', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-app-build-'));
    writeFileSync(join(dir, 'page.js'), 'export default 1;\n');
    const key = appBuildKey(dir, { next: '16.4.6' });
    mkdirSync(join(dir, 'node_modules', 'x'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'x', 'index.js'), '');
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, '.git', 'HEAD'), 'ref: main\n');
    expect(appBuildKey(dir, { next: '16.4.6' })).toBe(key);
    expect(appBuildKey(dir, { next: '16.4.5' })).not.toBe(key);
    writeFileSync(join(dir, 'page.js'), 'export default 2;\n');
    expect(appBuildKey(dir, { next: '16.4.6' })).not.toBe(key);
  });

  it('is keyed by content, not place: the same app elsewhere has its key; what its package manager records it installed is in it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-app-build-'));
    writeFileSync(join(dir, 'page.js'), 'export default 1;\n');
    mkdirSync(join(dir, 'node_modules'));
    writeFileSync(join(dir, 'node_modules', '.package-lock.json'), JSON.stringify({ packages: { 'node_modules/vite': { version: '8.0.0' } } }));
    const key = appBuildKey(dir, { vite: '8.0.0' });
    const elsewhere = mkdtempSync(join(tmpdir(), 'rtbench-app-elsewhere-'));
    cpSync(dir, elsewhere, { recursive: true });
    expect(appBuildKey(elsewhere, { vite: '8.0.0' })).toBe(key);
    // Another version of any installed package (npm's record of node_modules) is another build.
    writeFileSync(join(dir, 'node_modules', '.package-lock.json'), JSON.stringify({ packages: { 'node_modules/vite': { version: '8.0.1' } } }));
    expect(appBuildKey(dir, { vite: '8.0.0' })).not.toBe(key);
  });

  it('is keyed by what its links lead to: a linked file or a file in a linked folder that changes is another build; a link back up is read once', () => {
    const outside = mkdtempSync(join(tmpdir(), 'rtbench-app-linked-'));
    writeFileSync(join(outside, 'shared.js'), 'export const n = 1;\n');
    mkdirSync(join(outside, 'lib'));
    writeFileSync(join(outside, 'lib', 'util.js'), 'export const u = 1;\n');
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-app-build-'));
    writeFileSync(join(dir, 'page.js'), 'export default 1;\n');
    symlinkSync(join(outside, 'shared.js'), join(dir, 'shared.js'));
    symlinkSync(join(outside, 'lib'), join(dir, 'lib'));
    // A link to the app's own folder, and one that leads nowhere: neither loops nor fails.
    symlinkSync(dir, join(dir, 'self'));
    symlinkSync(join(outside, 'gone.js'), join(dir, 'gone.js'));
    const key = appBuildKey(dir, { vite: '8.0.0' });
    expect(appBuildKey(dir, { vite: '8.0.0' })).toBe(key);
    writeFileSync(join(outside, 'shared.js'), 'export const n = 2;\n');
    const afterFile = appBuildKey(dir, { vite: '8.0.0' });
    expect(afterFile).not.toBe(key);
    writeFileSync(join(outside, 'lib', 'util.js'), 'export const u = 2;\n');
    expect(appBuildKey(dir, { vite: '8.0.0' })).not.toBe(afterFile);
  });

  it("is keyed by the files of a package linked from a folder of its own, not by one linked into a store's node_modules", () => {
    const lib = mkdtempSync(join(tmpdir(), 'rtbench-app-lib-'));
    writeFileSync(join(lib, 'index.js'), 'export const n = 1;\n');
    const store = join(mkdtempSync(join(tmpdir(), 'rtbench-app-store-')), 'node_modules', 'dep');
    mkdirSync(store, { recursive: true });
    writeFileSync(join(store, 'index.js'), 'export const d = 1;\n');
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-app-build-'));
    writeFileSync(join(dir, 'page.js'), 'export default 1;\n');
    mkdirSync(join(dir, 'node_modules', '@app'), { recursive: true });
    symlinkSync(lib, join(dir, 'node_modules', '@app', 'lib'));
    symlinkSync(store, join(dir, 'node_modules', 'dep'));
    const key = appBuildKey(dir, { vite: '8.0.0' });
    writeFileSync(join(store, 'index.js'), 'export const d = 2;\n');
    expect(appBuildKey(dir, { vite: '8.0.0' })).toBe(key);
    writeFileSync(join(lib, 'index.js'), 'export const n = 2;\n');
    expect(appBuildKey(dir, { vite: '8.0.0' })).not.toBe(key);
  });

  it('builds only the editions without a whole build, once, and reuses them after', () => {
    const app = mkdtempSync(join(tmpdir(), 'rtbench-app-editions-'));
    writeFileSync(join(app, 'page.js'), 'export default 1;\n');
    const root = mkdtempSync(join(tmpdir(), 'rtbench-app-builds-'));
    const built: Edition[] = [];
    const said: string[] = [];
    const input = (editions: readonly Edition[]) => ({
      appDir: app,
      root,
      versions: { vite: '8.0.0' },
      editions,
      what: 'a stand-in',
      say: (line: string) => void said.push(line),
      buildOne: (edition: Edition, dir: string) => {
        built.push(edition);
        mkdirSync(dir, { mode: 0o700 });
        writeFileSync(join(dir, 'out.js'), edition);
      },
    });
    const node = buildEditions(input(['node']));
    expect([node.built, built]).toEqual([true, ['node']]);
    // The Workers edition asked beside it: the Node.js one (which another run may be serving) is kept as it is.
    const both = buildEditions(input(['node', 'workers']));
    expect([both.built, built]).toEqual([true, ['node', 'workers']]);
    expect(both.dirs.node).toBe(node.dirs.node);
    expect(buildEditions(input(['node', 'workers'])).built).toBe(false);
    expect(built).toEqual(['node', 'workers']);
    expect(said.filter((l) => l.startsWith('building the app'))).toHaveLength(2);
    // No lock is left behind.
    expect(readdirSync(root).filter((f) => f.includes('.lock'))).toEqual([]);
  });

  it('goes on past an edition whose build failed: the others are built and kept, and the failure names each failed edition with its line', () => {
    const app = mkdtempSync(join(tmpdir(), 'rtbench-app-editions-'));
    writeFileSync(join(app, 'page.js'), 'export default 1;\n');
    const root = mkdtempSync(join(tmpdir(), 'rtbench-app-builds-'));
    const built: Edition[] = [];
    const input = (editions: readonly Edition[], fails: readonly Edition[]) => ({
      appDir: app,
      root,
      versions: { vite: '8.0.0' },
      editions,
      what: 'a stand-in',
      buildOne: (edition: Edition, dir: string) => {
        built.push(edition);
        mkdirSync(dir, { mode: 0o700 });
        if (fails.includes(edition)) throw new AppBuildFailed(`vite build (${edition}) failed (exit 1): Error: no ${edition} here`);
        writeFileSync(join(dir, 'out.js'), edition);
      },
    });
    // The Node.js edition fails first; the Workers one is still built.
    const error = (() => {
      try {
        buildEditions(input(['node', 'workers'], ['node']));
      } catch (thrown) {
        return thrown;
      }
      throw new Error('the build did not fail');
    })();
    expect(isAppBuildFailure(error)).toBe(true);
    expect(failedEditions(error)).toEqual({ node: 'vite build (node) failed (exit 1): Error: no node here' });
    expect((error as Error).message).toBe('vite build (node) failed (exit 1): Error: no node here');
    expect(built).toEqual(['node', 'workers']);
    // The Workers edition was kept whole (asked alone, it is reused); the failed one left no folder and is built again.
    expect(buildEditions(input(['workers'], [])).built).toBe(false);
    const again = buildEditions(input(['node', 'workers'], []));
    expect([again.built, built]).toEqual([true, ['node', 'workers', 'node']]);
    // Both failing: one line each, in the editions' order.
    const both = mkdtempSync(join(tmpdir(), 'rtbench-app-builds-'));
    expect(() => buildEditions({ ...input(['node', 'workers'], ['node', 'workers']), root: both })).toThrow(
      'vite build (node) failed (exit 1): Error: no node here; vite build (workers) failed (exit 1): Error: no workers here',
    );
    // An error that is no build's failure (rtbench's own) is not taken for one.
    expect(isAppBuildFailure(new Error('ENOSPC'))).toBe(false);
    expect(failedEditions(new AppBuildFailed('one line'))).toBeUndefined();
  });

  it("takes over a lock whose process is gone, waits for none that is free, and releases it when the work throws", () => {
    const root = mkdtempSync(join(tmpdir(), 'rtbench-app-lock-'));
    const lock = join(root, 'key.lock');
    // Waiting would be a failure here (thrown, never a wait that hangs the test).
    const never = (pid: number): never => {
      throw new Error(`waited for ${pid}`);
    };
    // The largest pid Linux allows is 4194304: this one runs no process.
    writeFileSync(lock, '2147483646\n');
    expect(withBuildLock(lock, () => readFileSync(lock, 'utf8'), never)).toBe(`${process.pid}\n`);
    expect(existsSync(lock)).toBe(false);
    expect(() => withBuildLock(lock, () => { throw new Error('vite build failed'); }, never)).toThrow('vite build failed');
    expect(existsSync(lock)).toBe(false);
    expect(withBuildLock(lock, () => 'built again', never)).toBe('built again');
    expect(readdirSync(root)).toEqual([]);
  });

  it("stops waiting for a live holder's build after its bound, naming the holder and its lock, and leaves that lock alone", () => {
    const root = mkdtempSync(join(tmpdir(), 'rtbench-app-lock-'));
    const lock = join(root, 'key.lock');
    // The test's parent process runs while the test does: a live holder.
    writeFileSync(lock, `${process.ppid}\n`);
    const said: number[] = [];
    let worked = false;
    expect(() => withBuildLock(lock, () => (worked = true), (pid) => said.push(pid), 300)).toThrow(new RegExp(`^another rtbench \\(pid ${process.ppid}\\) has been building this app .*${lock.replace(/[.]/g, '\\.')}`));
    expect(worked).toBe(false);
    expect(said).toEqual([process.ppid]);
    expect(readdirSync(root)).toEqual(['key.lock']);
    expect(readFileSync(lock, 'utf8')).toBe(`${process.ppid}\n`);
  });

  it("quotes a failed step's last error, not the count of them nor npm's wrapper", () => {
    const esbuild = ['vite v6.0.0 building for production...', '✘ [ERROR] Could not resolve "./missing.js"', '    src/app.js:1:7:', 'error during build:', 'Error: Build failed with 1 error:', 'npm error code 1'].join('\n');
    expect(lastError(esbuild)).toBe('✘ [ERROR] Could not resolve "./missing.js"');
    expect(lastError('\x1b[31mType error: x is not a string\x1b[0m\n    at f (a.js:1:1)\nELIFECYCLE Command failed.')).toBe('Type error: x is not a string');
    expect(lastError('compiled\nexited')).toBe('exited');
    // vite's failure: the error's own line, not the property Node.js printed of the error object after its stack.
    const vite = ['error during build:', 'Build failed with 1 error:', '', '[plugin vite-plugin-svelte:compile] src/routes/+page.svelte:6:17', 'RolldownError: src/routes/+page.svelte:6:17 Unterminated regular expression', 'https://svelte.dev/e/js_parse_error', '    at unwrapBindingResult (file:///a.mjs:20:128)', '  errors: [Getter/Setter]', '}'].join('\n');
    expect(lastError(vite)).toBe('RolldownError: src/routes/+page.svelte:6:17 Unterminated regular expression');
    expect(lastError('')).toBe('no output');
  });

  it('made afresh: proven once whole; a build that throws leaves no folder and no proof', () => {
    const root = mkdtempSync(join(tmpdir(), 'rtbench-app-afresh-'));
    const dir = join(root, 'build');
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, 'stale.js'), 'old');
    buildAfresh(dir, () => {
      mkdirSync(dir, { mode: 0o700 });
      writeFileSync(join(dir, 'out.js'), 'built');
    });
    expect(existsSync(join(dir, 'stale.js'))).toBe(false);
    expect(cachedBuildProblem(dir)).toBeUndefined();
    expect(() =>
      buildAfresh(dir, () => {
        mkdirSync(dir, { mode: 0o700 });
        throw new Error('vite build failed');
      }),
    ).toThrow('vite build failed');
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(`${dir}.proof.json`)).toBe(false);
  });
});

describe('an app with other versions of its packages (an arm), made in a copy', () => {
  it("writes each pin into the dependency list that declares it, and nothing else", () => {
    const text = JSON.stringify({ name: 'app', dependencies: { react: '^19.2.0', 'react-dom': '^19.2.0' }, devDependencies: { next: '15.5.0', typescript: '^5' } });
    const pinned = JSON.parse(pinnedManifest(text, { next: '15.4.6', react: '19.1.0', undeclared: '1.0.0' })) as Record<string, Record<string, string>>;
    expect(pinned.dependencies).toEqual({ react: '19.1.0', 'react-dom': '^19.2.0' });
    expect(pinned.devDependencies).toEqual({ next: '15.4.6', typescript: '^5' });
    expect(JSON.stringify(pinned)).not.toContain('undeclared');
  });

  it("installs with the app's own package manager: pnpm for a pnpm lockfile (at the version it names), npm otherwise, saying when a lockfile is not read", () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-app-versions-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ packageManager: 'pnpm@9.15.4+sha512.abc' }));
    expect(appPackageManager(dir)).toEqual({ name: 'npm', command: 'npm', args: expect.arrayContaining(['install', '--ignore-scripts']) });
    writeFileSync(join(dir, 'pnpm-lock.yaml'), "lockfileVersion: '9.0'\n");
    expect(appPackageManager(dir)).toMatchObject({ name: 'pnpm', args: expect.arrayContaining(['pnpm@9.15.4', 'install', '--no-frozen-lockfile', '--ignore-scripts']) });
    const yarn = mkdtempSync(join(tmpdir(), 'rtbench-app-versions-'));
    writeFileSync(join(yarn, 'package.json'), '{}');
    writeFileSync(join(yarn, 'yarn.lock'), '');
    expect(appPackageManager(yarn)).toMatchObject({ name: 'npm', note: "the app's yarn.lock is not read: npm installs the copy from its package.json" });
  });

  it("starts npm from a copy of the app's installed packages, never from a link out of them", () => {
    const root = mkdtempSync(join(tmpdir(), 'rtbench-app-seed-'));
    const app = join(root, 'app');
    mkdirSync(join(app, 'node_modules', 'pkg'), { recursive: true });
    mkdirSync(join(app, 'node_modules', '.bin'));
    mkdirSync(join(root, 'elsewhere'));
    writeFileSync(join(app, 'node_modules', 'pkg', 'index.js'), 'export {};\n');
    symlinkSync('../pkg/index.js', join(app, 'node_modules', '.bin', 'pkg'));
    symlinkSync('../../elsewhere', join(app, 'node_modules', 'out'));
    symlinkSync(join(app, 'node_modules', 'pkg'), join(app, 'node_modules', 'absolute'));
    const copy = join(root, 'copy');
    mkdirSync(copy);
    seedFromApp(app, copy);
    expect(readFileSync(join(copy, 'node_modules', 'pkg', 'index.js'), 'utf8')).toBe('export {};\n');
    // The link inside stays relative, so it points into the copy; the others are npm's to make.
    expect(readlinkSync(join(copy, 'node_modules', '.bin', 'pkg'))).toBe('../pkg/index.js');
    expect(existsSync(join(copy, 'node_modules', 'out'))).toBe(false);
    expect(() => lstatSync(join(copy, 'node_modules', 'absolute'))).toThrow();
    // An app whose node_modules is itself a link is not copied from.
    const linked = join(root, 'linked');
    mkdirSync(linked);
    symlinkSync(join(app, 'node_modules'), join(linked, 'node_modules'), 'dir');
    const copy2 = join(root, 'copy2');
    mkdirSync(copy2);
    seedFromApp(linked, copy2);
    expect(existsSync(join(copy2, 'node_modules'))).toBe(false);
  });

  it('reads the integrity of the version installed from the lockfile, npm or pnpm', () => {
    const npmLock = JSON.stringify({ packages: { 'node_modules/svelte': { version: '5.57.2', integrity: 'sha512-npm' } } });
    expect(lockedIntegrity(npmLock, 'npm', 'svelte', '5.57.2')).toBe('sha512-npm');
    expect(lockedIntegrity(npmLock, 'npm', 'svelte', '5.57.3')).toBeUndefined();
    const pnpmLock = "packages:\n\n  '@sveltejs/kit@2.70.4':\n    resolution: {integrity: sha512-kit+/=}\n\n  svelte@5.57.2:\n    resolution: {integrity: sha512-svelte}\n";
    expect(lockedIntegrity(pnpmLock, 'pnpm', '@sveltejs/kit', '2.70.4')).toBe('sha512-kit+/=');
    expect(lockedIntegrity(pnpmLock, 'pnpm', 'svelte', '5.57.2')).toBe('sha512-svelte');
    expect(lockedIntegrity(pnpmLock, 'pnpm', 'svelte', '5.57.1')).toBeUndefined();
  });
  it('keeps the install in the folder of installs, apart from the copy: two checkouts share it, installing nothing again', () => {
    const root = mkdtempSync(join(tmpdir(), 'rtbench-app-installs-'));
    const app = join(root, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', dependencies: { pkg: '1.0.0' } }));
    writeFileSync(join(app, 'page.js'), 'export default 1;\n');
    const lock = JSON.stringify({ packages: { 'node_modules/pkg': { version: '2.0.0', integrity: 'sha512-two' } } });
    writeFileSync(join(app, 'package-lock.json'), lock);
    // The install a first checkout made: whole (its marker written), in the shared folder.
    const installs = join(root, 'shared-installs');
    const install = appInstallDir(app, installs, { pkg: '2.0.0' });
    mkdirSync(join(install, 'node_modules', 'pkg'), { recursive: true });
    writeFileSync(join(install, 'node_modules', 'pkg', 'package.json'), JSON.stringify({ name: 'pkg', version: '2.0.0' }));
    writeFileSync(join(install, 'package-lock.json'), lock);
    writeFileSync(join(install, '.rtbench-installed'), 'pkg@2.0.0\n');
    // Not named by the app's path: the same app elsewhere has the same install.
    expect(install.startsWith(installs)).toBe(true);
    for (const checkout of ['a', 'b']) {
      const said: string[] = [];
      const made = appWithVersions(app, { copies: join(root, checkout, 'versions'), installs }, { pkg: '2.0.0' }, (line) => said.push(line));
      expect(said, checkout).toEqual([]);
      expect(made.dir.startsWith(join(root, checkout, 'versions')), made.dir).toBe(true);
      expect(readFileSync(join(made.dir, 'page.js'), 'utf8')).toBe('export default 1;\n');
      expect(realpathSync(join(made.dir, 'node_modules'))).toBe(realpathSync(join(install, 'node_modules')));
      expect(made.packages).toEqual([{ name: 'pkg', version: '2.0.0', dir: realpathSync(join(install, 'node_modules', 'pkg')), integrity: 'sha512-two' }]);
    }
    // A copy an older rtbench linked to the install it kept beside the copies is linked again to the shared one.
    const older = appWithVersions(app, { copies: join(root, 'a', 'versions'), installs }, { pkg: '2.0.0' });
    rmSync(join(older.dir, 'node_modules'));
    mkdirSync(join(root, 'a', 'versions', 'old-install', 'node_modules'), { recursive: true });
    symlinkSync(join(root, 'a', 'versions', 'old-install', 'node_modules'), join(older.dir, 'node_modules'), 'dir');
    appWithVersions(app, { copies: join(root, 'a', 'versions'), installs }, { pkg: '2.0.0' });
    expect(readlinkSync(join(older.dir, 'node_modules'))).toBe(join(install, 'node_modules'));
  });
});
