/**
 * Executing a host-timed suite: the same plan as the in-runtime loop (rounds
 * outer; variants shuffled per round, or balanced for --compare; the run saved
 * after every round), but each round is one fresh process or one load run
 * timed from outside. One measurement yields one or more cases (a load run:
 * requests/s, latency p50, p99); each case gets one sample per round, so the
 * per-round statistics and the paired verdicts apply as they are.
 */
import { digest } from '@rtbench/core';
import type { CaseResult, Failure, RunRecord } from '@rtbench/core/schema';
import { createRandom } from '@rtbench/stats';
import { disposePrepared, isUnsupported, prepareMeasurement, runRound, type HostCaseSpec, type HostMeasurement, type HostVariant, type Prepared, type RoundOutcome, type RoundValues } from '@rtbench/host-timed';
import { formatMetric } from '@rtbench/report';
import { addResults, finishRun, newRun, resultKey, type RunHooks, type RunOptions } from '../run.ts';
import type { SuiteLocation } from '../suites.ts';
import { isResolved, type ResolvedVariant, type UnavailableVariant } from '../variants.ts';
import { balancedOrders, shuffle } from '../compare/schedule.ts';

/** A load run shorter than this is mostly connection set-up; --time is raised to it per round. */
export const MIN_LOAD_MS = 1_000;
/** Load before the measured window, at least this (the server's JIT warms up under load). */
export const MIN_LOAD_WARMUP_MS = 300;

/** The host's clock for every host-timed sample (performance.now(), sub-microsecond on Linux). */
const HOST_CLOCK = { name: 'host performance.now()', resolutionNs: 1_000, readCostNs: 0, edgeAligned: false };

/** Load per round: --time over the rounds and --warmup, raised to the minimums. */
function budgetOf(options: RunOptions): { loadMs: number; loadWarmupMs: number } {
  return { loadMs: Math.max(MIN_LOAD_MS, options.timeMs / options.schedule.rounds), loadWarmupMs: Math.max(MIN_LOAD_WARMUP_MS, options.warmupMs) };
}

function hostVariant(v: ResolvedVariant): HostVariant {
  return { id: v.spec.id, runtime: v.runner.runtime, target: v.target, flags: v.flags, bundle: v.runner.bundle };
}

