/**
 * process.env.NODE_ENV written into a bundle (node-env.ts through the
 * bundler): for the packages that read it, the variant's value or
 * "production"; nothing written when no package reads it, so a suite's own
 * code sees the variant's environment. esbuild runs; no process is started
 * (each bundle is imported here to see what it computes).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundleProgramFor } from '../src/bundler.ts';

const TARGET = { entry: '', platform: 'node' as const, conditions: [] };

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'rtbench-node-env-test-'));
  // A package that picks its build as React does, and one that does not read NODE_ENV.
  mkdirSync(join(root, 'node_modules', '@scope', 'picky'), { recursive: true });
  writeFileSync(join(root, 'node_modules', '@scope', 'picky', 'package.json'), '{"name":"@scope/picky","main":"index.js"}');
  writeFileSync(join(root, 'node_modules', '@scope', 'picky', 'index.js'), 'module.exports = process.env.NODE_ENV === "production" ? "prod build" : "dev build";\n');
  mkdirSync(join(root, 'node_modules', 'plain'), { recursive: true });
  writeFileSync(join(root, 'node_modules', 'plain', 'package.json'), '{"name":"plain","main":"index.js"}');
  writeFileSync(join(root, 'node_modules', 'plain', 'index.js'), 'module.exports = "plain";\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function bundle(source: string, variantValue: string | undefined) {
  writeFileSync(join(root, 'entry.js'), source);
  const program = await bundleProgramFor(TARGET, { entry: { file: join(root, 'entry.js') }, dir: join(root, 'cache'), stem: 'p', nodeEnv: { variantValue }, sourceMap: { absWorkingDir: root, sourceRoot: `${root}/` } });
  // What the bundle computes, run here: the build its package chose.
  const value = ((await import(program.path)) as { default: string }).default;
  return { ...program, code: readFileSync(program.path, 'utf8'), value };
}

describe('NODE_ENV in a bundle', () => {
  it('writes "production" in for a package that reads it when the variant leaves it unset, and names the package', async () => {
    const b = await bundle('import picky from "@scope/picky"; import plain from "plain"; export default picky + plain;', undefined);
    expect(b.nodeEnv).toEqual({ readers: ['@scope/picky'], value: 'production', defaulted: true });
    expect(b.code).not.toContain('process.env.NODE_ENV');
    expect(b.value).toBe('prod buildplain');
  });

  it("writes the variant's own value in when it sets one", async () => {
    const b = await bundle('import picky from "@scope/picky"; export default picky;', 'development');
    expect(b.nodeEnv).toEqual({ readers: ['@scope/picky'], value: 'development', defaulted: false });
    expect(b.code).not.toContain('process.env.NODE_ENV');
    expect(b.value).toBe('dev build');
  });

  it("leaves a suite's own read of process.env.NODE_ENV alone when no bundled package reads it", async () => {
    const b = await bundle('import plain from "plain"; export default plain + process.env.NODE_ENV;', undefined);
    expect(b.nodeEnv).toEqual({ readers: [], value: 'production', defaulted: true });
    expect(b.code).toContain('process.env.NODE_ENV');
    expect(b.value).toBe(`plain${process.env.NODE_ENV}`);
  });
});
