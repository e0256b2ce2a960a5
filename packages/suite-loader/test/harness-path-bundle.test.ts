/** A harness reached by a path into its installed package is bundled as rtbench's adapter, never as the package's own code. */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleSuite, locateBroughtFile } from '@rtbench/suite-loader';
import { pluginNamed } from '@rtbench/runtime-registry';

const nodeRuntime = pluginNamed('node')!;

describe('a path into an installed harness', () => {
  it("resolves to the adapter from a runner module of the file's repository", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-harness-path-bundle-'));
    mkdirSync(join(dir, 'node_modules', 'mitata', 'src'), { recursive: true });
    mkdirSync(join(dir, 'snippets'));
    writeFileSync(join(dir, 'node_modules', 'mitata', 'src', 'cli.mjs'), "export function bench() { throw new Error('the installed mitata ran'); }\nexport async function run() {}\n");
    writeFileSync(join(dir, 'snippets', 'runner.mjs'), "import * as Mitata from '../node_modules/mitata/src/cli.mjs';\nexport const bench = Mitata.bench;\nexport const run = Mitata.run;\n");
    writeFileSync(join(dir, 'snippets', 'map.mjs'), "import { bench, run } from './runner.mjs';\nbench('map', () => [1, 2].map((x) => x));\nawait run();\n");
    const location = locateBroughtFile(join(dir, 'snippets', 'map.mjs'));
    const bundle = await bundleSuite(location.entry, 'harness-path-bundle-test', 'node', nodeRuntime.bundle);
    const text = readFileSync(bundle.path, 'utf8');
    expect(text).not.toContain('the installed mitata ran');
    expect(text).toContain('adapters/src/mitata.ts');
  });
});
