/**
 * The measurer a plan chooses, and the plan it makes with it, for the four
 * ways a measurer is chosen: the default schedule (a table of a native
 * suite), a suite's own kind of case (a request suite's comparison, a
 * brought Worker) and --measure (instruction counts). Planned against a fake
 * store (nothing resolved, installed, listed in a runtime or started); the
 * expected plans are those makePlan made before the measurer was chosen in
 * one place, so a change to how it is chosen cannot change a plan unseen.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pluginForSpec, type ResolvedVariant, type VariantSpec } from '@rtbench/runtime-registry';
import { makePlan, type Plan } from '../src/plan.ts';
import type { PlanHost } from '../src/plan/plan-host.ts';

/** A store that has every runtime; what was asked of it, in order. */
function fakeHost() {
  const asked: string[] = [];
  const host: PlanHost = {
    platform: 'linux-x64',
    resolveVariant: async (spec: VariantSpec) => {
      asked.push(`resolve ${spec.id}`);
      return { spec, plugin: pluginForSpec(spec.runtimeSpec)!, target: { binary: `/fake/${spec.runtimeSpec}` } as ResolvedVariant['target'], flags: { args: [], env: {} }, record: { id: spec.id } as ResolvedVariant['record'] };
    },
    installsOnDemand: () => true,
    pinPackages: async () => {
      asked.push('pin');
      return [];
    },
    listInRuntime: async () => {
      throw new Error('a native suite is listed on the host');
    },
  };
  return { host, asked };
}

/** What a plan is, less the descriptor object itself (named) and a valgrind path (a temporary folder's). */
function planShape(plan: Plan) {
  const { measurer, prepared, ...options } = plan.options;
  return {
    measurer: measurer.name,
    prepared,
    options,
    fewRounds: plan.fewRounds,
    variants: plan.variants.map((v) => v.spec.id),
    cases: plan.suite.cases.length,
    first: plan.suite.cases[0]!.id,
  };
}

const notes = (): string[] => {
  const lines: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((text) => lines.push(String(text)) > 0);
  return lines;
};

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const TIMING_TABLE = { warmupMs: 60, warmupMinMs: 20, seed: 7, mode: 'bench', roundPlan: { order: 'shuffled', rounds: 6, adaptive: { target: 0.02, maxRounds: 30, budgetMs: 60_000 } }, timeMs: 240, perArm: 1 };

describe('the measurer chosen, and the plan made with it', () => {
  it('bench json-reviver: the default schedule, adaptive rounds from six', async () => {
    const { host, asked } = fakeHost();
    const plan = await makePlan('json-reviver', { seed: 7 }, undefined, host);
    expect(planShape(plan)).toEqual({
      measurer: 'lockstep',
      prepared: { setup: { minTurns: 8, setsPerProcess: 1 }, fields: { setsPerProcess: 1 }, roundsPerProcess: 1 },
      options: { ...TIMING_TABLE, timeoutMs: 60_800 },
      fewRounds: undefined,
      variants: ['node', 'deno', 'bun', 'workerd'],
      cases: 16,
      first: 'parse / no reviver [size=10kb]',
    });
    expect(asked).toEqual(['resolve node', 'resolve deno', 'resolve bun', 'resolve workerd', 'pin']);
  });

  it('bench request-tail --compare a b: CPU per request, thirty fixed rounds, nothing of lockstep', async () => {
    const { host } = fakeHost();
    const plan = await makePlan('request-tail', { seed: 7 }, ['node', 'node@24'], host);
    expect(planShape(plan)).toEqual({
      measurer: 'request-cpu',
      prepared: {},
      options: { warmupMs: 150, warmupMinMs: 50, seed: 7, mode: 'compare', roundPlan: { order: 'balanced', rounds: 30 }, timeMs: 3000, perArm: 1, timeoutMs: 62_000 },
      fewRounds: undefined,
      variants: ['node', 'node@24'],
      cases: 9,
      first: 'steady handler [cpu=js thread]',
    });
  });

  it('a brought Worker: request-shaped, its own options its own, what it is served with said', async () => {
    const { host } = fakeHost();
    const lines = notes();
    const worker = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'workers', 'clock', 'worker.js');
    const plan = await makePlan(worker, { runtime: ['node', 'workerd'], seed: 7, measurerOptions: { 'same-work': 'strict' }, brought: { worker: { request: ['GET /'] } } }, undefined, host);
    expect(planShape(plan)).toEqual({
      measurer: 'request-cpu',
      prepared: { setup: { sameWork: 'strict' } },
      options: { warmupMs: 60, warmupMinMs: 20, seed: 7, mode: 'bench', roundPlan: { order: 'shuffled', rounds: 6 }, timeMs: 240, perArm: 1, timeoutMs: 60_800 },
      fewRounds: undefined,
      variants: ['node', 'workerd'],
      cases: 3,
      first: 'GET / [cpu=js thread]',
    });
    expect(lines).toEqual(["note: the Workers runtime serves it with rtbench's compatibility date and flags (a wrangler project's are its own: rtbench run <project folder>)\n"]);
    // Without the Workers runtime among the run's, what it would serve the Worker with is not said.
    lines.length = 0;
    await makePlan(worker, { runtime: ['node'], seed: 7, brought: { worker: { request: ['GET /'] } } }, undefined, host);
    expect(lines).toEqual([]);
  });

  it('--measure instructions: counted under the valgrind found on PATH, three fixed rounds', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'rtbench-valgrind-'));
    writeFileSync(join(bin, 'valgrind'), '#!/bin/sh\n');
    chmodSync(join(bin, 'valgrind'), 0o755);
    vi.stubEnv('PATH', `${bin}${delimiter}${process.env.PATH ?? ''}`);
    vi.stubEnv('RTBENCH_VALGRIND', '');
    const { host } = fakeHost();
    const plan = await makePlan('json-reviver', { runtime: ['node', 'bun'], seed: 7, measure: 'instructions' }, undefined, host);
    const { prepared, ...rest } = planShape(plan);
    expect(prepared).toEqual({ setup: { valgrind: join(bin, 'valgrind'), cacheSim: false, libraryDir: expect.stringMatching(/[/\\]native$/) } });
    expect(rest).toEqual({
      measurer: 'instructions',
      options: { warmupMs: 60, warmupMinMs: 20, seed: 7, mode: 'bench', roundPlan: { order: 'shuffled', rounds: 3 }, timeMs: 240, perArm: 1, timeoutMs: 600_000 },
      fewRounds: undefined,
      variants: ['node', 'bun'],
      cases: 16,
      first: 'parse / no reviver [size=10kb]',
    });
  });
});
