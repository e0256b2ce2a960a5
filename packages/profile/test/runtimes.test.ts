/**
 * profileCase on the four real runtimes, on a case with a known hot function
 * (test/fixtures/profile-hot: the timed function calls slowHelper and two
 * cheaper helpers). No assertion is on time.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { CallTreeNode } from '@rtbench/core/profile-manifest';
import type { RuntimePlugin } from '@rtbench/runtime-kit';
import { guardDir, liveChildPids, removeGuardedDir } from '@rtbench/process';
import { bundleSuite } from '@rtbench/suite-loader';
import { bundleLocator, diffProfiles, parseCpuProfile, profileCase, diffTable, topTable, type ProfileArm, type ProfileCaseResult } from '../src/index.ts';
import { terminalProfileBlock } from '../../report/src/reporters/profiles.ts';
import { pluginNamed } from '@rtbench/runtime-registry';

const nodeRuntime = pluginNamed('node')!;
const denoRuntime = pluginNamed('deno')!;
const bunRuntime = pluginNamed('bun')!;
const workerdRuntime = pluginNamed('workerd')!;

const fixture = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'profile-hot', 'index.ts');
const FIXTURE_SOURCE = 'test/fixtures/profile-hot/index.ts';
const CASE = 'hot helper';
const out = mkdtempSync(join(tmpdir(), 'rtbench-profile-test-'));
guardDir(out);

afterAll(() => removeGuardedDir(out));
afterEach(() => expect(liveChildPids()).toEqual([]));

async function armOf(plugin: RuntimePlugin, env: Record<string, string> = {}, suite = { path: fixture, name: 'profile-hot' }): Promise<ProfileArm> {
  const bundlePath = (await bundleSuite(suite.path, suite.name, plugin.name, plugin.bundle)).path;
  const target = await plugin.resolve(plugin.name);
  const flags = plugin.translateFlags([]);
  return { plugin, target, flags: { args: flags.args, env: { ...flags.env, ...env } }, bundlePath };
}

function ok(result: ProfileCaseResult): Extract<ProfileCaseResult, { status: 'ok' }> {
  if (result.status !== 'ok') throw new Error(JSON.stringify(result));
  return result;
}

/**
 * The hot helper at 4× its work, profiled once per runtime: the four runtimes' test reads it, and the comparison's
 * slow arm is the same profile (a profile is ~0.8 s of a busy process).
 */
const slowProfiles = new Map<string, Promise<{ arm: ProfileArm; path: string; result: ProfileCaseResult }>>();
function slowProfile(plugin: RuntimePlugin): Promise<{ arm: ProfileArm; path: string; result: ProfileCaseResult }> {
  let made = slowProfiles.get(plugin.name);
  if (!made) {
    made = (async () => {
      const arm = await armOf(plugin, { PROFILE_HOT_SLOW: '4' });
      const path = join(out, `${plugin.name}.cpuprofile`);
      return { arm, path, result: await profileCase({ arm, caseId: CASE, outPath: path, timeMs: 600, warmupMs: 200 }) };
    })();
    slowProfiles.set(plugin.name, made);
  }
  return made;
}

