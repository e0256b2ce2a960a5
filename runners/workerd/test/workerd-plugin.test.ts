/** The workerd plugin against the real workerd from the npm packages. No assertion is on time. */
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FlagError, RuntimeUnavailableError, type RuntimeTarget } from '@rtbench/runtime-kit';
import { workerdRuntime } from '../src/plugin.ts';
import { capnpString, compatibilityDateFor, COMPATIBILITY_DATE, workerdConfig } from '../src/config.ts';
import { JOB_DIR_PREFIX, uncaughtReason } from '../src/run-job.ts';
import { bundleFor, expectNoChildLeft, faultsFixture, helloOf, quickJob, resultOf, runCase, SPIN_TIMEOUT_MS, tinyFixture } from '../../../packages/runtime-kit/test/plugin-helpers.ts';

const platformFixture = join(import.meta.dirname, 'fixtures', 'platform', 'index.ts');
const noFlags = { args: [], env: {} };

/** This process's job directories (other runs on the machine have their own PIDs). */
function configDirs(): string[] {
  return readdirSync(tmpdir()).filter((name) => name.startsWith(`${JOB_DIR_PREFIX}${process.pid}-`));
}

afterEach(expectNoChildLeft);

describe('workerd config', () => {
  const config = workerdConfig({ bundleRelativePath: '../b/bundle.mjs', v8Flags: ['--expose-gc'], workerdVersion: '2026-11-17', env: { NODE_ENV: 'production' } });

  it('listens on 127.0.0.1 only, on a port the kernel picks, with no outbound network and nodejs_compat', () => {
    expect(config).toContain('address = "127.0.0.1:0"');
    expect(config).toContain('globalOutbound = "no-network"');
    expect(config).toContain('compatibilityFlags = ["nodejs_compat"]');
    expect(config).toContain('v8Flags = ["--expose-gc"]');
    expect(config).toContain('(name = "NODE_ENV", text = "production")');
    expect(config).toContain('embed "../b/bundle.mjs"');
  });

  it("serves a Worker with its project's compatibility date and flags, and those alone", () => {
    const own = workerdConfig({ bundleRelativePath: 'bundle.mjs', v8Flags: [], workerdVersion: '2026-11-17', env: {}, compatibility: { date: '2024-09-23', flags: ['nodejs_als'] } });
    expect(own).toContain('compatibilityDate = "2024-09-23",\n  compatibilityFlags = ["nodejs_als"]');
    expect(own).not.toContain(COMPATIBILITY_DATE);
  });

  it('keeps its compatibility date unless the binary is older, and refuses control characters', () => {
    expect(compatibilityDateFor('2026-11-17')).toBe(COMPATIBILITY_DATE);
    expect(compatibilityDateFor('2026-05-31')).toBe('2026-05-31');
    expect(capnpString('a "b" \\ c')).toBe('"a \\"b\\" \\\\ c"');
    expect(() => capnpString('bell\u0007')).toThrow(/control characters/);
  });

  it("reads workerd's reason for ending a request from its log", () => {
    const log = 'workerd/server/server/listen/mod.rs:372: error: Uncaught exception: workerd/api/node/process.c++:119: failed: remote.jsg.Error: The Node.js process.exit(3) API was called. Canceling the request.\n';
    expect(uncaughtReason(log)).toBe('The Node.js process.exit(3) API was called. Canceling the request.');
    expect(uncaughtReason('nothing here\n')).toBeUndefined();
  });
});

