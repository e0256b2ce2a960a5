/**
 * A module graph of its own in a bundle (module-graphs.ts through the
 * bundler): an import written `with { conditions: … }` is built with those
 * conditions added, so its packages resolve to their conditioned builds and
 * are copies apart from the rest of the bundle's, whose imports keep the
 * runtime's conditions; NODE_ENV reaches inside it, and its packages are
 * named among the bundle's. esbuild runs; no runtime is started (the bundle
 * is imported here to see what it computes).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleProgramFor, type BundledProgram } from '../src/bundler.ts';

const TARGET = { entry: '', platform: 'node' as const, conditions: [] };

let root: string;
let program: BundledProgram;
let value: { outer: string; inner: string; same: boolean };
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'rtbench-module-graphs-test-'));
  // A package with a build for the `react-server` condition (as react has), holding state of its own.
  const pkg = join(root, 'node_modules', 'twofold');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, 'package.json'), '{"name":"twofold","version":"1.2.3","exports":{".":{"react-server":"./server.js","default":"./index.js"}}}');
  writeFileSync(join(pkg, 'index.js'), 'exports.build = "default"; exports.state = {};\n');
  writeFileSync(join(pkg, 'server.js'), 'exports.build = "server " + (process.env.NODE_ENV === "production" ? "prod" : "dev"); exports.state = {};\n');
  writeFileSync(join(root, 'inner.js'), 'import { build, state } from "twofold"; export { build, state };\n');
  writeFileSync(
    join(root, 'entry.js'),
    [
      'import { build, state } from "twofold";',
      'const inner = await import("./inner.js", { with: { conditions: "react-server" } });',
      'export default { outer: build, inner: inner.build, same: inner.state === state };',
    ].join('\n'),
  );
  program = await bundleProgramFor(TARGET, { entry: { file: join(root, 'entry.js') }, dir: join(root, 'cache'), stem: 'p', nodeEnv: { variantValue: undefined }, sourceMap: { absWorkingDir: root, sourceRoot: `${root}/` } });
  value = ((await import(program.path)) as { default: typeof value }).default;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a module graph of its own', () => {
  it("resolves the conditioned import's packages with its conditions, apart from the rest of the bundle", () => {
    expect(value.outer).toBe('default');
    expect(value.inner).toBe('server prod');
    expect(value.same).toBe(false);
  });

  it('names the packages of the inner graph among the bundle\'s, and who reads NODE_ENV there', () => {
    const twofold = program.packages.find((p) => p.name === 'twofold');
    expect(twofold?.version).toBe('1.2.3');
    expect(twofold?.files.map((f) => f.slice(f.lastIndexOf('/') + 1)).sort()).toEqual(['index.js', 'server.js']);
    expect(program.nodeEnv?.readers).toEqual(['twofold']);
  });
});
