/**
 * The packages a bundle holds, from esbuild's metafile (bundled-packages.ts):
 * with pinned packages, who on the bundle's own side (reached without
 * passing through a pinned package) imports each. A metafile written by
 * hand over package folders in a scratch folder; no bundler runs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Metafile } from 'esbuild';
import { bundledPackages } from '../src/bundled-packages.ts';

const root = mkdtempSync(join(tmpdir(), 'rtbench-bundled-packages-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
for (const [folder, name] of [['node_modules/a', 'a'], ['node_modules/b', 'b'], ['node_modules/c', 'c'], ['pinned/a', 'a']] as const) {
  mkdirSync(join(root, folder), { recursive: true });
  writeFileSync(join(root, folder, 'package.json'), JSON.stringify({ name, version: folder.startsWith('pinned') ? '2.0.0' : '1.0.0' }));
}

/** suite.ts imports the pinned a and b; b imports its own file and c's; the pinned a imports c too, and d only it imports. */
const imports: Record<string, string[]> = {
  'src/suite.ts': ['pinned/a/index.js', 'node_modules/b/index.js'],
  'pinned/a/index.js': ['node_modules/c/index.js', 'node_modules/d/index.js'],
  'node_modules/b/index.js': ['node_modules/b/lib.js', 'node_modules/c/index.js'],
  'node_modules/b/lib.js': [],
  'node_modules/c/index.js': [],
  'node_modules/d/index.js': [],
};
const metafile = { inputs: Object.fromEntries(Object.entries(imports).map(([input, to]) => [input, { bytes: 1, imports: to.map((path) => ({ path, kind: 'import-statement' })) }])), outputs: {} } as unknown as Metafile;

describe('bundledPackages', () => {
  it("names, with pins, the folders on the bundle's own side that import each package", () => {
    const found = bundledPackages(metafile, root, [{ name: 'a', dir: join(root, 'pinned', 'a') }]);
    expect(found.map((p) => [p.name, p.version, p.importedFrom])).toEqual([
      ['a', '2.0.0', [join(root, 'src')]],
      ['b', '1.0.0', [join(root, 'src')]],
      ['c', '1.0.0', [join(root, 'node_modules', 'b')]],
      // Reached only through the pinned package.
      ['d', '', []],
    ]);
  });

  it('says nothing of importers without pins, and a folder outside node_modules is no package unless pinned', () => {
    const found = bundledPackages(metafile, root);
    expect(found.map((p) => [p.name, p.dir, p.importedFrom])).toEqual([
      ['b', join(root, 'node_modules', 'b'), undefined],
      ['c', join(root, 'node_modules', 'c'), undefined],
      ['d', join(root, 'node_modules', 'd'), undefined],
    ]);
  });

  it("a plugin's module is no file of a package, though its path names one: the package keeps its own folder and version", () => {
    const shim = `rtbench-es-instance:${join(root, 'node_modules', 'b', 'index.js')}.cjs`;
    const withShim = { inputs: { [shim]: { bytes: 1, imports: [] }, ...metafile.inputs } } as unknown as Metafile;
    const b = bundledPackages(withShim, root).find((p) => p.name === 'b')!;
    expect([b.dir, b.version, b.files]).toEqual([join(root, 'node_modules', 'b'), '1.0.0', [join(root, 'node_modules', 'b', 'index.js'), join(root, 'node_modules', 'b', 'lib.js')]]);
  });
});
