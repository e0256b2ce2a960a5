/**
 * Runs of a release window as the run loop saves them, made up with known
 * changes: per set, one warm process per release (two sets per process),
 * each sampled for 20 turns; every turn shares a machine state that moves all
 * releases alike (so it cancels in a paired ratio), plus independent noise per
 * sample and a per-process offset. Each is a whole run, valid against the
 * schema, as the folder's reader checks it.
 */
import type { RunRecord } from '@rtbench/core/schema';
import { createRandom } from '@rtbench/stats';

export interface FakeWindow {
  runtime: string;
  releases: readonly string[];
  cases: readonly string[];
  /** Time of a release on a case, relative to the first (1 = unchanged). */
  factor: (release: string, caseId: string) => number;
  sets: number;
  /** Sets the run stopped after (an interrupted run); default all. */
  stopAfter?: number;
  seed: number;
  /** Each sample's own noise, relative (default 3%). */
  noise?: number;
  /** The run's id (default: from the runtime, the releases and the seed). */
  id?: string;
}

const CLOCK = { name: 'hrtime', resolutionNs: 1, readCostNs: 20, edgeAligned: false };

export function fakeWindowRun(w: FakeWindow): RunRecord {
  const random = createRandom(w.seed);
  const gauss = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const noise = w.noise ?? 0.03;
  const done = w.stopAfter ?? w.sets;
  const variants = w.releases.map((tag) => ({ id: `${w.runtime}@${tag}`, runtime: w.runtime, spec: `${w.runtime}@${tag}`, flags: [], version: tag, engine: 'v8', engineVersion: `engine-of-${tag}`, displayNames: { runtime: w.runtime, engine: 'V8', engineShort: 'V8' } }));
  const processOffset = new Map<string, number>();
  const results = w.cases.flatMap((caseId) =>
    w.releases.map((tag) => ({ caseId, variantId: `${w.runtime}@${tag}`, status: 'ok', failures: [], rounds: [] as Record<string, unknown>[] })),
  );
  for (let set = 0; set < done; set++) {
    const process = Math.floor(set / 2);
    for (const caseId of w.cases) {
      const machine = Array.from({ length: 20 }, () => Math.exp(0.2 * gauss()));
      for (const tag of w.releases) {
        const key = `${tag}/${process}`;
        if (!processOffset.has(key)) processOffset.set(key, Math.exp(0.01 * gauss()));
        const samples = machine.map((m) => 1000 * w.factor(tag, caseId) * m * processOffset.get(key)! * Math.exp(noise * gauss()));
        const round = { round: set, order: 0, samples, iterationsPerSample: 100, warmupIterations: 100, async: false, clock: CLOCK, digest: { hash: '0123456789abcdef', summary: 'number 1' }, wallMs: 100, lockstep: { positions: samples.map(() => 0), process } };
        results.find((r) => r.caseId === caseId && r.variantId === `${w.runtime}@${tag}`)!.rounds.push(round);
      }
    }
  }
  return {
    schema: 'rtbench.run',
    schemaVersion: 1,
    id: w.id ?? `${w.runtime}-${w.releases.join('-')}-${w.seed}`,
    status: done < w.sets ? 'interrupted' : 'complete',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:10:00.000Z',
    command: ['releases'],
    mode: 'compare',
    suite: 'fake',
    options: { timeMs: 100, warmupMs: 150, rounds: w.sets, timeoutMs: 60000, order: 'lockstep', seed: w.seed },
    host: { os: 'linux', release: '6', arch: 'x64', cpuModel: 'Synthetic CPU', cores: 2, memoryBytes: 1e9, loadavg: [0, 0, 0], hostNode: '24.0.0', env: {} },
    variants,
    cases: w.cases.map((id) => ({ id, name: id, params: {} })),
    results,
    digestMismatches: [],
  } as unknown as RunRecord;
}
