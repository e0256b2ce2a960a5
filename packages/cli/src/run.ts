/**
 * Executing a plan: cases x variants x rounds, one fresh process per job.
 *
 * Rounds are the outer loop, so each case's rounds are spread over the whole
 * run and slow drift of the machine shows up as spread between rounds rather
 * than as a bias against whichever case ran last. Within a round, the order of
 * variants is shuffled (seeded, recorded), so no variant always runs first.
 * The run is saved after every job: an interrupt or a crash loses nothing.
 */
import type { CaseSpec } from '@rtbench/core';
import type { Job } from '@rtbench/core/protocol';
import type { CaseResult, Failure, RunRecord } from '@rtbench/core/schema';
import type { MeasureOptions } from '@rtbench/core';
import { summarizeRounds, createRandom, median } from '@rtbench/stats';
import { judgeOutcome } from '@rtbench/runner-kit';
import { bundleSuite, type Bundle } from './bundle.ts';
import { hostInfo } from './host.ts';
import type { SuiteLocation } from './suites.ts';
import { isResolved, type ResolvedVariant, type UnavailableVariant } from './variants.ts';
import { BALANCED_ORDER_DESCRIPTION, balancedOrders, shuffle } from './compare/schedule.ts';

export interface RunOptions {
  /** Sampling time per case and variant, summed over rounds, in ms. */
  timeMs: number;
  /** Warmup in each process, in ms. */
  warmupMs: number;
  rounds: number;
  /** Per-process limit, in ms. */
  timeoutMs: number;
  filter?: string;
  seed: number;
  mode: 'bench' | 'compare';
  /**
   * Order of the variants within each round and case. 'shuffled' (bench's
   * default): a fresh seeded shuffle each time. 'balanced' (compare's
   * default): see compare/schedule.ts.
   */
  order?: 'shuffled' | 'balanced';
  command: string[];
}

export interface ProgressEvent {
  done: number;
  total: number;
  round: number;
  rounds: number;
  caseId: string;
  variantId: string;
  /** Present once the job has finished. */
  outcome?: { status: 'ok'; medianNs: number } | { status: 'failed' | 'unsupported'; message: string };
}

export interface RunHooks {
  onProgress?(event: ProgressEvent): void;
  /** Called with the run so far after every job, and at the end. */
  save(run: RunRecord): void;
  signal?: AbortSignal;
}

