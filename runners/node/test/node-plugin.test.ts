/** The Node.js plugin against real node processes from the npm packages. */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FlagError, RuntimeUnavailableError } from '@rtbench/runtime-kit';
import { nodeRuntime } from '../src/plugin.ts';
import { bundleSuite } from '@rtbench/suite-loader';

const fixture = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'tiny', 'index.ts');

describe('node plugin', () => {
  it('resolves the npm releases to their own versions and V8s', async () => {
    const n20 = await nodeRuntime.resolve('node@20');
    const n26 = await nodeRuntime.resolve('node@26');
    expect(n20.version).toMatch(/^20\./);
    expect(n26.version).toMatch(/^26\./);
    expect(n20.engineVersion).toMatch(/^11\.3\./);
    expect(n26.engineVersion).toMatch(/^14\./);
    expect((await nodeRuntime.resolve('node')).version).toBe(n26.version);
    expect(n20.source).toBe('npm');
  });

  it('refuses paths that do not exist or are not executable, and unknown releases', async () => {
    await expect(nodeRuntime.resolve('node=/no/such/node')).rejects.toThrow(RuntimeUnavailableError);
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-'));
    const file = join(dir, 'node');
    writeFileSync(file, '#!/bin/sh\n');
    chmodSync(file, 0o644);
    await expect(nodeRuntime.resolve(`node=${file}`)).rejects.toThrow(/not executable/);
    await expect(nodeRuntime.resolve('node@19')).rejects.toThrow(/rtbench installs node@20/);
  });

  it('runs a case in a fresh process and reports runtime, version and flags', async () => {
    const target = await nodeRuntime.resolve('node@22');
    const bundle = await bundleSuite(fixture, 'tiny', 'node', nodeRuntime.bundle);
    const flags = nodeRuntime.translateFlags(['--expose-gc', '--max-semi-space-size=16']);
    await nodeRuntime.checkFlags(target, flags);
    const outcome = await nodeRuntime.runJob({
      target,
      flags,
      bundlePath: bundle.path,
      job: { protocol: 1, kind: 'measure', caseId: 'math / sum [n=200]', options: { warmupMs: 20, timeMs: 30, minSamples: 5, maxSamples: 1000, sampleMs: 0 } },
      timeoutMs: 60_000,
    });
    expect(outcome.exitCode).toBe(0);
    const hello = outcome.messages.find((m) => m.type === 'hello');
    expect(hello).toMatchObject({ facts: { runtime: 'node', version: target.version, engine: 'v8', gcExposed: true } });
    const result = outcome.messages.find((m) => m.type === 'result');
    expect(result).toMatchObject({ caseId: 'math / sum [n=200]', async: false });
  });

  it("loads node:fs without its ESM facade, and keeps a bundle's compiled code only when the job asks, which the next start loads unchanged", async () => {
    const target = await nodeRuntime.resolve('node@26');
    const built = await bundleSuite(fixture, 'tiny', 'node', nodeRuntime.bundle);
    const bundlePath = join(mkdtempSync(join(tmpdir(), 'rtbench-')), 'node-tiny.mjs');
    copyFileSync(built.path, bundlePath);
    const list = (codeCache: boolean, more: string[] = []) => nodeRuntime.runJob({ target, flags: nodeRuntime.translateFlags(['--expose-gc', ...more]), bundlePath, job: { protocol: 1, kind: 'list' }, timeoutMs: 60_000, codeCache });
    // The built-in modules the process loaded, written at its exit.
    const loaded = join(dirname(bundlePath), 'loaded.txt');
    const hook = join(dirname(bundlePath), 'hook.cjs');
    writeFileSync(hook, `const fs = require('fs'); process.on('exit', () => fs.writeFileSync(${JSON.stringify(loaded)}, process.moduleLoadList.join('\\n')));\n`);
    expect((await list(false, [`--require=${hook}`])).exitCode).toBe(0);
    // No ESM facade of node:fs, whose lazy exports would load fs/promises and readline in every case's process.
    expect(readFileSync(loaded, 'utf8').split('\n')).not.toContain('NativeModule internal/fs/promises');
    // A start that does not ask (instruction counts, host-timed starts) compiles from source and leaves nothing.
    expect(existsSync(`${bundlePath}.code-cache`)).toBe(false);
    expect((await list(true)).exitCode).toBe(0);
    const entries = readdirSync(`${bundlePath}.code-cache`, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(entries).toHaveLength(1);
    const entry = join(entries[0]!.parentPath, entries[0]!.name);
    const [bytes, mtime] = [readFileSync(entry), statSync(entry).mtimeMs];
    const second = await list(true);
    expect(second.messages.find((m) => m.type === 'cases')).toBeDefined();
    // Node rewrites an entry V8 rejected; one it accepted is left as it was.
    expect(statSync(entry).mtimeMs).toBe(mtime);
    expect(readFileSync(entry).equals(bytes)).toBe(true);
  });

  it('rejects a flag node does not know, naming it', async () => {
    const target = await nodeRuntime.resolve('node@24');
    await expect(nodeRuntime.checkFlags(target, nodeRuntime.translateFlags(['--no-such-v8-flag-at-all']))).rejects.toThrow(FlagError);
    expect(() => nodeRuntime.translateFlags(['max-semi-space-size'])).toThrow(FlagError);
  });

  it('kills a process that runs past its timeout', async () => {
    const target = await nodeRuntime.resolve('node@24');
    const dir = mkdtempSync(join(tmpdir(), 'rtbench-'));
    const hang = join(dir, 'hang.mjs');
    writeFileSync(hang, 'setInterval(() => {}, 1000);\n');
    const outcome = await nodeRuntime.runJob({
      target,
      flags: { args: [], env: {} },
      bundlePath: hang,
      job: { protocol: 1, kind: 'list' },
      timeoutMs: 500,
    });
    expect(outcome.timedOut).toBe(true);
    expect(outcome.exitSignal).toBe('SIGKILL');
  });
});
