/** How a brought file's own code is bundled: what it imports of its harness, and what a CommonJS file reads of its own place. */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleSuite, locateBroughtFile } from '@rtbench/suite-loader';
import { pluginNamed } from '@rtbench/runtime-registry';
import { repositoryWithInstalledMitata, vitePlusProject } from './installed-harness.ts';

const nodeRuntime = pluginNamed('node')!;

describe('a brought file bundled', () => {
  it("resolves to the adapter from a runner module of the file's repository", async () => {
    const dir = repositoryWithInstalledMitata('rtbench-harness-path-bundle-');
    writeFileSync(join(dir, 'snippets', 'map.mjs'), "import { bench, run } from './runner.mjs';\nbench('map', () => [1, 2].map((x) => x));\nawait run();\n");
    const location = locateBroughtFile(join(dir, 'snippets', 'map.mjs'));
    const bundle = await bundleSuite(location.entry, 'harness-path-bundle-test', 'node', nodeRuntime.bundle);
    const text = readFileSync(bundle.path, 'utf8');
    expect(text).not.toContain('the installed mitata ran');
    expect(text).toContain('adapters/src/mitata.ts');
  });

  it("bundles vitest's expect (@vitest/expect, chai) only into a vitest bench file that names expect", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-vitest-expect-bundle-'));
    writeFileSync(join(dir, 'plain.bench.ts'), "import { bench } from 'vitest';\nbench('sum', () => [1, 2].reduce((a, b) => a + b));\n");
    writeFileSync(join(dir, 'asserts.bench.ts'), "import { bench, expect } from 'vitest';\nbench('sum', () => expect([1, 2].reduce((a, b) => a + b)).toBe(3));\n");
    const text = async (file: string) =>
      readFileSync((await bundleSuite(locateBroughtFile(join(dir, file)).entry, `vitest-expect-${file}`, 'node', nodeRuntime.bundle)).path, 'utf8');
    const [plain, asserts] = [await text('plain.bench.ts'), await text('asserts.bench.ts')];
    expect(plain).toContain('adapters/src/vitest-bench.ts');
    expect(plain).not.toContain('adapters/src/vitest-expect.ts');
    expect(plain).not.toContain('@vitest/expect');
    expect(asserts).toContain('adapters/src/vitest-expect.ts');
  });

  it("resolves Vite+'s test entry, by its name and through an npm alias, to the vitest adapter", async () => {
    const dir = vitePlusProject('rtbench-vite-plus-bundle-');
    writeFileSync(join(dir, 'hex.bench.ts'), "import { bench as a } from 'vp/test';\nimport { bench as b } from 'vite-plus/test';\na('x', () => 1);\nb('y', () => 2);\n");
    const text = readFileSync((await bundleSuite(locateBroughtFile(join(dir, 'hex.bench.ts')).entry, 'vite-plus-bundle-test', 'node', nodeRuntime.bundle)).path, 'utf8');
    expect(text).toContain('adapters/src/vitest-bench.ts');
    expect(text).not.toContain('the installed');
  });

  it('bundles a CommonJS file that requires a package with an import and a require entry: its one ES instance', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-dual-package-bundle-'));
    mkdirSync(join(dir, 'bench'));
    mkdirSync(join(dir, 'node_modules', 'dual'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'dual', 'package.json'), JSON.stringify({ name: 'dual', exports: { import: './index.mjs', require: './index.js' } }));
    writeFileSync(join(dir, 'node_modules', 'dual', 'index.mjs'), "export const copy = (x) => ({ ...x, from: 'dual as an es module' });\n");
    writeFileSync(join(dir, 'node_modules', 'dual', 'index.js'), "exports.copy = (x) => ({ ...x, from: 'dual as commonjs' });\n");
    writeFileSync(join(dir, 'bench', 'index.js'), "const { Suite } = require('benchmark');\nconst { copy } = require('dual');\nnew Suite().add('copy', () => copy({ a: 1 })).run();\n");
    const bundle = await bundleSuite(locateBroughtFile(join(dir, 'bench', 'index.js')).entry, 'dual-package-bundle-test', 'node', nodeRuntime.bundle);
    const text = readFileSync(bundle.path, 'utf8');
    expect(text).toContain('dual as an es module');
    expect(text).not.toContain('dual as commonjs');
  });

  it("gives a CommonJS file its own __dirname and a require() for the paths it computes", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-own-place-bundle-'));
    mkdirSync(join(dir, 'bench', 'fixtures'), { recursive: true });
    writeFileSync(join(dir, 'bench', 'fixtures', 'basic.js'), 'module.exports = { a: 1 };\n');
    writeFileSync(
      join(dir, 'bench', 'index.js'),
      [
        "const { join } = require('path');",
        "const { Suite } = require('benchmark');",
        "const own = (__dirname) => __dirname;",
        "const input = require(join(__dirname, 'fixtures', 'basic' + '.js'));",
        "new Suite().add('copy', () => ({ ...input, own: own('x') })).run();",
        '',
      ].join('\n'),
    );
    // A package that finds its own files by __dirname (a native addon's loader) gets its own place too.
    mkdirSync(join(dir, 'node_modules', 'finds-own'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'finds-own', 'package.json'), '{ "name": "finds-own", "main": "index.js" }');
    writeFileSync(join(dir, 'node_modules', 'finds-own', 'index.js'), "module.exports = require('path').join(__dirname, 'build');\n");
    writeFileSync(join(dir, 'bench', 'uses-package.js'), "require('finds-own');\n");
    writeFileSync(join(dir, 'bench', 'index.js'), `require('./uses-package.js');\n${readFileSync(join(dir, 'bench', 'index.js'), 'utf8')}`);
    const location = locateBroughtFile(join(dir, 'bench', 'index.js'));
    const bundle = await bundleSuite(location.entry, 'own-place-bundle-test', 'node', nodeRuntime.bundle);
    const text = readFileSync(bundle.path, 'utf8');
    expect(text).toContain(`join(${JSON.stringify(join(dir, 'bench'))}, "fixtures", "basic.js")`);
    expect(text).toMatch(new RegExp(`createRequire\\(${JSON.stringify(join(dir, 'bench', 'index.js')).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\)\\(join\\(`));
    expect(text).toContain(`join(${JSON.stringify(join(dir, 'node_modules', 'finds-own'))}, "build")`);
    // A parameter of that name is the function's own, not the file's place.
    expect(text).toMatch(/own = \((__dirname\d*)\) => \1;/);
  });
});
