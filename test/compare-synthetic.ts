/** Synthetic run files for the comparison tests: deterministic samples from a seeded PRNG, valid against the schema. */
import { writeFileSync } from 'node:fs';
import { parseRun, type RunRecord, type Variant } from '@rtbench/core/schema';
import { createRandom } from '../packages/stats/src/index.ts';

export interface SyntheticArm {
  id: string;
  /** Multiplies every case's time: 1.1 = 10% slower. */
  factor: number;
  /** Per case id: a different factor, a different digest, or 'unsupported'. */
  overrides?: Record<string, { factor?: number; digest?: string; unsupported?: string }>;
}

export interface SyntheticOptions {
  suite?: string;
  mode?: 'bench' | 'compare';
  cases: { id: string; ns: number }[];
  arms: SyntheticArm[];
  rounds: number;
  samplesPerRound?: number;
  /** Log-sd of the between-round (process) noise; within-round noise is a fifth of it. */
  sigma?: number;
  seed?: number;
}

function variant(id: string): Variant {
  const [runtimeSpec, ...rest] = id.split(' ');
  const major = /@(\d+)/.exec(runtimeSpec!)?.[1] ?? '26';
  return {
    id,
    runtime: 'node',
    spec: runtimeSpec!,
    flags: rest.filter((t) => t.startsWith('-')),
    translatedFlags: { args: rest.filter((t) => t.startsWith('-')), env: {} },
    binary: `/opt/node-${major}/bin/node`,
    binarySha256: (major === '24' ? 'a' : 'b').repeat(64),
    source: 'npm',
    version: `${major}.1.0`,
    engine: 'v8',
    engineVersion: major === '24' ? '13.6.233.17' : '14.6.202.34',
  };
}

/** Runs made so far: each gets an id of its own, as each measurement does (compare refuses two files of one run). */
let made = 0;

/** A valid RunRecord with the given effects; shared round noise makes the arms' rounds correlated, as interleaving does. */
export function syntheticRun(o: SyntheticOptions): RunRecord {
  const random = createRandom(o.seed ?? 1);
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const sigma = o.sigma ?? 0.02;
  const samplesPerRound = o.samplesPerRound ?? 15;
  const clock = { name: 'hrtime', resolutionNs: 1, readCostNs: 20, edgeAligned: false };
  const run: RunRecord = {
    schema: 'rtbench.run',
    schemaVersion: 1,
    id: `synthetic-${o.seed ?? 1}-${++made}`,
    status: 'complete',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:10:00.000Z',
    command: ['bench', o.suite ?? 'synthetic'],
    suite: o.suite ?? 'synthetic',
    mode: o.mode ?? 'bench',
    options: { timeMs: 2000, warmupMs: 150, rounds: o.rounds, timeoutMs: 60000, order: 'synthetic', seed: o.seed ?? 1 },
    host: { os: 'linux', release: '6', arch: 'x64', cpuModel: 'Synthetic CPU', cores: 2, memoryBytes: 1e9, loadavg: [0, 0, 0], hostNode: '24.0.0', env: {} },
    variants: o.arms.map((a) => variant(a.id)),
    cases: o.cases.map((c) => ({ id: c.id, name: c.id, params: {} })),
    results: [],
    digestMismatches: [],
  };
  for (const c of o.cases) {
    const shared = Array.from({ length: o.rounds }, () => normal() * sigma);
    for (const arm of o.arms) {
      const over = arm.overrides?.[c.id] ?? {};
      if (over.unsupported) {
        run.results.push({ caseId: c.id, variantId: arm.id, status: 'unsupported', rounds: [], failures: [{ kind: 'unsupported', message: over.unsupported }] });
        continue;
      }
      const factor = over.factor ?? arm.factor;
      const rounds = shared.map((common, round) => {
        const center = c.ns * factor * Math.exp(common + 0.5 * sigma * normal());
        return {
          round,
          order: 0,
          samples: Array.from({ length: samplesPerRound }, () => center * Math.exp((sigma / 5) * normal())),
          iterationsPerSample: 100,
          warmupIterations: 1000,
          async: false,
          clock,
          digest: { hash: over.digest ?? '0123456789abcdef', summary: 'number 42' },
          wallMs: 300,
        };
      });
      run.results.push({ caseId: c.id, variantId: arm.id, status: 'ok', rounds, failures: [] });
    }
  }
  return parseRun(JSON.parse(JSON.stringify(run)), 'synthetic');
}

export function writeRun(path: string, run: RunRecord | Record<string, unknown>): string {
  writeFileSync(path, `${JSON.stringify(run, null, 1)}\n`);
  return path;
}
