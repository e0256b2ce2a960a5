/** A brought file's format, detected from its text, in the one vocabulary the adapters declare (adapters/formats.ts). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BROUGHT_FORMATS, type BroughtFormat } from '@rtbench/adapters/formats';
import { broughtFileProblem, broughtFormatOfEntry, locateBroughtFile } from '../src/index.ts';
import { repositoryWithInstalledMitata, vitePlusProject } from './installed-harness.ts';

const EXAMPLES: Record<BroughtFormat, string> = {
  mitata: join('examples', 'mitata-json.mjs'),
  tinybench: join('examples', 'tinybench-strings.mjs'),
  'node-core': join('examples', 'node-core', 'benchmark', 'buffers', 'buffer-read-write.js'),
  'node-bench': join('examples', 'node-bench-json.mjs'),
  'deno-bench': join('examples', 'deno-text.bench.ts'),
  vitest: join('examples', 'vitest-strings.bench.ts'),
  'benchmark-js': join('examples', 'benchmark-js-find.cjs'),
};

describe('brought formats', () => {
  it('names each example file by its format, and every declared format has one', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual(Object.keys(BROUGHT_FORMATS).sort());
    for (const [format, file] of Object.entries(EXAMPLES)) {
      expect(broughtFileProblem(file)).toBeUndefined();
      expect(broughtFormatOfEntry(locateBroughtFile(file).entry), file).toBe(format);
    }
  });

  it("is decided from the file's module graph: a runner module of its repository between the file and mitata", () => {
    const file = join('test', 'fixtures', 'brought', 'runner-module', 'bench', 'parse.bench.mjs');
    expect(broughtFileProblem(file)).toBeUndefined();
    expect(broughtFormatOfEntry(locateBroughtFile(file).entry)).toBe('mitata');
  });

  it("is not found in a graph that names no harness, nor through a suite of rtbench's own", () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-graph-'));
    writeFileSync(join(dir, 'helper.mjs'), "import { bench } from 'mitata';\nexport { bench };\n");
    writeFileSync(join(dir, 'plain.mjs'), "import { x } from './other.mjs';\nconsole.log(x);\n");
    writeFileSync(join(dir, 'other.mjs'), 'export const x = 1;\n');
    writeFileSync(join(dir, 'suite.ts'), "import { suite } from '@rtbench/core';\nimport { bench } from './helper.mjs';\nexport default suite('s', () => {});\n");
    expect(broughtFileProblem(join(dir, 'plain.mjs'))).toMatch(/is not a benchmark file or a Worker/);
    expect(broughtFileProblem(join(dir, 'suite.ts'))).toMatch(/is not a benchmark file or a Worker/);
  });

  it("finds a harness its repository's runner reaches by a path into the installed package", () => {
    const dir = repositoryWithInstalledMitata('rtbench-harness-path-');
    writeFileSync(join(dir, 'snippets', 'through-runner.mjs'), "import { bench, run } from './runner.mjs';\nbench('a', () => 1);\nawait run();\n");
    writeFileSync(join(dir, 'snippets', 'direct.mjs'), "import { bench, run } from '../node_modules/mitata/src/cli.mjs';\nbench('a', () => 1);\nawait run();\n");
    writeFileSync(join(dir, 'snippets', 'elsewhere.mjs'), "import { bench } from '../vendor/mitata/src/cli.mjs';\nbench('a', () => 1);\n");
    for (const file of ['through-runner.mjs', 'direct.mjs']) {
      expect(broughtFileProblem(join(dir, 'snippets', file))).toBeUndefined();
      expect(broughtFormatOfEntry(locateBroughtFile(join(dir, 'snippets', file)).entry), file).toBe('mitata');
    }
    expect(broughtFileProblem(join(dir, 'snippets', 'elsewhere.mjs'))).toMatch(/is not a benchmark file or a Worker/);
  });

  it('finds Deno.bench taken out of the global by destructuring', () => {
    const file = join('test', 'fixtures', 'brought', 'deno-destructured.bench.mjs');
    expect(broughtFileProblem(file)).toBeUndefined();
    expect(broughtFormatOfEntry(locateBroughtFile(file).entry)).toBe('deno-bench');
  });

  it('takes a vitest file for a benchmark file when it calls bench(), not when it only tests', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-vitest-'));
    writeFileSync(join(dir, 'x.test.ts'), "import { expect, it } from 'vitest';\nit('adds', () => expect(1 + 1).toBe(2));\n");
    writeFileSync(join(dir, 'x.bench.ts'), "import { bench } from 'vitest';\nbench('adds', () => {\n  void (1 + 1);\n});\n");
    expect(broughtFileProblem(join(dir, 'x.test.ts'))).toMatch(/is not a benchmark file or a Worker/);
    expect(broughtFormatOfEntry(locateBroughtFile(join(dir, 'x.bench.ts')).entry)).toBe('vitest');
  });

  it("takes a file importing bench from Vite+'s test entry for vitest, through an npm alias too, but not another package's test entry", () => {
    const dir = vitePlusProject('rtbench-vite-plus-');
    writeFileSync(join(dir, 'named.bench.ts'), "import { bench } from 'vite-plus/test';\nbench('adds', () => 1 + 1);\n");
    writeFileSync(join(dir, 'alias.bench.ts'), "import { bench, describe } from 'vp/test';\ndescribe('sum', () => bench('adds', () => 1 + 1));\n");
    writeFileSync(join(dir, 'other.bench.ts'), "import { bench } from 'other/test';\nbench('adds', () => 1 + 1);\n");
    expect(broughtFormatOfEntry(locateBroughtFile(join(dir, 'named.bench.ts')).entry)).toBe('vitest');
    expect(broughtFormatOfEntry(locateBroughtFile(join(dir, 'alias.bench.ts')).entry)).toBe('vitest');
    expect(broughtFileProblem(join(dir, 'other.bench.ts'))).toMatch(/is not a benchmark file or a Worker/);
  });

  it("has no format for a suite's own entry", () => {
    expect(broughtFormatOfEntry(join('bench', 'json-reviver', 'index.ts'))).toBeUndefined();
  });
});