describe('workerd plugin', () => {
  let target: RuntimeTarget;
  let tiny: string;
  let faults: string;
  let platform: string;
  beforeAll(async () => {
    target = await workerdRuntime.resolve('workerd');
    tiny = await bundleFor(workerdRuntime, tinyFixture, 'tiny');
    faults = await bundleFor(workerdRuntime, faultsFixture, 'faults');
    platform = await bundleFor(workerdRuntime, platformFixture, 'workerd-platform');
  });

  it('resolves the npm workerd to its release and the V8 version in its binary', async () => {
    expect(target).toMatchObject({ runtime: 'workerd', source: 'npm', engine: 'v8' });
    expect(target.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(target.engineVersion).toMatch(/^\d+\.\d\.\d+\.\d+$/);
    expect(target.binary).toMatch(/@cloudflare\/workerd-[^/]+\/bin\/workerd$/);
    await expect(workerdRuntime.resolve('workerd=/no/such/workerd')).rejects.toThrow(RuntimeUnavailableError);
    await expect(workerdRuntime.resolve('workerd@1.2020')).rejects.toThrow(/rtbench installs workerd .* from npm/);
  });

  it('runs a sync and an async case, one fresh server each, with edge-aligned timing and the flags', async () => {
    const flags = workerdRuntime.translateFlags(['--expose-gc']);
    await workerdRuntime.checkFlags(target, flags);
    for (const caseId of ['math / sum [n=200]', 'async resolve']) {
      const outcome = await runCase(workerdRuntime, target, flags, tiny, caseId);
      expect(outcome.exitCode, outcome.stderr).toBe(0);
      // The versions come in as bindings; --expose-gc reached V8 through the config's v8Flags.
      expect(helloOf(outcome)?.facts).toEqual({ runtime: 'workerd', version: target.version, engine: 'v8', engineVersion: target.engineVersion, gcExposed: true });
      const result = resultOf(outcome);
      expect(result).toMatchObject({ caseId, async: caseId === 'async resolve' });
      // performance.now() advances inside a request, in 1 ms steps (a starved process's probe finds the tick too): the harness times edge to edge.
      expect(result.clock).toMatchObject({ name: 'performance.now', resolutionNs: 1e6, edgeAligned: true });
    }
    expect(configDirs()).toEqual([]);
  });

  it('gives the worker node:buffer and node:stream, the variant env, and no network or string code generation', async () => {
    const flags = { args: [], env: { RTBENCH_TEST_MARKER: 'from-the-variant' } };
    for (const caseId of ['node:buffer', 'node:stream read to the end', 'fetch is refused', 'env reaches process.env', 'code generation is refused']) {
      const outcome = await runCase(workerdRuntime, target, flags, platform, caseId);
      expect(resultOf(outcome).digest.summary, caseId).toBe('boolean true');
    }
  });

  it('rejects a V8 flag workerd does not know, or a bad value, naming it', async () => {
    for (const flag of ['--no-such-v8-flag-at-all', '--max-semi-space-size=lots']) {
      const check = workerdRuntime.checkFlags(target, workerdRuntime.translateFlags([flag]));
      await expect(check).rejects.toThrow(FlagError);
      await expect(check).rejects.toThrow(flag);
    }
  });

  it('refuses a flag workerd would override (it keeps its own GC settings), saying so', async () => {
    const check = workerdRuntime.checkFlags(target, workerdRuntime.translateFlags(['--concurrent-marking']));
    await expect(check).rejects.toThrow(FlagError);
    await expect(check).rejects.toThrow(/would ignore --concurrent-marking \(workerd runs V8 with --no-concurrent-marking\)/);
    await workerdRuntime.checkFlags(target, workerdRuntime.translateFlags(['--no-concurrent-marking', '--max_semi_space_size=8']));
  });

  it('lists the cases of a suite', async () => {
    const outcome = await workerdRuntime.runJob({ target, flags: noFlags, bundlePath: tiny, job: { protocol: 1, kind: 'list' }, timeoutMs: 60_000 });
    const cases = outcome.messages.find((m) => m.type === 'cases');
    expect(cases && cases.type === 'cases' ? cases.cases.map((c) => c.id) : []).toContain('async resolve');
  });

  it('kills a server whose job runs past its timeout, and stops it when interrupted', async () => {
    const spun = await runCase(workerdRuntime, target, noFlags, faults, 'spin forever', SPIN_TIMEOUT_MS);
    expect(spun.timedOut).toBe(true);
    expect(spun.exitSignal).toBe('SIGKILL');
    const abort = new AbortController();
    // Interrupted as the job starts or spins: the server is ended either way.
    setTimeout(() => abort.abort(), SPIN_TIMEOUT_MS);
    const interrupted = await workerdRuntime.runJob({ target, flags: noFlags, bundlePath: faults, job: quickJob('spin forever'), timeoutMs: 60_000, signal: abort.signal });
    expect(interrupted.interrupted).toBe(true);
  });

  it('reports process.exit and a hung promise as errors, and a heap that runs out as a crash', async () => {
    const exited = await runCase(workerdRuntime, target, noFlags, faults, 'exit');
    expect(exited.messages.find((m) => m.type === 'error')).toMatchObject({ caseId: 'exit', message: expect.stringContaining('process.exit(7)') });
    const hung = await runCase(workerdRuntime, target, noFlags, faults, 'never settles');
    expect(hung.messages.find((m) => m.type === 'error')).toMatchObject({ message: expect.stringContaining('its promise never settles') });
    const oom = await runCase(workerdRuntime, target, workerdRuntime.translateFlags(['--max-old-space-size=16']), faults, 'out of memory');
    expect(oom.timedOut).toBe(false);
    expect(oom.messages.some((m) => m.type === 'result')).toBe(false);
    expect(oom.exitSignal ?? oom.exitCode).not.toBe(0);
    expect(oom.stderr).toMatch(/heap|memory/i);
  });
});
