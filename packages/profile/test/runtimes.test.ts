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
import { guardDir, liveChildPids, removeGuardedDir, type RuntimePlugin } from '@rtbench/runtime-kit';
import { bundleSuite } from '../../cli/src/bundle.ts';
import { bundleLocator, diffProfiles, parseCpuProfile, profileCase, renderDiff, renderTop, type ProfileArm, type ProfileCaseResult } from '../src/index.ts';
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

async function armOf(plugin: RuntimePlugin, env: Record<string, string> = {}): Promise<ProfileArm> {
  const bundlePath = (await bundleSuite(fixture, 'profile-hot', plugin.name, plugin.bundle)).path;
  const target = await plugin.resolve(plugin.name);
  const flags = plugin.translateFlags([]);
  return { plugin, target, flags: { args: flags.args, env: { ...flags.env, ...env } }, bundlePath };
}

function ok(result: ProfileCaseResult): Extract<ProfileCaseResult, { status: 'ok' }> {
  if (result.status !== 'ok') throw new Error(JSON.stringify(result));
  return result;
}

describe('profileCase on node, deno, bun and workerd', () => {
  for (const plugin of [nodeRuntime, denoRuntime, workerdRuntime, bunRuntime]) {
    it(`${plugin.name}: the sampling phase only, with the hot helper at the top as benchmark code`, async () => {
      const arm = await armOf(plugin);
      const path = join(out, `${plugin.name}.cpuprofile`);
      const r = ok(await profileCase({ arm, caseId: CASE, outPath: path, timeMs: 600, warmupMs: 200 }));
      const text = renderTop(r.summary, { top: 6, title: `${CASE} · ${plugin.name}` });
      // The window was found by the harness's frames: warmup before it, sampling in it.
      expect(r.window.method, text).toBe('markers');
      expect(r.window.kept).toBeLessThan(r.window.total);
      // The written file is a .cpuprofile with no warmup in it.
      const written = parseCpuProfile(readFileSync(path, 'utf8'));
      expect(written.samples.length).toBe(r.window.kept);
      expect(written.nodes.some((n) => n.callFrame.functionName === 'warmUp')).toBe(false);
      expect(written.nodes.some((n) => n.callFrame.functionName === 'sample')).toBe(true);
      // Frames are mapped back through the bundle's source map.
      const locate = bundleLocator(arm.bundlePath);
      expect(written.nodes.some((n) => locate(n.callFrame)?.source === 'packages/core/src/measure.ts')).toBe(true);
      const top3 = r.summary.functions.slice(0, 3);
      if (plugin.name === 'bun') {
        // JavaScriptCore inlines the helpers into the timed function and its
        // sampler reports the machine frame: the hot code is under the
        // outermost benchmark frame it was inlined into (README.md).
        const top = r.summary.functions[0]!;
        expect(top.category, text).toBe('benchmark');
        expect(top.location?.startsWith(`${FIXTURE_SOURCE}:`), text).toBe(true);
        expect(['slowHelper', '(anonymous)'], text).toContain(top.name);
      } else {
        const hot = top3.find((f) => f.name === 'slowHelper');
        expect(hot, text).toBeDefined();
        expect(hot!.category).toBe('benchmark');
        expect(hot!.location).toBe(`${FIXTURE_SOURCE}:${readFileSync(fixture, 'utf8').split('\n').findIndex((l) => l.startsWith('function slowHelper')) + 1}`);
      }
      expect(r.summary.byCategory.benchmark.share, text).toBeGreaterThan(0.4);
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

describe('a comparison whose arms differ only in the hot helper', () => {
  for (const plugin of [nodeRuntime, workerdRuntime]) {
    it(`${plugin.name}: puts the helper at the top of the differential view, growing`, async () => {
      const base = ok(await profileCase({ arm: await armOf(plugin), caseId: CASE, outPath: join(out, `${plugin.name}-base.cpuprofile`), timeMs: 600, warmupMs: 200 }));
      const slow = ok(await profileCase({ arm: await armOf(plugin, { PROFILE_HOT_SLOW: '4' }), caseId: CASE, outPath: join(out, `${plugin.name}-slow.cpuprofile`), timeMs: 600, warmupMs: 200 }));
      const diff = diffProfiles(base.summary, slow.summary);
      const text = renderDiff(diff, { a: 'base', b: 'slow', top: 5 });
      const first = diff.functions[0]!;
      expect(first.name, text).toBe('slowHelper');
      expect(first.category).toBe('benchmark');
      expect(first.delta, text).toBeGreaterThan(0);
    });
  }
});

describe('a case that is not there', () => {
  it('is a failure with the reason, not a profile', async () => {
    const r = await profileCase({ arm: await armOf(nodeRuntime), caseId: 'no such case', outPath: join(out, 'none.cpuprofile'), timeMs: 100, warmupMs: 20 });
    expect(r.status).toBe('failed');
    if (r.status === 'failed') expect(r.reason).toContain('no case "no such case"');
  });
});