describe('profileCase on node, deno, bun and workerd', () => {
  for (const plugin of [nodeRuntime, denoRuntime, workerdRuntime, bunRuntime]) {
    it(`${plugin.name}: the sampling phase only, with the hot helper at the top as benchmark code`, async () => {
      // The hot helper at 4× its work: ~90% of the case against a few per cent for each steady helper, whose cost
      // varies several-fold between processes on a busy machine (the tier their code was in when profiled).
      const { arm, path, result } = await slowProfile(plugin);
      const r = ok(result);
      const text = terminalProfileBlock(topTable(r.summary, { top: 6, title: `${CASE} · ${plugin.name}` }));
      // The window was found by the harness's frames: warmup before it, sampling in it.
      expect(r.window.method, `${text}\nwindow ${JSON.stringify(r.window)}, floor ${String(r.result?.floorNs)}`).toBe('markers');
      expect(r.window.kept).toBeLessThan(r.window.total);
      // The written file is a .cpuprofile with no warmup in it.
      const written = parseCpuProfile(readFileSync(path, 'utf8'));
      expect(written.samples.length).toBe(r.window.kept);
      expect(written.nodes.some((n) => n.callFrame.functionName === 'warmUp')).toBe(false);
      expect(written.nodes.some((n) => n.callFrame.functionName === 'sample')).toBe(true);
      // Frames are mapped back through the bundle's source map.
      const locate = bundleLocator(arm.bundlePath, arm.plugin.frames.bundleModule);
      expect(written.nodes.some((n) => locate(n.callFrame)?.source === 'packages/core/src/measure.ts')).toBe(true);
      // The case's own functions, without the harness's: on workerd the harness spends a share that grows
      // with the machine's load waiting for its coarse clock to move (its clock reads were 33% of the
      // window on a quiet machine), which is not the case's and must not decide what is hottest in it.
      const caseFunctions = r.summary.functions.filter((f) => f.category !== 'harness');
      if (plugin.name === 'bun') {
        // JavaScriptCore inlines the helpers into the timed function and its
        // sampler reports the machine frame: the hot code is under the
        // outermost benchmark frame it was inlined into (README.md).
        const top = caseFunctions[0]!;
        expect(top.category, text).toBe('benchmark');
        expect(top.location?.startsWith(`${FIXTURE_SOURCE}:`), text).toBe(true);
        expect(['slowHelper', '(anonymous)'], text).toContain(top.name);
      } else {
        // (By design it leads by far, also with a quarter of a core: docs/measurements/tests.md.)
        const hot = caseFunctions[0]!;
        expect(hot.name, text).toBe('slowHelper');
        expect(hot.category).toBe('benchmark');
        expect(hot.location).toBe(`${FIXTURE_SOURCE}:${readFileSync(fixture, 'utf8').split('\n').findIndex((l) => l.startsWith('function slowHelper')) + 1}`);
      }
      // The window is the sampling phase: apart from the harness, the time is mostly the case's (the shares seen,
      // quiet and loaded: docs/measurements/tests.md); start-up, bundling or teardown in the window would be
      // runtime, engine or idle time, most of the window.
      const { benchmark, harness } = r.summary.byCategory;
      expect(benchmark.share / (1 - harness.share), text).toBeGreaterThan(0.6);
      // The call tree (flame graphs) covers the same time, and has the summary's top function as a frame with its self time.
      expect(r.tree.totalMs).toBeCloseTo(r.summary.totalMs, 2);
      expect(r.tree.nodes).toBeLessThanOrEqual(400);
      const frames: CallTreeNode[] = [];
      const walk = (n: CallTreeNode): void => {
        frames.push(n);
        n.children.forEach(walk);
      };
      walk(r.tree.root);
      const first = r.summary.functions[0]!;
      const same = frames.filter((f) => f.name === first.name && f.location === first.location && f.category === first.category);
      expect(same.length, text).toBeGreaterThan(0);
      // Places of it under 0.2% of the time are folded into their callers: at most that much is missing.
      const self = same.reduce((ms, f) => ms + f.selfMs, 0);
      expect(self).toBeLessThanOrEqual(first.selfMs + 0.01);
      expect(self).toBeGreaterThanOrEqual(first.selfMs * 0.9);
    });
  }
});

describe('profileCase on a case under 100 ns a call', () => {
  it('node: the floor, taken after the last sample, leaves the window found by the marks', async () => {
    const tiny = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'tiny', 'index.ts');
    const arm = await armOf(nodeRuntime, {}, { path: tiny, name: 'tiny' });
    const r = ok(await profileCase({ arm, caseId: 'runtime facts', outPath: join(out, 'node-fast.cpuprofile'), timeMs: 300, warmupMs: 100 }));
    // The case is near the floor, so the process took one after sampling (execute.ts floorFor).
    expect(r.result?.floorNs).toBeGreaterThan(0);
    expect(r.window.method, JSON.stringify(r.window)).toBe('markers');
    const written = parseCpuProfile(readFileSync(join(out, 'node-fast.cpuprofile'), 'utf8'));
    expect(written.nodes.some((n) => n.callFrame.functionName === 'harnessFloor')).toBe(false);
  });
});

// On node: what differs by runtime is the profile, which the four runtimes' test reads (workerd's within the case's
// own time, its harness's clock waits set aside); the differential view is one function of two profiles
// (diffProfiles: summary.test.ts).
describe('a comparison whose arms differ only in the hot helper', () => {
  it('node: puts the helper at the top of the differential view\'s growth, among its two largest moves', async () => {
    // The arms differ only in the helper's work: 10 iterations (~10% of the case) against 800 (~90%). Its share
    // then grows by what the two steady helpers lose together, so it moves most by design, whichever tier each
    // process's helpers were in (on a busy machine their shares vary several-fold between processes).
    const base = ok(await profileCase({ arm: await armOf(nodeRuntime, { PROFILE_HOT_SLOW: '0.05' }), caseId: CASE, outPath: join(out, 'node-base.cpuprofile'), timeMs: 600, warmupMs: 200 }));
    // The slow arm is the profile the four runtimes' test read (the same arm, time and warmup).
    const slow = ok((await slowProfile(nodeRuntime)).result);
    const diff = diffProfiles(base.summary, slow.summary);
    const text = terminalProfileBlock(diffTable(diff, { a: 'base', b: 'slow', top: 5 }));
    // The view orders by the size of a move, either way. The helper's growth is the largest growth; a steady helper
    // that held most of the base arm's time (the other inlined into it) can lose as much as the helper gains, so the
    // helper is among the two largest moves, not always first.
    const growing = diff.functions.filter((f) => f.delta > 0);
    expect(growing[0]?.name, text).toBe('slowHelper');
    expect(growing[0]?.category).toBe('benchmark');
    expect(diff.functions.slice(0, 2).map((f) => f.name), text).toContain('slowHelper');
  });
});

describe('a case that is not there', () => {
  it('is a failure with the reason, not a profile', async () => {
    const r = await profileCase({ arm: await armOf(nodeRuntime), caseId: 'no such case', outPath: join(out, 'none.cpuprofile'), timeMs: 100, warmupMs: 20 });
    expect(r.status).toBe('failed');
    if (r.status === 'failed') expect(r.reason).toContain('no case "no such case"');
  });
});
