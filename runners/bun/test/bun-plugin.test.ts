/** The Bun plugin against the real bun from the npm package. No assertion is on time. */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FlagError, RuntimeUnavailableError, type RuntimeTarget } from '@rtbench/runtime-kit';
import { bunRuntime } from '../src/plugin.ts';
import { bundleFor, expectNoChildLeft, faultsFixture, helloOf, resultOf, runCase, SPIN_TIMEOUT_MS, tinyFixture } from '../../../packages/runtime-kit/test/plugin-helpers.ts';

afterEach(expectNoChildLeft);

describe('bun plugin', () => {
  let target: RuntimeTarget;
  let tiny: string;
  let faults: string;
  beforeAll(async () => {
    target = await bunRuntime.resolve('bun');
    tiny = await bundleFor(bunRuntime, tinyFixture, 'tiny');
    faults = await bundleFor(bunRuntime, faultsFixture, 'faults');
  });

  it('resolves the npm bun to its version and its JavaScriptCore revision', async () => {
    expect(target).toMatchObject({ runtime: 'bun', source: 'npm', engine: 'jsc' });
    expect(target.version).toMatch(/^1\.\d+\.\d+/);
    expect(target.engineVersion).toMatch(/^[0-9a-f]{40}$/);
    await expect(bunRuntime.resolve('bun=/no/such/bun')).rejects.toThrow(RuntimeUnavailableError);
    await expect(bunRuntime.resolve('bun@0.1')).rejects.toThrow(/rtbench installs bun .* from npm/);
  });

  it('translates engine flags to BUN_JSC_ variables, and --expose-gc to bun\'s own option', () => {
    expect(bunRuntime.translateFlags(['--useConcurrentJIT=false', '--useJIT', '--no-useDFGJIT', '--expose-gc'])).toEqual({
      args: ['--expose-gc'],
      env: { BUN_JSC_useConcurrentJIT: 'false', BUN_JSC_useJIT: 'true', BUN_JSC_useDFGJIT: 'false' },
    });
    expect(() => bunRuntime.translateFlags(['--max-semi-space-size=16'])).toThrow(/JavaScriptCore options .* not V8 flags/);
  });

  it('runs a sync and an async case in fresh processes, reporting runtime, version and flags', async () => {
    const flags = bunRuntime.translateFlags(['--useConcurrentJIT=false']);
    await bunRuntime.checkFlags(target, flags);
    for (const caseId of ['math / sum [n=200]', 'async resolve']) {
      const outcome = await runCase(bunRuntime, target, flags, tiny, caseId);
      expect(outcome.exitCode, outcome.stderr).toBe(0);
      expect(helloOf(outcome)?.facts).toEqual({ runtime: 'bun', version: target.version, engine: 'jsc', engineVersion: target.engineVersion, gcExposed: true });
      expect(resultOf(outcome)).toMatchObject({ caseId, async: caseId === 'async resolve', clock: { name: 'Bun.nanoseconds', edgeAligned: false } });
    }
  });

  it('rejects a JavaScriptCore option that does not exist or a bad value, naming it', async () => {
    for (const flag of ['--noSuchOptionAtAll=1', '--useConcurrentJIT=banana']) {
      const check = bunRuntime.checkFlags(target, bunRuntime.translateFlags([flag]));
      await expect(check).rejects.toThrow(FlagError);
      await expect(check).rejects.toThrow(/invalid JSC environment variable/);
    }
  });

  it('kills a job that runs past its timeout', async () => {
    const outcome = await runCase(bunRuntime, target, { args: [], env: {} }, faults, 'spin forever', SPIN_TIMEOUT_MS);
    expect(outcome.timedOut).toBe(true);
    expect(outcome.exitSignal).toBe('SIGKILL');
  });

  it('reports a case that exits and a process that aborts as crashes without a result', async () => {
    const exited = await runCase(bunRuntime, target, { args: [], env: {} }, faults, 'exit');
    expect(exited.exitCode).toBe(7);
    expect(exited.messages.some((m) => m.type === 'result')).toBe(false);
    const aborted = await runCase(bunRuntime, target, { args: [], env: {} }, faults, 'abort');
    expect(aborted.timedOut).toBe(false);
    expect(aborted.exitCode === 0).toBe(false);
    expect(aborted.messages.some((m) => m.type === 'result')).toBe(false);
  });
});
