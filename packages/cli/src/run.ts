/**
 * Executing a plan: cases x variants x rounds, one fresh process per job.
 *
 * Rounds are the outer loop, so each case's rounds are spread over the whole
 * run and slow drift of the machine shows up as spread between rounds rather
 * than as a bias against whichever case ran last. Within a round, the order of
 * the variants follows the schedule (schedule.ts). With adaptive rounds, cases
 * whose ratios are still too uncertain get more rounds afterwards, one round
 * of all their variants at a time, so pairs stay pairs. The run is saved after
 * every job: an interrupt or a crash loses nothing.
 */
import { dirname } from 'node:path';
import type { CaseSpec, MeasureOptions } from '@rtbench/core';
import type { Job } from '@rtbench/core/protocol';
import { statsSchema, type CaseResult, type Failure, type Precision, type RunRecord } from '@rtbench/core/schema';
import { DEFAULT_RATIO_OPTIONS, roundMedians } from '@rtbench/report';
import { createRandom, median, pairedStopping, summarizeRounds } from '@rtbench/stats';
import { judgeOutcome } from '@rtbench/runner-kit';
import { bundleSuite, type Bundle } from './bundle.ts';
import { BALANCED_ORDER_DESCRIPTION, balancedOrders, maxRoundsOf, shuffle, SHUFFLED_ORDER_DESCRIPTION, type Schedule } from './compare/schedule.ts';
import { gitState } from './git.ts';
import { hostInfo } from './host.ts';
import { repoRoot } from './paths.ts';
import type { SuiteLocation } from './suites.ts';
import { isResolved, type ResolvedVariant, type UnavailableVariant } from './variants.ts';
import { isHostCaseSpec, type HostCaseSpec } from '@rtbench/host-timed';
import { executeHostTimedRun } from './host-timed/execute.ts';

export interface RunOptions {
  /** Sampling time per case and variant, summed over the schedule's rounds, in ms. */
  timeMs: number;
  /** Warmup in each process, in ms. */
  warmupMs: number;
  /** Per-process limit, in ms. */
  timeoutMs: number;
  filter?: string;
  seed: number;
  mode: 'bench' | 'compare';
  schedule: Schedule;
  command: string[];
}

export interface ProgressEvent {
  /** Jobs finished (including skipped ones). */
  done: number;
  /** Jobs planned so far; grows when adaptive rounds add some. */
  total: number;
  /** ms since the run started. */
  elapsedMs: number;
  round: number;
  /** The schedule's rounds (adaptive: the minimum). */
  rounds: number;
  /** True once the planned rounds are done and rounds are added adaptively. */
  adaptive: boolean;
  caseId: string;
  variantId: string;
  /** Present once the job has finished. */
  /** `text`: the value as it should read when it is not a time per op (host-timed cases: "812 ms", "12.3K req/s"). */
  outcome?: { status: 'ok'; medianNs: number; text?: string } | { status: 'failed' | 'unsupported'; message: string };
}

export interface RunHooks {
  onProgress?(event: ProgressEvent): void;
  /** Called with the run so far after every job, and at the end. */
  save(run: RunRecord): void;
  signal?: AbortSignal;
}

type AnyVariant = ResolvedVariant | UnavailableVariant;