export async function executeHostTimedRun(
  suite: SuiteLocation & { cases: HostCaseSpec[] },
  variants: (ResolvedVariant | UnavailableVariant)[],
  options: RunOptions,
  hooks: RunHooks,
): Promise<RunRecord> {
  const started = performance.now();
  const resolved = variants.filter(isResolved);
  const { schedule } = options;
  const rounds = schedule.rounds;
  const hasLoad = suite.cases.some((c) => c.measurement.kind === 'load');
  const run = newRun(suite, variants, options, new Date().toISOString());
  // Each case's metric; and what a load round really gets (raised to the minimums). A start-up round has no sampling time.
  run.cases = suite.cases.map(({ id, name, group, params, metric }) => ({ id, name, ...(group ? { group } : {}), params: { ...params }, metric }));
  if (hasLoad) Object.assign(run.options, { timeMs: budgetOf(options).loadMs * rounds, warmupMs: budgetOf(options).loadWarmupMs });
  // Adaptive rounds judge the in-runtime loop's precision; host-timed cases run the planned rounds.
  delete run.options.adaptive;

  // Measurements in declaration order, each with the (filtered) cases it feeds.
  const measurements = new Map<HostMeasurement, HostCaseSpec[]>();
  for (const c of suite.cases) measurements.set(c.measurement, [...(measurements.get(c.measurement) ?? []), c]);
  const resultFor = addResults(run, suite.cases, variants);
  const resultsOf = (cases: HostCaseSpec[], v: ResolvedVariant): CaseResult[] => cases.map((c) => resultFor.get(resultKey(c.id, v.spec.id))!);

  const budget = { ...budgetOf(options), timeoutMs: options.timeoutMs, ...(hooks.signal ? { signal: hooks.signal } : {}) };
  const prepared = new Map<string, Promise<Prepared | { unsupported: string } | { error: string }>>();
  const prepare = (m: HostMeasurement, key: string, v: ResolvedVariant): Promise<Prepared | { unsupported: string } | { error: string }> => {
    let p = prepared.get(`${key}\u0000${v.spec.id}`);
    if (!p) {
      p = prepareMeasurement(m, hostVariant(v), budget).catch((error: unknown) => ({ error: `preparing the program failed: ${(error as Error).message}` }));
      prepared.set(`${key}\u0000${v.spec.id}`, p);
    }
    return p;
  };

  const random = createRandom(options.seed);
  const entries = [...measurements.entries()].map(([m, cases]) => ({ m, cases, key: cases[0]!.id }));
  const schedules = schedule.order === 'balanced' ? new Map(entries.map((e) => [e.key, balancedOrders(resolved, rounds, random)])) : undefined;
  const total = rounds * entries.length * resolved.length;
  let done = 0;

  try {
    outer: for (let round = 0; round < rounds; round++) {
      for (const { m, cases, key } of entries) {
        const order = schedules ? schedules.get(key)![round]! : shuffle(resolved, random);
        for (const [position, v] of order.entries()) {
          if (hooks.signal?.aborted) break outer;
          const results = resultsOf(cases, v);
          const event = { done, total, elapsedMs: performance.now() - started, round, rounds, adaptive: false, caseId: key, variantId: v.spec.id };
          // A measurement that already failed, or whose every metric is unsupported here, is not retried.
          if (results.some((r) => r.status === 'failed') || results.every((r) => r.status === 'unsupported')) {
            done++;
            continue;
          }
          hooks.onProgress?.(event);
          const ready = await prepare(m, key, v);
          let outcome: RoundOutcome;
          if (isUnsupported(ready)) {
            for (const r of results) {
              r.status = 'unsupported';
              r.failures.push({ kind: 'unsupported', message: ready.unsupported, round });
            }
            outcome = { ok: false, kind: 'unsupported', message: ready.unsupported };
          } else if ('error' in ready) outcome = { ok: false, kind: 'error', message: ready.error };
          else outcome = await runRound(ready, hostVariant(v), budget);
          done++;
          record(results, cases, outcome, round, position);
          const first = results[0]!;
          hooks.onProgress?.({
            ...event,
            done,
            elapsedMs: performance.now() - started,
            outcome: outcome.ok
              ? { status: 'ok', medianNs: progressNs(outcome.values, cases[0]!), text: progressText(outcome, cases[0]!) }
              : { status: outcome.kind === 'unsupported' ? 'unsupported' : 'failed', message: first.failures[first.failures.length - 1]?.message ?? outcome.message },
          });
          run.finishedAt = new Date().toISOString();
          hooks.save(run);
        }
      }
    }
  } finally {
    disposePrepared();
  }
  finishRun(run, hooks.signal?.aborted ?? false);
  hooks.save(run);
  return run;
}

/** The progress line's number: time per start, or time per request of a load run. */
function progressNs(values: Partial<Record<HostCaseSpec['metricKey'], number>>, c: HostCaseSpec): number {
  const value = values[c.metricKey] ?? NaN;
  return c.metric.unit === 'req/s' ? 1e9 / value : value * 1e6;
}

/** The round's value; for a load run also how busy the generator's core was (near 100%: it may be the limit, not the server). */
function progressText(outcome: RoundValues, c: HostCaseSpec): string {
  const value = formatMetric(outcome.values[c.metricKey] ?? NaN, c.metric);
  return outcome.generatorBusy === undefined ? value : `${value} (load generator ${Math.round(outcome.generatorBusy * 100)}% busy)`;
}

function record(results: CaseResult[], cases: HostCaseSpec[], outcome: RoundOutcome, round: number, position: number): void {
  if (!outcome.ok) {
    if (outcome.kind === 'unsupported') return;
    const kind: Failure['kind'] = outcome.kind;
    for (const r of results.filter((x) => x.status !== 'unsupported')) {
      r.failures.push({ kind, message: outcome.message, round, ...(outcome.output ? { stderr: outcome.output } : {}) });
      r.status = 'failed';
    }
    return;
  }
  const answer = digest(outcome.answer);
  cases.forEach((c, i) => {
    const value = outcome.values[c.metricKey];
    const r = results[i]!;
    const unsupported = outcome.unsupported?.[c.metricKey];
    if (unsupported !== undefined) {
      if (r.status === 'ok') r.failures.push({ kind: 'unsupported', message: unsupported, round });
      r.status = 'unsupported';
      return;
    }
    if (value === undefined || !Number.isFinite(value) || value < 0) {
      r.failures.push({ kind: 'error', message: `the round gave no ${c.metric.name}`, round });
      r.status = 'failed';
      return;
    }
    r.rounds.push({
      round,
      order: position,
      samples: [value],
      iterationsPerSample: 1,
      warmupIterations: 0,
      async: false,
      clock: HOST_CLOCK,
      digest: answer,
      wallMs: outcome.wallMs,
    });
  });
}
