/**
 * What a bundle leaves to the runtime that runs it: a native addon (`.node`)
 * is loaded where it lies by the runtime's createRequire, and on a runtime
 * with no module loader (the neutral platform) throws one line naming it;
 * a bare builtin name no package provides is the Workers runtime's
 * `node:` module there, while one a package provides stays that package;
 * and a builtin required from CommonJS there is imported (an ESM bundle has
 * no require()), the very module the runtime gives.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundleOptions } from '../src/programs.ts';

const dir = mkdtempSync(join(tmpdir(), 'rtbench-runtime-modules-'));
// Not a shared library: the bundler only resolves the file, it never reads it.
writeFileSync(join(dir, 'addon.node'), 'not loaded here');
writeFileSync(join(dir, 'uses-addon.cjs'), "const addon = require('./addon.node');\nmodule.exports = () => addon.hello();\n");
// A platform package whose main is its addon (@napi-rs/*-linux-x64-gnu), required by its name.
mkdirSync(join(dir, 'node_modules', 'addon-linux'), { recursive: true });
writeFileSync(join(dir, 'node_modules', 'addon-linux', 'package.json'), '{ "name": "addon-linux", "main": "addon.linux.node" }');
writeFileSync(join(dir, 'node_modules', 'addon-linux', 'addon.linux.node'), 'not loaded here');
writeFileSync(join(dir, 'uses-addon-package.cjs'), "const addon = require('addon-linux');\nmodule.exports = () => addon.hello();\n");
mkdirSync(join(dir, 'node_modules', 'events'), { recursive: true });
writeFileSync(join(dir, 'node_modules', 'events', 'package.json'), '{ "name": "events", "main": "index.js" }');
writeFileSync(join(dir, 'node_modules', 'events', 'index.js'), "module.exports = 'the events package';\n");
writeFileSync(join(dir, 'bare-import.mjs'), "import { randomBytes } from 'crypto';\nexport default randomBytes;\n");
writeFileSync(join(dir, 'bare.mjs'), "import { gzipSync } from 'zlib';\nimport events from 'events';\nexport default [gzipSync, events];\n");
// A package with an ES and a CommonJS entry (zod's shape), and one whose CommonJS file is `module.exports = fn`, each reached both ways.
function dualPackage(name: string, esm: string, cjs: string): void {
  mkdirSync(join(dir, 'node_modules', name), { recursive: true });
  writeFileSync(join(dir, 'node_modules', name, 'package.json'), JSON.stringify({ name, exports: { '.': { import: './index.mjs', require: './index.cjs' } } }));
  writeFileSync(join(dir, 'node_modules', name, 'index.mjs'), esm);
  writeFileSync(join(dir, 'node_modules', name, 'index.cjs'), cjs);
}
dualPackage('dual', 'export class Schema {}\nexport const made = new Schema();\nexport default Schema;\n', 'class Schema {}\nmodule.exports = { Schema, made: new Schema(), default: Schema };\n');
dualPackage('solo', 'export default function solo() {}\n', 'module.exports = function solo() {};\n');
writeFileSync(join(dir, 'cjs-user.cjs'), "const { Schema } = require('dual');\nmodule.exports = { isSchema: (value) => value instanceof Schema, solo: require('solo') };\n");
writeFileSync(join(dir, 'both-ways.mjs'), "import { made } from 'dual';\nimport solo from 'solo';\nimport user from './cjs-user.cjs';\nexport default { same: user.isSchema(made), soloSame: user.solo === solo };\n");
writeFileSync(join(dir, 'requires-builtins.cjs'), "module.exports = { stream: require('node:stream'), zlib: require('zlib') };\n");

async function bundled(entry: string, platform: 'node' | 'neutral'): Promise<string> {
  // The main fields the Workers runtime's bundle reads (runners/workerd): the neutral platform reads none by default.
  const mainFields = platform === 'neutral' ? { mainFields: ['browser', 'module', 'main'] } : {};
  const result = await build({ ...bundleOptions({ platform, conditions: [], ...mainFields }), entryPoints: [join(dir, entry)], absWorkingDir: dir });
  return result.outputFiles[0]!.text;
}

describe('modules the runtime provides', () => {
  it("a native addon is loaded where it lies by the runtime's createRequire", async () => {
    const code = await bundled('uses-addon.cjs', 'node');
    expect(code).toContain('from "node:module"');
    expect(code).toContain(`(${JSON.stringify(join(dir, 'addon.node'))})`);
    expect(code).not.toContain('not loaded here');
  });

  it('a package whose main is its addon is loaded where it lies, and refused in one line where no loader is', async () => {
    const addon = join(dir, 'node_modules', 'addon-linux', 'addon.linux.node');
    const code = await bundled('uses-addon-package.cjs', 'node');
    expect(code).toContain(`createRequire(${JSON.stringify(addon)})(${JSON.stringify(addon)})`);
    expect(code).not.toContain('not loaded here');
    expect(await bundled('uses-addon-package.cjs', 'neutral')).toContain(`it loads a native addon (${addon}), which only a runtime with Node.js's module loader can load`);
  });

  it('a runtime with no module loader throws one line naming the addon', async () => {
    const code = await bundled('uses-addon.cjs', 'neutral');
    expect(code).toContain(`it loads a native addon (${join(dir, 'addon.node')}), which only a runtime with Node.js's module loader can load`);
    expect(code).not.toContain('node:module');
  });

  it('on the node platform a builtin imported by its bare name is imported under node:, as deno requires', async () => {
    const code = await bundled('bare-import.mjs', 'node');
    expect(code).toContain('from "node:crypto"');
  });

  it("on the neutral platform a bare builtin no package provides is the runtime's node: module; one a package provides stays the package", async () => {
    const code = await bundled('bare.mjs', 'neutral');
    expect(code).toContain('from "node:zlib"');
    expect(code).toContain('the events package');
    expect(code).not.toContain('node:events');
  });

  it("on the neutral platform a builtin required from CommonJS is imported, and require() hands on the runtime's own module", async () => {
    const code = await bundled('requires-builtins.cjs', 'neutral');
    expect(code).not.toContain('Dynamic require of');
    // Node.js serves node:stream and node:zlib as a Workers runtime's nodejs_compat does: the bundle runs here as there.
    const file = join(dir, 'requires-builtins.bundle.mjs');
    writeFileSync(file, code);
    const exported = ((await import(pathToFileURL(file).href)) as { default: { stream: unknown; zlib: unknown } }).default;
    expect(exported.stream).toBe((await import('node:stream')).default);
    expect(exported.zlib).toBe((await import('node:zlib')).default);
  });
});

describe('one copy of each package', () => {
  it('a package reached by import and by require() is one instance: its classes agree across both, on each platform', async () => {
    for (const platform of ['node', 'neutral'] as const) {
      const file = join(dir, `both-ways-${platform}.bundle.mjs`);
      const code = await bundled('both-ways.mjs', platform);
      expect(code, platform).not.toContain('index.cjs');
      writeFileSync(file, code);
      const answer = ((await import(pathToFileURL(file).href)) as { default: unknown }).default;
      expect(answer, platform).toEqual({ same: true, soloSame: true });
    }
  });
});
