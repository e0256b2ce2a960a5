/**
 * Host-timed cases: each arm of a replicate is one program start or one load
 * run against a fresh server, timed from outside the runtime
 * (@rtbench/host-timed). One measurement yields one or more cases (a load
 * run: requests/s, latency p50, p99); each case gets one sample per round, so
 * the per-round statistics and the paired verdicts apply as they are. The
 * program or server a measurement needs is prepared once per variant and kept
 * until the run ends.
 */
import { EVERY_PLATFORM } from '@rtbench/host/platform';
import { digest } from '@rtbench/core';
import type { RoundRecord } from '@rtbench/core/schema';
import { HOST_TIMED_RECORD, type LoadRound } from '@rtbench/measurer-records';
import { disposePrepared, isHostCaseSpec, isUnsupported, LOAD_WINDOWS, namedWrkProblem, prepareMeasurement, runRound, type HostCaseSpec, type HostMeasurement, type Prepared, type RoundOutcome } from '@rtbench/host-timed';
import { MeasurerRefused, type Arm, type ArmResult, type CaseOutcome, type Measurer, type MeasurerDescriptor, type MeasurerSetup, type ReplicateContext, type Unit } from '../measurer.ts';
import { hostTimedSuiteCode } from '../suite-code.ts';
import { TIMING_DEFAULTS } from './timing-defaults.ts';
import { isSmoke } from './measure-options.ts';

/** Steady windows of a load round last at least this (short ones are mostly connection set-up); --time is raised to it per round. */
const MIN_LOAD_MS = 1_000;
/** The warm-up a load round's bound allows for, at least this (the server's JIT warms up under load): the round serves at most it and twice its steady time. */
const MIN_LOAD_WARMUP_MS = 1_000;
/**
 * A smoke run's (--fixed-warmup) load round: one window of load, and the
 * warm-up --warmup gives (no window starts past the two). Its figures are
 * not read; that each server starts, answers the same and survives its load
 * is, and two seconds of load a round only cost CPU (the test suite's load
 * rounds were most of their files' CPU).
 */
const SMOKE_MIN_LOAD_MS = LOAD_WINDOWS.windowMs;

/** The host's clock for every host-timed sample (performance.now(), sub-microsecond on Linux). */
const HOST_CLOCK = { name: 'host performance.now()', resolutionNs: 1_000, readCostNs: 0, edgeAligned: false };

/**
 * A load generator busy this much of its window on its core is near its own
 * ceiling: the requests/s it measured may be the generator's, not the server's.
 * (How busy the generators were on the hello-world servers: bench/http-hello/README.md.)
 */
const GENERATOR_SATURATED = 0.9;

const GENERATOR_SATURATED_WARNING = `the load generator was at least ${GENERATOR_SATURATED * 100}% busy on its core in a round: requests/s there may be its ceiling, not the server's`;

/** Said once per case: the round was measured, and its errors are counted beside its figures. */
const LOAD_ERRORS_WARNING = 'some requests under load got an error status, a socket error or no answer in time: counted in each round (the error rate beside the load figures), the figures are of the rest';

/** Requests of a load round that ended in error: an error status, a socket error, a timeout. */
function loadErrors(outcome: RoundOutcome): number {
  const o = outcome.ok ? outcome.load?.outcomes : undefined;
  return o ? o.errorStatus + o.socketErrors + o.timeouts : 0;
}