export function newRun(suite: SuiteLocation & { cases: CaseSpec[] }, variants: AnyVariant[], options: RunOptions, startedAt: string): RunRecord {
  const { schedule } = options;
  const git = gitState(repoRoot);
  return {
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
      rounds: schedule.rounds,
      timeoutMs: options.timeoutMs,
      ...(options.filter ? { filter: options.filter } : {}),
      order: schedule.order === 'balanced' ? BALANCED_ORDER_DESCRIPTION : SHUFFLED_ORDER_DESCRIPTION,
      seed: options.seed,
      ...(schedule.adaptive
        ? { adaptive: { target: schedule.adaptive.target, minRounds: schedule.rounds, maxRounds: schedule.adaptive.maxRounds, ...(schedule.adaptive.budgetMs ? { budgetMs: schedule.adaptive.budgetMs } : {}) } }
        : {}),
    },
    ...(git ? { git } : {}),
    host: hostInfo(),
    variants: variants.map((v) => {
      if (!isResolved(v)) return { id: v.spec.id, runtime: v.runner.runtime, spec: v.spec.runtimeSpec, flags: v.spec.flags, unavailable: v.reason };
      // A binary the user named may be their own build: record its commit.
      const binaryGit = v.record.source === 'path' && v.record.binary ? gitState(dirname(v.record.binary)) : undefined;
      return binaryGit ? { ...v.record, binaryGit } : v.record;
    }),
    cases: suite.cases.map(({ id, name, group, params }) => ({ id, name, ...(group ? { group } : {}), params: { ...params } })),
    results: [],
    digestMismatches: [],
  };
}

/** The key of a case × variant in the map addResults returns. */
export const resultKey = (caseId: string, variantId: string): string => `${caseId}\u0000${variantId}`;

/**
 * One result per case × variant, added to the run in case order; a variant
 * that could not be resolved starts (and stays) failed with the reason.
 */
export function addResults(run: RunRecord, cases: readonly { id: string }[], variants: readonly AnyVariant[]): Map<string, CaseResult> {
  const resultFor = new Map<string, CaseResult>();
  for (const c of cases) {
    for (const v of variants) {
      const result: CaseResult = { caseId: c.id, variantId: v.spec.id, status: 'ok', rounds: [], failures: [] };
      if (!isResolved(v)) {
        result.status = 'failed';
        result.failures.push({ kind: v.kind === 'flags' ? 'error' : 'runtime-unavailable', message: v.reason });
      }
      resultFor.set(resultKey(c.id, v.spec.id), result);
      run.results.push(result);
    }
  }
  return resultFor;
}

