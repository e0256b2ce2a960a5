/** The Deno plugin against the real deno from the npm packages. No assertion is on time. */
import { copyFileSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FlagError, RuntimeUnavailableError, type RuntimeTarget } from '@rtbench/runtime-kit';
import { denoRuntime } from '../src/plugin.ts';
import { parseDenoVersion } from '../src/binary.ts';
import { bundleFor, expectNoChildLeft, faultsFixture, helloOf, resultOf, runCase, SPIN_TIMEOUT_MS, tinyFixture } from '../../../packages/runtime-kit/test/plugin-helpers.ts';

afterEach(expectNoChildLeft);

describe('deno plugin', () => {
  let target: RuntimeTarget;
  let tiny: string;
  let faults: string;
  beforeAll(async () => {
    target = await denoRuntime.resolve('deno');
    tiny = await bundleFor(denoRuntime, tinyFixture, 'tiny');
    faults = await bundleFor(denoRuntime, faultsFixture, 'faults');
  });

  it('resolves the npm deno (the platform binary, not the wrapper) to its version and V8', async () => {
    expect(target).toMatchObject({ runtime: 'deno', source: 'npm', engine: 'v8' });
    expect(target.version).toMatch(/^2\.\d+\.\d+/);
    expect(target.engineVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(target.binary).toMatch(/@deno\/[^/]+\/deno$/);
    expect((await denoRuntime.resolve(`deno@${target.version.split('.')[0]}`)).binary).toBe(target.binary);
    expect(parseDenoVersion('deno 2.9.6 (stable)\nv8 15.0.245.2-rusty\n')).toEqual({ version: '2.9.6', v8: '15.0.245.2-rusty' });
  });

  it('says how to get a deno it cannot find', async () => {
    await expect(denoRuntime.resolve('deno=/no/such/deno')).rejects.toThrow(RuntimeUnavailableError);
    await expect(denoRuntime.resolve('deno@1.0')).rejects.toThrow(/rtbench installs deno .* from npm, or any release written in full \(deno@[0-9.]+\); for another build use deno=/);
  });

  it('runs a sync and an async case in fresh processes, reporting runtime, version and flags', async () => {
    const flags = denoRuntime.translateFlags(['--expose-gc', '--max-semi-space-size=16']);
    expect(flags).toEqual({ args: ['--v8-flags=--expose-gc,--max-semi-space-size=16'], env: {} });
    await denoRuntime.checkFlags(target, flags);
    for (const caseId of ['math / sum [n=200]', 'async resolve']) {
      const outcome = await runCase(denoRuntime, target, flags, tiny, caseId);
      expect(outcome.exitCode, outcome.stderr).toBe(0);
      // --expose-gc reached V8: the case can see gc().
      expect(helloOf(outcome)?.facts).toEqual({ runtime: 'deno', version: target.version, engine: 'v8', engineVersion: target.engineVersion, gcExposed: true });
      const result = resultOf(outcome);
      expect(result).toMatchObject({ caseId, async: caseId === 'async resolve' });
      expect(result.clock.edgeAligned).toBe(false);
    }
    const plain = await runCase(denoRuntime, target, denoRuntime.translateFlags([]), tiny, 'runtime facts');
    expect(helloOf(plain)?.facts.gcExposed).toBe(false);
  });

  it("keeps the bundle's V8 code cache in a folder beside it only when the job asks", async () => {
    const bundlePath = join(mkdtempSync(join(tmpdir(), 'rtbench-')), 'deno-tiny.mjs');
    copyFileSync(tiny, bundlePath);
    const list = (codeCache: boolean) => denoRuntime.runJob({ target, flags: denoRuntime.translateFlags(['--expose-gc']), bundlePath, job: { protocol: 1, kind: 'list' }, timeoutMs: 60_000, codeCache });
    expect((await list(false)).exitCode).toBe(0);
    expect(existsSync(`${bundlePath}.code-cache`)).toBe(false);
    const cached = await list(true);
    expect(cached.exitCode, cached.stderr).toBe(0);
    const files = readdirSync(`${bundlePath}.code-cache`, { recursive: true }).map(String);
    expect(files.some((f) => /v8_code_cache/.test(f))).toBe(true);
  });

  it('rejects a V8 flag deno does not know, naming it', async () => {
    const check = denoRuntime.checkFlags(target, denoRuntime.translateFlags(['--no-such-v8-flag-at-all']));
    await expect(check).rejects.toThrow(FlagError);
    await expect(check).rejects.toThrow(/no-such-v8-flag-at-all/);
    expect(() => denoRuntime.translateFlags(['--trace-turbo-filter=a,b'])).toThrow(FlagError);
  });

  it('kills a job that runs past its timeout', async () => {
    const outcome = await runCase(denoRuntime, target, { args: [], env: {} }, faults, 'spin forever', SPIN_TIMEOUT_MS);
    expect(outcome.timedOut).toBe(true);
    expect(outcome.exitSignal).toBe('SIGKILL');
  });

  it('reports a case that exits and a heap that runs out as crashes without a result', async () => {
    const exited = await runCase(denoRuntime, target, { args: [], env: {} }, faults, 'exit');
    expect(exited.exitCode).toBe(7);
    expect(exited.messages.some((m) => m.type === 'result')).toBe(false);
    const oom = await runCase(denoRuntime, target, denoRuntime.translateFlags(['--max-old-space-size=16']), faults, 'out of memory');
    expect(oom.timedOut).toBe(false);
    expect(oom.exitCode === 0).toBe(false);
    expect(oom.messages.some((m) => m.type === 'result')).toBe(false);
    expect(oom.stderr).toMatch(/heap|memory/i);
  });
});