export const HOST_TIMED: MeasurerDescriptor = {
  name: 'host-timed',
  chosenBy: 'suite',
  owns: (cases) => cases.length > 0 && cases.every(isHostCaseSpec),
  suiteKind: 'timed by the host (start-up, HTTP load)',
  record: HOST_TIMED_RECORD,
  platforms: EVERY_PLATFORM,
  warmsInRuntime: false,
  measures: "what the suite's cases declare: time to first output or response, requests/s, latency, the server's CPU per request",
  help: 'one program start or one load run per case, variant and round, timed from outside the runtime',
  // Timing's, but a fixed number of rounds: one round is a whole server or program start.
  defaults: { ...TIMING_DEFAULTS, bench: { ...TIMING_DEFAULTS.bench, adaptive: 'never' }, compare: { ...TIMING_DEFAULTS.compare, adaptive: 'never' } },
  prepare() {
    const wrk = namedWrkProblem();
    if (wrk) throw new MeasurerRefused(wrk);
    return {};
  },
  build(setup) {
    const cases = setup.cases as readonly HostCaseSpec[];
    const budget = hostBudget(setup);
    // What a load round really gets (raised to the minimums); a start-up round has no sampling time.
    const load = cases.some((c) => c.measurement.kind === 'load');
    return {
      measurer: hostTimedMeasurer(budget),
      units: hostUnits(cases),
      // Each case's metric.
      cases: cases.map(({ id, name, group, params, metric }) => ({ id, name, ...(group ? { group } : {}), params: { ...params }, metric })),
      ...(load ? { recordOptions: { timeMs: budget.loadMs * setup.rounds, warmupMs: budget.loadWarmupMs } } : {}),
      // Each measurement bundles its own programs.
      ownCode: (arms) => hostTimedSuiteCode(setup.suite, [...new Set(arms.map((a) => a.plugin))]),
    };
  },
};

interface HostBudget {
  loadMs: number;
  loadWarmupMs: number;
  loadBoundMs: number;
  timeoutMs: number;
  /** The program cache's folder for start-up programs and servers (owner-only, checked by hash). */
  programDir: string;
}

/**
 * Load per round: the sampling time over the rounds and the warmup, raised to the minimums (a smoke run's, under a
 * fixed warmup); the bound past which no window starts: the warm-up and twice the load (a smoke run's: once).
 */
export function hostBudget(setup: Pick<MeasurerSetup, 'timeMs' | 'rounds' | 'warmupMs' | 'warmupMinMs' | 'timeoutMs' | 'programDir'>): HostBudget {
  const smoke = isSmoke(setup);
  const loadMs = Math.max(smoke ? SMOKE_MIN_LOAD_MS : MIN_LOAD_MS, setup.timeMs / setup.rounds);
  const loadWarmupMs = smoke ? setup.warmupMs : Math.max(MIN_LOAD_WARMUP_MS, setup.warmupMs);
  return {
    loadMs,
    loadWarmupMs,
    loadBoundMs: loadWarmupMs + (smoke ? 1 : 2) * loadMs,
    timeoutMs: setup.timeoutMs,
    programDir: setup.programDir,
  };
}

/** Units of a host-timed suite: one per measurement, with the (filtered) cases it feeds, in declaration order. */
function hostUnits(cases: readonly HostCaseSpec[]): Unit[] {
  const byMeasurement = new Map<HostMeasurement, HostCaseSpec[]>();
  for (const c of cases) byMeasurement.set(c.measurement, [...(byMeasurement.get(c.measurement) ?? []), c]);
  return [...byMeasurement.values()].map((cs) => ({ key: cs[0]!.id, cases: cs }));
}