export async function executeRun(suite: SuiteLocation & { cases: CaseSpec[] }, variants: AnyVariant[], options: RunOptions, hooks: RunHooks): Promise<RunRecord> {
  // Cases timed by the host from outside the runtime (start-up, HTTP load) have their own executor.
  if (suite.cases.length && suite.cases.every(isHostCaseSpec)) return executeHostTimedRun({ ...suite, cases: suite.cases as HostCaseSpec[] }, variants, options, hooks);
  const started = performance.now();
  const run = newRun(suite, variants, options, new Date().toISOString());
  const { schedule } = options;
  const resolved = variants.filter(isResolved);
  const key = resultKey;

  const resultFor = addResults(run, suite.cases, variants);

  const bundles = new Map<string, Bundle>();
  for (const v of resolved) {
    if (!bundles.has(v.runner.runtime)) bundles.set(v.runner.runtime, await bundleSuite(suite.entry, suite.name, v.runner.runtime, v.runner.bundle));
  }

  const measureOptions: MeasureOptions = { warmupMs: options.warmupMs, timeMs: options.timeMs / schedule.rounds, minSamples: 5, maxSamples: 100_000, sampleMs: 0 };
  const random = createRandom(options.seed);
  // Balanced schedules are drawn up front, per case; 'shuffled' draws as it goes (as before, so old seeds replay).
  const balanced = schedule.order === 'balanced' ? new Map(suite.cases.map((c) => [c.id, balancedOrders(resolved, maxRoundsOf(schedule), random)])) : undefined;
  let total = schedule.rounds * suite.cases.length * resolved.length;
  let done = 0;
  let adaptivePhase = false;
  const aborted = (): boolean => hooks.signal?.aborted ?? false;

  /** One round of one case: every variant once, in the schedule's order. */
  async function runCaseRound(c: CaseSpec, round: number): Promise<void> {
    const order = balanced ? balanced.get(c.id)![round]! : shuffle(resolved, random);
    for (const [position, v] of order.entries()) {
      if (aborted()) return;
      const result = resultFor.get(key(c.id, v.spec.id))!;
      const event = { done, total, elapsedMs: performance.now() - started, round, rounds: schedule.rounds, adaptive: adaptivePhase, caseId: c.id, variantId: v.spec.id };
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
      // Warnings are said once per case and variant, however many rounds repeat them.
      for (const m of outcome.messages) {
        if (m.type === 'warning' && !result.failures.some((f) => f.kind === 'warning' && f.message === m.message)) {
          result.failures.push({ kind: 'warning', message: m.message, round });
        }
      }
      // One clean answer per process for this case, or a failure that says why (runner-kit's judgeOutcome).
      const verdict = judgeOutcome(outcome, v.runner.runtime, options.timeoutMs);
      if (verdict.kind === 'result') {
        const message = verdict.message;
        result.rounds.push({
          round,
          order: position,
          samples: message.samples,
          ...(message.sampleStartMs ? { sampleStartMs: message.sampleStartMs } : {}),
          iterationsPerSample: message.iterationsPerSample,
          warmupIterations: message.warmupIterations,
          async: message.async,
          clock: message.clock,
          digest: message.digest,
          ...(message.gc ? { gc: message.gc } : {}),
          ...(message.metrics ? { metrics: message.metrics } : {}),
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
        total,
        elapsedMs: performance.now() - started,
        outcome:
          result.status === 'ok'
            ? { status: 'ok', medianNs: median(result.rounds[result.rounds.length - 1]!.samples) }
            : { status: result.status === 'unsupported' ? 'unsupported' : 'failed', message: result.failures[result.failures.length - 1]!.message },
      });
      run.finishedAt = new Date().toISOString();
      hooks.save(run);
    }
  }

  const roundsRun = new Map(suite.cases.map((c) => [c.id, 0]));
  outer: for (let round = 0; round < schedule.rounds; round++) {
    for (const c of suite.cases) {
      if (aborted()) break outer;
      await runCaseRound(c, round);
      roundsRun.set(c.id, round + 1);
    }
  }

  const adaptive = schedule.adaptive;
  if (adaptive) {
    adaptivePhase = true;
    const baseline = resolved[0];
    const stopped = new Map<string, Precision['stoppedBy']>();
    const precisionOf = (c: CaseSpec): Map<string, number | undefined> => casePrecision(c.id, baseline?.spec.id, resolved.map((v) => v.spec.id), resultFor);
    // The ratios decide; a lone variant is judged on its own median's CI.
    const converged = (c: CaseSpec): boolean => {
      const reached = precisionOf(c);
      const judged = resolved.length > 1 ? [...reached].filter(([id]) => id !== baseline?.spec.id) : [...reached];
      return judged.every(([, r]) => r !== undefined && r <= adaptive.target);
    };
    while (!aborted()) {
      const pending = suite.cases.filter((c) => !stopped.has(c.id) && usable(c.id, resolved.map((v) => v.spec.id), resultFor) && !converged(c));
      for (const c of suite.cases) if (!pending.includes(c) && !stopped.has(c.id)) stopped.set(c.id, 'target');
      const next = pending.filter((c) => {
        if (roundsRun.get(c.id)! < adaptive.maxRounds) return true;
        stopped.set(c.id, 'max-rounds');
        return false;
      });
      if (!next.length) break;
      total += next.length * resolved.length;
      let ran = 0;
      for (const c of next) {
        if (aborted()) break;
        if (adaptive.budgetMs !== undefined && performance.now() - started >= adaptive.budgetMs) {
          for (const p of next.slice(ran)) stopped.set(p.id, 'time-budget');
          break;
        }
        await runCaseRound(c, roundsRun.get(c.id)!);
        roundsRun.set(c.id, roundsRun.get(c.id)! + 1);
        ran++;
      }
      // Jobs planned but not run leave the total.
      total -= (next.length - ran) * resolved.length;
      if (ran < next.length) break;
    }
    // What each cell aimed for and reached, and why its rounds stopped.
    for (const c of suite.cases) {
      const reachedBy = precisionOf(c);
      for (const v of variants) {
        const result = resultFor.get(key(c.id, v.spec.id))!;
        const reached = reachedBy.get(v.spec.id);
        const own = v.spec.id === baseline?.spec.id && resolved.length > 1 ? converged(c) : reached !== undefined && reached <= adaptive.target;
        const why: Precision['stoppedBy'] = result.status !== 'ok' ? 'failed' : own ? 'target' : aborted() ? 'interrupted' : (stopped.get(c.id) ?? 'target');
        result.precision = { target: adaptive.target, ...(reached !== undefined ? { reached } : {}), rounds: result.rounds.length, stoppedBy: why };
      }
    }
  }

  finishRun(run, aborted());
  hooks.save(run);
  return run;
}

/** Whether a case can still gain from more rounds: at least one variant still runs it. */
function usable(caseId: string, variantIds: string[], resultFor: Map<string, CaseResult>): boolean {
  return variantIds.some((id) => resultFor.get(`${caseId}\u0000${id}`)?.status === 'ok');
}

/**
 * The precision each variant of a case has reached: the half-width of its
 * paired ratio's CI against the baseline (relative; stats' pairedStopping, the
 * same interval the table shows), or, for the baseline and a lone variant, of
 * its own median's CI. Undefined: the CI cannot reach 95% yet.
 */
function casePrecision(caseId: string, baselineId: string | undefined, variantIds: string[], resultFor: Map<string, CaseResult>): Map<string, number | undefined> {
  const out = new Map<string, number | undefined>();
  const base = baselineId ? resultFor.get(`${caseId}\u0000${baselineId}`) : undefined;
  const baseMedians = roundMedians(base);
  for (const id of variantIds) {
    const result = resultFor.get(`${caseId}\u0000${id}`)!;
    if (result.status !== 'ok' || !result.rounds.length) continue;
    if (id === baselineId || !base || base.status !== 'ok') {
      const halfWidth = summarizeRounds(result.rounds.map((r) => r.samples)).ciHalfWidthRel;
      out.set(id, Number.isFinite(halfWidth) ? halfWidth : undefined);
      continue;
    }
    const own = roundMedians(result);
    const rounds = [...own.keys()].filter((k) => baseMedians.has(k));
    const b = rounds.map((k) => baseMedians.get(k)!);
    const c = rounds.map((k) => own.get(k)!);
    if (!rounds.length || ![...b, ...c].every((x) => x > 0)) {
      out.set(id, undefined);
      continue;
    }
    const decision = pairedStopping(b, c, { confidence: DEFAULT_RATIO_OPTIONS.confidence });
    out.set(id, Number.isFinite(decision.halfWidth) ? decision.halfWidth : undefined);
  }
  return out;
}

/** Statistics of every case x variant that has rounds, recomputed from the raw samples. */
export function computeStats(run: RunRecord): void {
  for (const result of run.results) {
    if (!result.rounds.length) continue;
    // The schema names the fields a run keeps; parsing picks exactly those. A
    // median of 0 ns (below the clock's resolution) has no finite relative CI:
    // such a result keeps its samples and goes without statistics.
    const stats = statsSchema.safeParse(summarizeRounds(result.rounds.map((r) => r.samples)));
    if (stats.success) result.stats = stats.data;
    else delete result.stats;
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
  const failed = run.results.some((r) => r.failures.some((f) => f.kind !== 'unsupported' && f.kind !== 'warning')) || run.digestMismatches.length > 0;
  run.status = interrupted ? 'interrupted' : failed ? 'failed' : 'complete';
  run.finishedAt = new Date().toISOString();
}