export async function executeRun(
  suite: SuiteLocation & { cases: CaseSpec[] },
  variants: (ResolvedVariant | UnavailableVariant)[],
  options: RunOptions,
  hooks: RunHooks,
): Promise<RunRecord> {
  const startedAt = new Date().toISOString();
  const resolved = variants.filter(isResolved);
  const orderKind = options.order ?? (options.mode === 'compare' ? 'balanced' : 'shuffled');
  const run: RunRecord = {
    schema: 'rtbench.run',
    schemaVersion: 1,
    id: `${startedAt}-${suite.name}-${options.seed}`,
    status: 'interrupted',
    startedAt,
    finishedAt: startedAt,
    command: options.command,
    suite: suite.name,
    mode: options.mode,
    options: {
      timeMs: options.timeMs,
      warmupMs: options.warmupMs,
      rounds: options.rounds,
      timeoutMs: options.timeoutMs,
      ...(options.filter ? { filter: options.filter } : {}),
      order: orderKind === 'balanced' ? BALANCED_ORDER_DESCRIPTION : 'shuffled per round and case',
      seed: options.seed,
    },
    host: hostInfo(),
    variants: variants.map((v) =>
      isResolved(v) ? v.record : { id: v.spec.id, runtime: v.runner.runtime, spec: v.spec.runtimeSpec, flags: v.spec.flags, unavailable: v.reason },
    ),
    cases: suite.cases.map(({ id, name, group, params }) => ({ id, name, ...(group ? { group } : {}), params: { ...params } })),
    results: [],
    digestMismatches: [],
  };

  const resultFor = new Map<string, CaseResult>();
  for (const c of suite.cases) {
    for (const v of variants) {
      const result: CaseResult = { caseId: c.id, variantId: v.spec.id, status: 'ok', rounds: [], failures: [] };
      if (!isResolved(v)) {
        result.status = 'failed';
        result.failures.push({ kind: v.kind === 'flags' ? 'error' : 'runtime-unavailable', message: v.reason });
      }
      resultFor.set(`${c.id}\u0000${v.spec.id}`, result);
      run.results.push(result);
    }
  }

  const bundles = new Map<string, Bundle>();
  for (const v of resolved) {
    if (!bundles.has(v.runner.runtime)) bundles.set(v.runner.runtime, await bundleSuite(suite.entry, suite.name, v.runner.runtime, v.runner.bundle));
  }

  const measureOptions: MeasureOptions = {
    warmupMs: options.warmupMs,
    timeMs: options.timeMs / options.rounds,
    minSamples: 5,
    maxSamples: 100_000,
    sampleMs: 0,
  };
  const random = createRandom(options.seed);
  // Balanced schedules are drawn up front, per case; 'shuffled' draws as it goes (as before, so old seeds replay).
  const schedules = orderKind === 'balanced' ? new Map(suite.cases.map((c) => [c.id, balancedOrders(resolved, options.rounds, random)])) : undefined;
  const total = options.rounds * suite.cases.length * resolved.length;
  let done = 0;

  outer: for (let round = 0; round < options.rounds; round++) {
    for (const c of suite.cases) {
      const order = schedules ? schedules.get(c.id)![round]! : shuffle(resolved, random);
      for (const [position, v] of order.entries()) {
        if (hooks.signal?.aborted) break outer;
        const result = resultFor.get(`${c.id}\u0000${v.spec.id}`)!;
        const event = { done, total, round, rounds: options.rounds, caseId: c.id, variantId: v.spec.id };
        // A case that already failed or is unsupported here is not retried.
        if (result.status !== 'ok') {
          done++;
          continue;
        }
        hooks.onProgress?.(event);
        const job: Job = { protocol: 1, kind: 'measure', caseId: c.id, options: measureOptions };
        const outcome = await v.runner.runJob({
          target: v.target,
          flags: v.flags,
          bundlePath: bundles.get(v.runner.runtime)!.path,
          job,
          timeoutMs: options.timeoutMs,
          ...(hooks.signal ? { signal: hooks.signal } : {}),
        });
        done++;
        const failure = (kind: Failure['kind'], message: string, extra: Partial<Failure> = {}): void => {
          result.failures.push({ kind, message, round, ...extra });
          result.status = 'failed';
        };
        const verdict = judgeOutcome(outcome, v.runner.runtime, options.timeoutMs);
        if (verdict.kind === 'result') {
          const message = verdict.message;
          result.rounds.push({
            round,
            order: position,
            samples: message.samples,
            iterationsPerSample: message.iterationsPerSample,
            warmupIterations: message.warmupIterations,
            async: message.async,
            clock: message.clock,
            digest: message.digest,
            ...(message.gc ? { gc: message.gc } : {}),
            wallMs: outcome.wallMs,
          });
        } else if (verdict.kind === 'unsupported') {
          result.status = 'unsupported';
          result.failures.push({ kind: 'unsupported', message: verdict.reason, round });
        } else {
          const { failure: kind, message, phase, stack } = verdict;
          failure(kind, message, { ...(phase ? { phase } : {}), ...(stack ? { stack } : {}), ...(kind === 'interrupted' ? {} : { stderr: outcome.stderr }) });
        }
        hooks.onProgress?.({
          ...event,
          done,
          outcome:
            result.status === 'ok'
              ? { status: 'ok', medianNs: median(result.rounds[result.rounds.length - 1]!.samples) }
              : { status: result.status === 'unsupported' ? 'unsupported' : 'failed', message: result.failures[result.failures.length - 1]!.message },
        });
        run.finishedAt = new Date().toISOString();
        hooks.save(run);
      }
    }
  }

  finishRun(run, hooks.signal?.aborted ?? false);
  hooks.save(run);
  return run;
}

/** Statistics of every case x variant that has rounds, recomputed from the raw samples. */
export function computeStats(run: RunRecord): void {
  for (const result of run.results) {
    if (!result.rounds.length) continue;
    const s = summarizeRounds(result.rounds.map((r) => r.samples));
    const { n, rounds, median, mean, min, max, p25, p75, ci, ciHalfWidthRel, roundMedians, outliers, ciMethod } = s;
    result.stats = { n, rounds, median, mean, min, max, p25, p75, ci, ciHalfWidthRel, roundMedians, outliers, ciMethod };
  }
}

/** Statistics, digest checks and the final status; pure on the record. */
export function finishRun(run: RunRecord, interrupted: boolean): void {
  computeStats(run);
  for (const result of run.results) {
    if (result.rounds.length && result.status === 'failed') result.status = 'partial';
    // The same variant must compute the same value in every round.
    const own = new Set(result.rounds.map((r) => r.digest.hash));
    if (own.size > 1) {
      result.failures.push({ kind: 'digest-mismatch', message: `the case returned different values in different rounds (${[...own].join(', ')}): it is not deterministic` });
      result.status = result.rounds.length ? 'partial' : 'failed';
    }
  }
  run.digestMismatches = [];
  for (const c of run.cases) {
    const digests: Record<string, string> = {};
    for (const r of run.results) if (r.caseId === c.id && r.rounds[0]) digests[r.variantId] = r.rounds[0].digest.hash;
    if (new Set(Object.values(digests)).size > 1) run.digestMismatches.push({ caseId: c.id, digests });
  }
  const failed = run.results.some((r) => r.failures.some((f) => f.kind !== 'unsupported')) || run.digestMismatches.length > 0;
  run.status = interrupted ? 'interrupted' : failed ? 'failed' : 'complete';
  run.finishedAt = new Date().toISOString();
}