function hostTimedMeasurer(budget: HostBudget): Measurer {
  const prepared = new Map<string, Promise<Prepared | { unsupported: string } | { error: string }>>();
  const prepare = (m: HostMeasurement, key: string, arm: Arm, signal: AbortSignal | undefined): Promise<Prepared | { unsupported: string } | { error: string }> => {
    let p = prepared.get(`${key}\u0000${arm.id}`);
    if (!p) {
      p = prepareMeasurement(m, arm, { ...budget, ...(signal ? { signal } : {}) }).catch((error: unknown) => ({ error: `preparing the program failed: ${(error as Error).message}` }));
      prepared.set(`${key}\u0000${arm.id}`, p);
    }
    return p;
  };
  return {
    descriptor: HOST_TIMED,
    async replicate(unit: Unit, arms: readonly Arm[], context: ReplicateContext): Promise<ArmResult[]> {
      const cases = unit.cases as readonly HostCaseSpec[];
      const out: ArmResult[] = [];
      for (const [position, arm] of arms.entries()) {
        if (context.signal?.aborted) break;
        context.onArmStart?.(arm);
        const ready = await prepare(cases[0]!.measurement, unit.key, arm, context.signal);
        let outcome: RoundOutcome;
        if (isUnsupported(ready)) outcome = { ok: false, kind: 'unsupported', message: ready.unsupported };
        else if ('error' in ready) outcome = { ok: false, kind: 'error', message: ready.error };
        else outcome = await runRound(ready, arm, { ...budget, ...(context.signal ? { signal: context.signal } : {}) });
        const saturated = outcome.ok && outcome.load !== undefined && outcome.load.generatorBusy >= GENERATOR_SATURATED;
        const warnings = [...(saturated ? [GENERATOR_SATURATED_WARNING] : []), ...(loadErrors(outcome) > 0 ? [LOAD_ERRORS_WARNING] : []), ...(outcome.ok && outcome.generatorNote ? [outcome.generatorNote] : [])];
        out.push({ armId: arm.id, warnings, outcomes: caseOutcomes(cases, outcome, context.round, position), ...(outcome.ok ? { text: progressText(outcome, cases[0]!) } : {}) });
      }
      return out;
    },
    dispose: disposePrepared,
  };
}

function caseOutcomes(cases: readonly HostCaseSpec[], outcome: RoundOutcome, round: number, position: number): CaseOutcome[] {
  if (!outcome.ok) {
    if (outcome.kind === 'unsupported') return cases.map(() => ({ kind: 'unsupported', reason: outcome.message }));
    return cases.map(() => ({ kind: 'failure', failure: { kind: outcome.kind, message: outcome.message, ...(outcome.output ? { stderr: outcome.output } : {}) } }));
  }
  const answer = digest(outcome.answer);
  return cases.map((c): CaseOutcome => {
    const unsupported = outcome.unsupported?.[c.metricKey];
    if (unsupported !== undefined) return { kind: 'unsupported', reason: unsupported };
    const value = outcome.values[c.metricKey];
    if (value === undefined || !Number.isFinite(value) || value < 0) return { kind: 'failure', failure: { kind: 'error', message: `the round gave no ${c.metric.name}` } };
    const record: RoundRecord = { round, order: position, samples: [value], iterationsPerSample: 1, warmupIterations: 0, async: false, clock: HOST_CLOCK, digest: answer, wallMs: outcome.wallMs, ...(outcome.load ? { load: caseLoad(outcome, c) } : {}) };
    return { kind: 'round', record };
  });
}

/** The round's load block for one case: its phases carry the case's own warm-up figure. */
function caseLoad(outcome: Extract<RoundOutcome, { ok: true }>, c: HostCaseSpec): LoadRound {
  const load = outcome.load!;
  const warmup = outcome.warmupValues?.[c.metricKey];
  return load.phases && warmup !== undefined && Number.isFinite(warmup) ? { ...load, phases: { ...load.phases, warmup } } : load;
}

/** The round's value as it reads (a time or requests/s); for a load run also how busy the generator's core was (near 100%: it may be the limit, not the server), and its errors. */
function progressText(outcome: Extract<RoundOutcome, { ok: true }>, c: HostCaseSpec): string {
  const value = outcome.values[c.metricKey] ?? NaN;
  const text = c.metric.unit === 'req/s' ? `${(value / 1000).toFixed(1)}K req/s` : `${value.toFixed(1)} ${c.metric.unit}`;
  if (outcome.load === undefined) return text;
  const errors = loadErrors(outcome);
  return `${text} (${outcome.load.generator} ${Math.round(outcome.load.generatorBusy * 100)}% busy${errors ? `, ${errors} errors` : ''})`;
}
