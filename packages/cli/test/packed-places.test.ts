/**
 * The CLI's bundle packed with the package (scripts/pack-rtbench.ts): its modules
 * name their places as (package, path in it) at build time
 * (@rtbench/host's cli-bundle.ts packagePlace), and an installed rtbench finds
 * each of its packages as Node does, from the package that depends on it
 * (bin/packed-places.mjs), so a pnpm install, which links a package's
 * dependencies beside it only, gives every module its installed file. That the
 * installed rtbench starts from it: test/installed.test.ts.
 */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { packagePlace } from '../../host/src/cli-bundle.ts';
import { installedPackages, provideModulePlaces } from '../bin/packed-places.mjs';
import { repoRoot, tempFile } from '../../../test/helpers/cli.ts';

const PLACE = Symbol.for('rtbench.modulePlace');

/** A package as pnpm installs it: its files under .pnpm/<name>@1/node_modules/<name>, its dependencies linked beside it. */
function pnpmPackage(store: string, name: string, dependencies: Record<string, string>): string {
  const dir = join(store, `${name.replace('/', '+')}@1`, 'node_modules', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', dependencies }));
  for (const dep of Object.keys(dependencies)) {
    const link = join(store, `${name.replace('/', '+')}@1`, 'node_modules', dep);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(store, `${dep.replace('/', '+')}@1`, 'node_modules', dep), link);
  }
  return dir;
}

afterEach(() => {
  delete (globalThis as Record<symbol, unknown>)[PLACE];
});

describe('the packed bundle\'s module places', () => {
  it('names a source by its package and its path in it', () => {
    expect(packagePlace(join(repoRoot, 'packages/process/src/warden.mjs'))).toEqual({ name: '@rtbench/process', path: 'src/warden.mjs' });
    expect(packagePlace(join(repoRoot, 'runners/node/src/entry.ts'))).toEqual({ name: '@rtbench/runtime-node', path: 'src/entry.ts' });
    expect(packagePlace('/elsewhere/x.ts')).toBeUndefined();
  });

  it('finds every package of rtbench\'s own it depends on, however deep, where pnpm installed it, and no other', () => {
    const store = join(tempFile('installed'), 'node_modules', '.pnpm');
    const cli = pnpmPackage(store, 'rtbench', { '@rtbench/run': '1.0.0', picocolors: '1.0.0' });
    // @rtbench/process is linked beside @rtbench/run only, as pnpm links a package's own dependencies.
    pnpmPackage(store, '@rtbench/run', { '@rtbench/process': '1.0.0' });
    pnpmPackage(store, '@rtbench/process', { '@rtbench/run': '1.0.0' });
    pnpmPackage(store, 'picocolors', {});
    const packages = installedPackages(cli);
    const at = (name: string): string => realpathSync(join(store, `${name.replace('/', '+')}@1`, 'node_modules', name));
    expect(Object.fromEntries(packages)).toEqual({ rtbench: at('rtbench'), '@rtbench/run': at('@rtbench/run'), '@rtbench/process': at('@rtbench/process') });

    provideModulePlaces(packages);
    const place = (globalThis as Record<symbol, unknown>)[PLACE] as (name: string, path: string) => [string, string, string];
    const file = join(at('@rtbench/process'), 'src/warden.mjs');
    expect(place('@rtbench/process', 'src/warden.mjs')).toEqual([pathToFileURL(file).href, dirname(file), file]);
    expect(() => place('@rtbench/report', 'src/x.ts')).toThrow('rtbench\'s packed bundle needs @rtbench/report, which is not installed beside it: reinstall rtbench');
  });
});
